package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile is a privileged container whose strings carry terminal escape sequences that, printed
// raw, move the cursor up, erase the line and write a row of their own: on screen the container
// would read "privileged false".
const hostile = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
  - name: app
    image: "app:1\e[8m"
    securityContext: {privileged: true}
    volumeMounts:
    - name: data
      mountPath: "/data\e[1A\e[2K\r  privileged        false\n  mount\t/x\u009b2K\u202e"
  volumes:
  - name: data
    emptyDir: {}
---
apiVersion: v1
kind: "Thing\e]0;pwned\a"
metadata: {name: "x\e[31m"}
`

// assertPrintable fails when s holds a control character other than the newlines and (in a
// table) the spaces that lay it out, or a character that reorders text on screen.
func assertPrintable(t *testing.T, s string) {
	t.Helper()
	require.True(t, utf8.ValidString(s), "%q", s)
	for _, r := range s {
		if r == '\n' {
			continue
		}
		if r < 0x20 || (r >= 0x7f && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("%U printed raw in %q", r, s)
		}
	}
}

// Everything printed for a person escapes control characters, as kubectl does: the table, the
// warnings and the errors.
func TestPrintedTextEscapesControlCharacters(t *testing.T) {
	t.Run("table", func(t *testing.T) {
		code, out, stderr := cli(t, hostile, "render", "-o", "table", "-")
		require.Equal(t, exitOK, code, stderr)
		assertPrintable(t, out)
		assertPrintable(t, stderr)
		assert.Contains(t, out, `/data\x1b[1A\x1b[2K\r  privileged        false\n  mount\t/x\u009b2K\u202e <- `)
		assert.Contains(t, out, `image app:1\x1b[8m`)
		assert.Regexp(t, `\n    privileged +true\n`, out)
		assert.NotRegexp(t, `\n    privileged +false`, out)
		assert.Contains(t, stderr, `warning: stdin: document 2 (Thing\x1b]0;pwned\a x\x1b[31m): skipped: kind Thing\x1b]0;pwned\a makes no pod`)
		assert.NotContains(t, out, "skipped", "the input's warnings go to standard error only")
	})
	t.Run("warnings with json output", func(t *testing.T) {
		code, _, stderr := cli(t, hostile, "render", "-")
		require.Equal(t, exitOK, code, stderr)
		assertPrintable(t, stderr)
		assert.Contains(t, stderr, `kind Thing\x1b]0;pwned\a makes no pod`)
	})
	t.Run("errors", func(t *testing.T) {
		bad := "apiVersion: v1\nkind: Pod\nmetadata: {name: \"p\\e[2J\"}\nspec: {bogus: 1}\n"
		code, out, stderr := cli(t, bad, "render", "-")
		require.Equal(t, exitError, code, stderr)
		assert.Empty(t, out)
		assertPrintable(t, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"))
		assert.Contains(t, stderr, `\x1b[2J`)
	})
	t.Run("usage errors", func(t *testing.T) {
		code, _, stderr := cli(t, "", "render", "--pod-ip", "\x1b[2J", "-")
		require.Equal(t, exitUsage, code)
		assertPrintable(t, stderr)
	})
	t.Run("invalid UTF-8 in a file name", func(t *testing.T) {
		code, _, stderr := cli(t, "", "render", "/nonexistent/\xff\x1b.yaml")
		require.Equal(t, exitError, code)
		assertPrintable(t, stderr)
		assert.Contains(t, stderr, `/nonexistent/\xff\x1b.yaml`)
	})
}

// The table lists each volume file's path, mode, owner and size, escaped, and never its content:
// not a secret's, not a token's, not even with --show-secrets.
func TestTableVolumeFiles(t *testing.T) {
	const in = `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  securityContext: {runAsUser: 1000}
  automountServiceAccountToken: false
  containers:
  - name: app
    image: app:1
  volumes:
  - name: cfg
    configMap:
      name: cfg
      defaultMode: 0440
      items: [{key: k, path: "dir/a\e[2Jb"}]
  - name: sec
    secret: {secretName: sec}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: ns}
data: {k: "cfg-content-xyz"}
---
apiVersion: v1
kind: Secret
metadata: {name: sec, namespace: ns}
stringData: {password: "secret-content-xyz"}
`
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"default", []string{"render", "-o", "table", "-"}},
		{"show secrets", []string{"render", "-o", "table", "--show-secrets", "-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := cli(t, in, tc.args...)
			require.Equal(t, exitOK, code, stderr)
			assertPrintable(t, out)
			assert.Regexp(t, `\n  volume file +cfg/dir/a\\x1b\[2Jb \(configMap, mode 0440, owner kubelet, 15 bytes\)\n`, out)
			assert.Regexp(t, `\n  volume file +sec/password \(secret, mode 0644, owner kubelet, 18 bytes\)\n`, out)
			assert.NotContains(t, out, "content-xyz")
		})
	}
}
