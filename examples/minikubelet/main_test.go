package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/examples/minikubelet/internal/node"
)

func TestTerminationMessagesArePrintedEscaped(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no message prints nothing", "", ""},
		{"a plain message after a colon", "done\n", ": done"},
		{"escape sequences a container wrote are shown, not run", "\x1b[2J\x1b[Hprivileged false", `: \x1b[2J\x1b[Hprivileged false`},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, message(tc.in)) })
	}
}

func TestStatusFileIsJSONWithAnEntryPerPod(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status.json")
	status := &node.PodStatus{UID: "u-1", Containers: []node.ContainerStatus{{Name: "main", Attempts: []node.Attempt{
		{ID: "c1", Exited: true, ExitCode: 3, Reason: "Error", Message: "bye", Log: "out\n"}}}}}
	require.NoError(t, writeStatuses(path, []podResult{
		{Namespace: "default", Name: "web", Status: status},
		{Namespace: "default", Name: "bad", Status: &node.PodStatus{UID: "u-2"}, Error: "CreateContainerConfigError: refused"},
	}))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var got []map[string]any
	require.NoError(t, json.Unmarshal(data, &got))
	require.Len(t, got, 2)
	assert.Equal(t, "web", got[0]["name"])
	assert.NotContains(t, got[0], "error", "a pod that ended well has no error")
	attempt := got[0]["status"].(map[string]any)["containers"].([]any)[0].(map[string]any)["attempts"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"id": "c1", "restartCount": 0.0, "logPath": "", "log": "out\n", "exited": true, "exitCode": 3.0, "reason": "Error", "message": "bye"}, attempt)
	assert.Equal(t, "CreateContainerConfigError: refused", got[1]["error"])
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "container logs and messages may hold secrets")
}

// The status file holds what containers wrote (their logs' ends, termination messages), which may
// be secrets: an existing file, or a symlink planted where it goes, must not make minikubelet
// write them through the link, keep a mode that lets others read them, or write into a file
// another user owns; a device named as the status file is written, not replaced.
func TestStatusFileDoesNotFollowSymlinksOrKeepAWiderMode(t *testing.T) {
	dir := t.TempDir()
	statuses := []podResult{{Namespace: "default", Name: "web", Status: &node.PodStatus{UID: "u-1"}, Error: "the secret is s3cr3t"}}

	target := filepath.Join(dir, "elsewhere")
	require.NoError(t, os.WriteFile(target, []byte("host file\n"), 0o644))
	link := filepath.Join(dir, "status-link.json")
	require.NoError(t, os.Symlink(target, link))
	assert.Error(t, writeStatuses(link, statuses), "a symlink is refused")
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "host file\n", string(data), "the status was written through a symlink")
	fi, err := os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), "the link's target was changed")

	existing := filepath.Join(dir, "status.json")
	require.NoError(t, os.WriteFile(existing, []byte(strings.Repeat("old\n", 1000)), 0o644))
	require.NoError(t, writeStatuses(existing, statuses))
	fi, err = os.Stat(existing)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "an existing file kept its mode")
	data, err = os.ReadFile(existing)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"name": "web"`)
	assert.NotContains(t, string(data), "old", "the old content is cut")

	require.NoError(t, writeStatuses(os.DevNull, statuses), "a device is written")
	fi, err = os.Lstat(os.DevNull)
	require.NoError(t, err)
	assert.Equal(t, os.ModeCharDevice, fi.Mode()&os.ModeCharDevice, "the device is still one")

	if os.Geteuid() == 0 {
		theirs := filepath.Join(dir, "theirs.json")
		require.NoError(t, os.WriteFile(theirs, nil, 0o644))
		require.NoError(t, os.Chown(theirs, 12345, 12345))
		assert.ErrorContains(t, writeStatuses(theirs, statuses), "owned by uid 12345")
		data, err = os.ReadFile(theirs)
		require.NoError(t, err)
		assert.Empty(t, data, "a file another user owns, who may hold it open, was written")
	}
}

// Pod and container names, the manifest's warnings and what podconfig logs with -v come from a
// manifest that never passed an API server (which would refuse such names): none of it may reach
// the terminal with its control characters.
func TestNamesAndLogLinesArePrintedEscaped(t *testing.T) {
	const evil = "web\x1b]0;owned\a\x1b[2J\r"
	var b strings.Builder
	verboseLog(&b)("pod %s: container %s: %v", "default/"+evil, evil, errors.New("refused: "+evil))
	printWarning(&b, "in.yaml: document 1 (Widget "+evil+"): skipped")
	printExited(&b, evil, node.ContainerStatus{Name: evil, Attempts: []node.Attempt{{Exited: true, ExitCode: 1, Message: evil}}})
	out := b.String()
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\a")
	assert.NotContains(t, out, "\r")
	assert.Equal(t, 3, strings.Count(out, "\n"), "one line each: %q", out)
	b.Reset()
	verboseLog(&b)("pod %s: container c: %+v", "p\x1b[2J", "refused\ncategory: invalid pod\ncause: \x1b[1A")
	assert.Equal(t, "minikubelet: pod p\\x1b[2J: container c: refused\ncategory: invalid pod\ncause: \\x1b[1A\n", b.String(),
		"an entry of several lines keeps them, each escaped")
	assert.Contains(t, out, `pod web\x1b]0;owned\a\x1b[2J\r: container web\x1b]0;owned\a\x1b[2J\r exited with code 1`)
}
