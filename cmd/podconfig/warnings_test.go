package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen"
)

// optionalRefPod is a pod whose container refers to an optional ConfigMap the input lacks: it
// renders, with an OptionalConfigMapNotFound warning on the container.
func optionalRefPod(name, configMap string) string {
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + "}\nspec:\n  containers:\n  - name: c\n    image: app:1\n" +
		"    env:\n    - name: X\n      valueFrom: {configMapKeyRef: {name: \"" + configMap + "\", key: k, optional: true}}\n"
}

// Every warning, the pods' as well as the input's, goes to standard error in every output
// format, never among the configs on standard output; one message for several pods is one line.
func TestWarningsOnStandardErrorOnly(t *testing.T) {
	var docs []string
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		docs = append(docs, optionalRefPod(name, "shared"))
	}
	docs = append(docs, optionalRefPod("f", "own"))
	in := strings.Join(docs, "---\n")
	shared := `warning: OptionalConfigMapNotFound: skipping optional envvar "X": configmap "shared" not found; kubelet skips it as well when it is missing, but if the cluster has it, add it to the input (5 containers in 5 pods: default/a container c, default/b container c, default/c container c and 2 more)` + "\n"
	own := `warning: pod default/f, container c: OptionalConfigMapNotFound: skipping optional envvar "X": configmap "own" not found; kubelet skips it as well when it is missing, but if the cluster has it, add it to the input` + "\n"

	t.Run("table: the warnings on stderr, none on stdout", func(t *testing.T) {
		code, out, stderr := cli(t, in, "render", "--image-user", "app:1=1000", "-o", "table", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, 6, strings.Count(out, "POD default/"), out)
		assert.NotContains(t, out, "warning")
		assert.NotContains(t, out, "OptionalConfigMapNotFound")
		assert.NotContains(t, out, "not found")
		assert.Equal(t, shared+own, stderr)
	})
	for _, format := range []string{"json", "yaml"} {
		t.Run(format+": the same lines on stderr", func(t *testing.T) {
			code, _, stderr := cli(t, in, "render", "--image-user", "app:1=1000", "-o", format, "-")
			require.Equal(t, exitOK, code, stderr)
			assert.Equal(t, shared+own, stderr)
		})
	}
	t.Run("json: each container's warnings stay in the data", func(t *testing.T) {
		code, out, stderr := cli(t, in, "render", "--image-user", "app:1=1000", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		require.Len(t, d.Pods, 6)
		for _, p := range d.Pods {
			require.Len(t, p.Containers, 1)
			require.Len(t, p.Containers[0].Warnings, 1, p.Name)
			assert.Equal(t, configgen.ReasonOptionalConfigMapNotFound, p.Containers[0].Warnings[0].Reason)
		}
	})
	t.Run("a pod's warning is escaped", func(t *testing.T) {
		// The API server refuses such a ConfigMap name, and so does render by default; without
		// that step the warning that names it must still print as escapes.
		code, _, stderr := cli(t, optionalRefPod("a", `cfg\e[2J\e]0;pwned\a`), "render", "--image-user", "app:1=1000", "-o", "table", "-")
		require.Equal(t, exitError, code, stderr)
		assertPrintable(t, stderr)
		assert.Contains(t, stderr, `spec.containers[0].env[0].valueFrom.configMapKeyRef.name: Invalid value: "cfg\x1b[2J\x1b]0;pwned\a"`)
		code, out, stderr := cli(t, optionalRefPod("a", `cfg\e[2J\e]0;pwned\a`), "render", "--validate=false", "--image-user", "app:1=1000", "-o", "table", "-")
		require.Equal(t, exitOK, code, stderr)
		assertPrintable(t, stderr)
		assert.Equal(t, `warning: pod default/a, container c: OptionalConfigMapNotFound: skipping optional envvar "X": configmap "cfg\x1b[2J\x1b]0;pwned\a" not found; kubelet skips it as well when it is missing, but if the cluster has it, add it to the input`+"\n", stderr)
		assert.NotContains(t, out, "pwned")
	})
	t.Run("a placeholder for a missing object is one line for all its pods", func(t *testing.T) {
		var docs []string
		for _, name := range []string{"a", "b"} {
			docs = append(docs, "apiVersion: v1\nkind: Pod\nmetadata: {name: "+name+"}\nspec: {containers: [{name: c, image: app:1, envFrom: [{configMapRef: {name: cfg}}]}]}\n")
		}
		code, out, stderr := cli(t, strings.Join(docs, "---\n"), "render", "--allow-missing", "--image-user", "app:1=1000", "-o", "table", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.NotContains(t, out, "placeholder")
		assert.Equal(t, "warning: "+reasonPlaceholder+": ConfigMap default/cfg is not in the input: rendered as a placeholder (--allow-missing) (2 pods: default/a, default/b)\n", stderr)
	})
}

func TestPodWarnings(t *testing.T) {
	pod := func(name string, podWarnings []configgen.Warning, containers ...containerResult) podResult {
		return podResult{Pod: &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}, Warnings: podWarnings, Items: containers}
	}
	w := func(reason, msg string) []configgen.Warning {
		return []configgen.Warning{{Reason: reason, Message: msg}}
	}
	ctr := func(name string, ws []configgen.Warning) containerResult {
		return containerResult{Name: name, Warnings: ws}
	}
	tests := []struct {
		name string
		pods []podResult
		want []string
	}{
		{"no warnings", []podResult{pod("a", nil, ctr("c", nil))}, []string{}},
		{"one pod's warning names the pod", []podResult{pod("a", w("R", "m"))}, []string{"pod ns/a: R: m"}},
		{"one container's warning names the pod and the container", []podResult{pod("a", nil, ctr("c", w("R", "m")))},
			[]string{"pod ns/a, container c: R: m"}},
		{"one message in several pods is one line with their count and names",
			[]podResult{pod("a", w("R", "m")), pod("b", w("R", "m"))}, []string{"R: m (2 pods: ns/a, ns/b)"}},
		{"past three, the others are counted",
			[]podResult{pod("a", w("R", "m")), pod("b", w("R", "m")), pod("c", w("R", "m")), pod("d", w("R", "m")), pod("e", w("R", "m"))},
			[]string{"R: m (5 pods: ns/a, ns/b, ns/c and 2 more)"}},
		{"containers are counted with their pods",
			[]podResult{pod("a", nil, ctr("x", w("R", "m")), ctr("y", w("R", "m"))), pod("b", nil, ctr("x", w("R", "m")))},
			[]string{"R: m (3 containers in 2 pods: ns/a container x, ns/a container y, ns/b container x)"}},
		{"different messages or reasons are separate lines, in order",
			[]podResult{pod("a", append(w("R", "m"), w("R", "n")...)), pod("b", append(w("S", "m"), w("R", "m")...))},
			[]string{"R: m (2 pods: ns/a, ns/b)", "pod ns/a: R: n", "pod ns/b: S: m"}},
		{"one message twice for one pod is named once",
			[]podResult{pod("a", append(w("R", "m"), w("R", "m")...))}, []string{"pod ns/a: R: m"}},
		{"assumed objects are left to their own summary",
			[]podResult{pod("a", w(reasonAssumedObject, "ServiceAccount ns/x is not in the input: assumed to exist with no settings"))}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pods []podSummary
			for i := range tt.pods {
				pods = append(pods, summaryOf(&tt.pods[i]))
			}
			assert.Equal(t, tt.want, podWarnings(pods))
		})
	}
}
