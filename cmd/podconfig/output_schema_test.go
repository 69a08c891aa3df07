package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/reflect/protoreflect"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// docPath is a field path in the first cell of a table row of docs/output.md.
var docPath = regexp.MustCompile("^\\| `([a-zA-Z\\[\\].]+)` \\|")

// docs/output.md is the schema of render's JSON: every field the bundled manifests render is
// listed there (the CRI messages' fields are their proto fields, in protobuf's JSON names), and
// every field listed there is rendered by one of them.
func TestOutputSchema(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "output.md"))
	require.NoError(t, err)
	fields, _, _ := strings.Cut(string(doc), "## CRI messages")
	documented := map[string]bool{}
	for _, line := range strings.Split(fields, "\n") {
		if m := docPath.FindStringSubmatch(line); m != nil {
			documented[m[1]] = true
		}
	}
	require.NotEmpty(t, documented)

	files, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	require.NoError(t, err)
	// A pod with warnings of its own and of its container, which no bundled manifest has.
	files = append(files, writeFile(t, "apiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec:\n  serviceAccountName: builder\n"+
		"  containers: [{name: c, image: app:1, env: [{name: X, valueFrom: {configMapKeyRef: {name: cfg, key: k, optional: true}}}]}]\n"))
	rendered := map[string]bool{}
	for _, f := range files {
		for _, flags := range [][]string{nil, {"--show-secrets", "--allow-missing"}} {
			_, out, _ := cli(t, "", append(append([]string{"render"}, flags...), f)...)
			if out == "" {
				continue
			}
			var d any
			require.NoError(t, json.Unmarshal([]byte(out), &d), f)
			collectPaths(t, d, "", rendered)
		}
	}
	for p := range rendered {
		assert.True(t, documented[p], "docs/output.md does not list %s, which render writes", p)
	}
	for p := range documented {
		assert.True(t, rendered[p] || slices.ContainsFunc(slices.Collect(mapsKeys(rendered)), func(r string) bool { return strings.HasPrefix(r, p+".") || strings.HasPrefix(r, p+"[]") }),
			"docs/output.md lists %s, which no bundled manifest renders", p)
	}
}

// collectPaths adds to out the path of every field of v, a decoded JSON value at path; the CRI
// messages' fields are checked against their proto messages instead.
func collectPaths(t *testing.T, v any, path string, out map[string]bool) {
	switch path {
	case "pods[].sandbox":
		checkProtoJSON(t, v, (&runtimeapi.PodSandboxConfig{}).ProtoReflect().Descriptor(), path)
		out[path] = true
		return
	case "pods[].containers[].config":
		checkProtoJSON(t, v, (&runtimeapi.ContainerConfig{}).ProtoReflect().Descriptor(), path)
		out[path] = true
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			out[p] = true
			collectPaths(t, e, p, out)
		}
	case []any:
		for _, e := range x {
			collectPaths(t, e, path+"[]", out)
		}
	}
}

// checkProtoJSON fails for a key of v that is not the JSON name of a field of md.
func checkProtoJSON(t *testing.T, v any, md protoreflect.MessageDescriptor, path string) {
	obj, ok := v.(map[string]any)
	if !ok {
		return
	}
	for k, e := range obj {
		fd := md.Fields().ByJSONName(k)
		if !assert.NotNil(t, fd, "%s.%s is not a field of %s", path, k, md.FullName()) {
			continue
		}
		if fd.Message() == nil || fd.IsMap() {
			continue
		}
		if fd.IsList() {
			list, _ := e.([]any)
			for _, item := range list {
				checkProtoJSON(t, item, fd.Message(), path+"."+k+"[]")
			}
			continue
		}
		checkProtoJSON(t, e, fd.Message(), path+"."+k)
	}
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
