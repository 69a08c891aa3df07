package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mountPaths lists the container paths of a rendered container's mounts.
func mountPaths(t *testing.T, d decoded, pod, container int) []string {
	t.Helper()
	var paths []string
	mounts, _ := d.Pods[pod].Containers[container].Config["mounts"].([]interface{})
	for _, m := range mounts {
		paths = append(paths, m.(map[string]interface{})["containerPath"].(string))
	}
	return paths
}

const tokenPath = "/var/run/secrets/kubernetes.io/serviceaccount"

func TestRenderAdmission(t *testing.T) {
	t.Run("admission mounts the default ServiceAccount's token in every container", func(t *testing.T) {
		code, out, stderr := cli(t, fullPod, "render", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		assert.Contains(t, mountPaths(t, d, 0, 0), tokenPath)
		assert.Contains(t, mountPaths(t, d, 0, 1), tokenPath)
	})
	t.Run("--admission=false renders the spec as written", func(t *testing.T) {
		code, out, stderr := cli(t, fullPod, "render", "--admission=false", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.NotContains(t, mountPaths(t, decode(t, out), 0, 0), tokenPath)
	})
	t.Run("a node-critical pod's containers get oom_score_adj -997", func(t *testing.T) {
		in := strings.Replace(fullPod, "  restartPolicy: Always\n", "  restartPolicy: Always\n  priorityClassName: system-node-critical\n", 1)
		code, out, stderr := cli(t, in, "render", "-o", "table", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.Regexp(t, `oom score adj +-997\n`, out)
		code, out, _ = cli(t, in, "render", "--admission=false", "-o", "table", "-")
		require.Equal(t, exitOK, code)
		assert.NotContains(t, out, "-997")
	})
	t.Run("a missing ServiceAccount is assumed, with a warning", func(t *testing.T) {
		in := strings.Replace(fullPod, "  restartPolicy: Always\n", "  restartPolicy: Always\n  serviceAccountName: robot\n", 1)
		code, out, stderr := cli(t, in, "render", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		require.Len(t, d.Pods[0].Warnings, 1)
		assert.Equal(t, "ServiceAccount ns/robot is not in the input: assumed to exist with no settings", d.Pods[0].Warnings[0].Message)
		assert.Contains(t, mountPaths(t, d, 0, 0), tokenPath)
		assert.Contains(t, stderr, "warning: not in the input, assumed to exist with no settings (add them to render their own): ServiceAccount ns/robot (1 pods)\n")
	})
	t.Run("a missing RuntimeClass fails with the API server's words and a remedy", func(t *testing.T) {
		in := strings.Replace(fullPod, "  restartPolicy: Always\n", "  restartPolicy: Always\n  runtimeClassName: kata\n", 1)
		code, out, stderr := cli(t, in, "render", "-")
		assert.Equal(t, exitError, code)
		assert.Empty(t, out)
		assert.Contains(t, stderr, `pods "p" is forbidden: pod rejected: RuntimeClass "kata" not found; add it to the input, or render with --allow-missing`)
	})
	t.Run("--allow-missing assumes a missing RuntimeClass, with a warning", func(t *testing.T) {
		in := strings.Replace(fullPod, "  restartPolicy: Always\n", "  restartPolicy: Always\n  runtimeClassName: kata\n", 1)
		code, out, stderr := cli(t, in, "render", "--allow-missing", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		require.Len(t, d.Pods[0].Warnings, 1)
		assert.Equal(t, "RuntimeClass kata is not in the input: assumed to exist with no settings", d.Pods[0].Warnings[0].Message)
	})
	t.Run("a missing PriorityClass says to add it", func(t *testing.T) {
		in := strings.Replace(fullPod, "  restartPolicy: Always\n", "  restartPolicy: Always\n  priorityClassName: gold\n", 1)
		code, _, stderr := cli(t, in, "render", "--allow-missing", "-")
		assert.Equal(t, exitError, code)
		assert.Contains(t, stderr, `pods "p" is forbidden: no PriorityClass with name gold was found; add the PriorityClass to the input`)
	})
	t.Run("a PriorityClass and a ServiceAccount from the input are used", func(t *testing.T) {
		in := "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: gold}\nvalue: 1000000\n---\n" +
			"apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: robot, namespace: ns}\nautomountServiceAccountToken: false\n---\n" +
			strings.Replace(fullPod, "  restartPolicy: Always\n", "  restartPolicy: Always\n  priorityClassName: gold\n  serviceAccountName: robot\n", 1)
		code, out, stderr := cli(t, in, "render", "-")
		require.Equal(t, exitOK, code, stderr)
		d := decode(t, out)
		for _, w := range d.Warnings {
			assert.NotContains(t, w, "skipped", "the objects are read, not skipped")
		}
		assert.NotContains(t, mountPaths(t, d, 0, 0), tokenPath)
	})
}
