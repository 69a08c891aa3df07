//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cliWithin runs the command like cli, but fails the test instead of hanging when the command does
// not return within a minute; unblock is called then, to let the stuck call finish.
func cliWithin(t *testing.T, unblock func(), args ...string) (int, string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := cli(t, "", args...)
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(time.Minute):
		unblock()
		<-done
		t.Fatalf("podconfig %s did not return within a minute", strings.Join(args, " "))
		return 0, "", ""
	}
}

// Entries found by listing a directory are read only when they are regular files: a FIFO would
// block the open forever, and a symbolic link would let whoever wrote the directory make the
// command read any file it can (its content shows in errors). Files named on the command line are
// the user's choice and are opened as given, so <(kubectl get ...) keeps working.
func TestDirectoryReadsOnlyRegularFiles(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	require.NoError(t, os.WriteFile(secret, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: from-outside}\nspec: {containers: [{name: c, image: i}]}\n"), 0o600))

	tests := []struct {
		name    string
		make    func(t *testing.T, path string)
		skipped string
	}{
		{"a FIFO named x.yaml is skipped, never opened", func(t *testing.T, path string) {
			require.NoError(t, syscall.Mkfifo(path, 0o644))
		}, "a named pipe"},
		{"a symbolic link to a file outside is skipped, not followed", func(t *testing.T, path string) {
			require.NoError(t, os.Symlink(secret, path))
		}, "a symbolic link"},
		{"a symbolic link to a file beside it is skipped too", func(t *testing.T, path string) {
			require.NoError(t, os.Symlink("b.yaml", path))
		}, "a symbolic link"},
		{"a dangling symbolic link is skipped", func(t *testing.T, path string) {
			require.NoError(t, os.Symlink("/nonexistent/x.yaml", path))
		}, "a symbolic link"},
		{"a socket is skipped", func(t *testing.T, path string) {
			fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
			require.NoError(t, err)
			t.Cleanup(func() { syscall.Close(fd) })
			require.NoError(t, syscall.Bind(fd, &syscall.SockaddrUnix{Name: path}))
		}, "a socket"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(fullPod), 0o644))
			odd := filepath.Join(dir, "a.yaml")
			tt.make(t, odd)
			unblock := func() {
				if f, err := os.OpenFile(odd, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
			}
			code, out, stderr := cliWithin(t, unblock, "render", dir)
			require.Equal(t, exitOK, code, stderr)
			assert.Equal(t, []string{"p"}, podNames(decode(t, out)))
			assert.Contains(t, stderr, "warning: "+odd+": skipped: "+tt.skipped)
			assert.NotContains(t, out+stderr, "from-outside")
		})
	}

	t.Run("a directory of nothing but a symbolic link says so", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.Symlink(secret, filepath.Join(dir, "x.yaml")))
		code, out, stderr := cli(t, "", "render", dir)
		assert.Equal(t, exitError, code)
		assert.Empty(t, out)
		assert.Contains(t, stderr, "no regular .yaml, .yml or .json file in the directory")
		assert.Contains(t, stderr, "x.yaml: skipped: a symbolic link")
	})
	t.Run("a file named on the command line is read through its symbolic link", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link.yaml")
		require.NoError(t, os.Symlink(secret, link))
		code, out, stderr := cli(t, "", "render", link)
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, "from-outside", decode(t, out).Pods[0].Name)
	})
	t.Run("a named pipe given on the command line is read", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "pipe")
		require.NoError(t, syscall.Mkfifo(fifo, 0o644))
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.WriteString(fullPod)
				f.Close()
			}
		}()
		code, out, stderr := cli(t, "", "render", fifo)
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, "p", decode(t, out).Pods[0].Name)
	})
	t.Run("a directory named through a symbolic link is listed", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "b.yaml"), []byte(fullPod), 0o644))
		link := filepath.Join(t.TempDir(), "manifests")
		require.NoError(t, os.Symlink(dir, link))
		code, out, stderr := cli(t, "", "render", link)
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, []string{"p"}, podNames(decode(t, out)))
	})
}

func podNames(d decoded) []string {
	var names []string
	for _, p := range d.Pods {
		names = append(names, p.Name)
	}
	return names
}

// An entry listed as a regular file and swapped before it is opened is refused at the open: a
// named pipe does not block it and a symbolic link is not followed.
func TestOpenRegularRefusesEntriesSwappedAfterListing(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link.yaml")
	require.NoError(t, os.Symlink("/etc/hostname", link))
	regular := filepath.Join(dir, "file.yaml")
	require.NoError(t, os.WriteFile(regular, []byte("kind: x"), 0o644))

	_, err := openRegular(fifo)
	assert.ErrorIs(t, err, errNotRegular)
	assert.ErrorContains(t, err, "a named pipe")
	_, err = openRegular(link)
	assert.ErrorIs(t, err, errNotRegular)
	assert.ErrorContains(t, err, "a symbolic link")
	f, err := openRegular(regular)
	require.NoError(t, err)
	b := make([]byte, 16)
	n, err := f.Read(b)
	require.NoError(t, err)
	assert.Equal(t, "kind: x", string(b[:n]))
	require.NoError(t, f.Close())
}
