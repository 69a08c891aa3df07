package logs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/logs"
)

func TestReadLastStringFromContainerLogsIsKubelets(t *testing.T) {
	const ts = "2026-01-01T00:00:00.000000001Z"
	line := func(stream, tag, content string) string { return ts + " " + stream + " " + tag + " " + content + "\n" }
	var hundred, bigLine strings.Builder
	for i := range 100 {
		hundred.WriteString(line("stdout", "F", fmt.Sprint("line ", i)))
	}
	bigLine.WriteString(ts + " stderr P ")
	for i := range 100000 {
		bigLine.WriteString(fmt.Sprintf("%07d", i))
	}
	bigLine.WriteString("\n" + line("stderr", "F", "end"))
	var last80 strings.Builder
	for i := 20; i < 100; i++ {
		last80.WriteString(fmt.Sprint("line ", i, "\n"))
	}
	long := strings.Repeat("x", 3000) + "END"
	for _, tc := range []struct {
		name, log, want string
	}{
		{"full lines keep their newlines, both streams", line("stdout", "F", "out") + line("stderr", "F", "err"), "out\nerr\n"},
		{"partial lines join the next", line("stdout", "P", "par") + line("stdout", "F", "tial"), "partial\n"},
		{"the last 80 lines", hundred.String(), last80.String()},
		{"at most the last 2 KiB", line("stdout", "F", long), long[len(long)-2047:] + "\n"},
		{"lines not in the CRI format are skipped", line("stdout", "F", "first") + "garbage\n" + ts + " stdin F x\n" + "notatime stdout F x\n" + line("stdout", "F", "kept"), "first\nkept\n"},
		{"a first line not in the CRI format fails, as kubelet picks the format from it", "garbage\n" + line("stdout", "F", "x"), "Error on reading termination message from logs: failed to get parse function: unsupported log format: \"garbage\\n\""},
		{"a tag with attributes", ts + " stdout F:x=y ok\n", "ok\n"},
		{"a last line without its newline", line("stdout", "F", "a") + ts + " stdout F b", "a\nb"},
		{"a line longer than any buffer is read in pieces", bigLine.String(), func() string {
			var b strings.Builder
			for i := range 100000 {
				b.WriteString(fmt.Sprintf("%07d", i))
			}
			s := b.String() + "end\n"
			return s[len(s)-2048:]
		}()},
		{"an empty log", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "0.log")
			require.NoError(t, os.WriteFile(p, []byte(tc.log), 0o640))
			assert.Equal(t, tc.want, logs.ReadLastStringFromContainerLogs(p))
		})
	}
	t.Run("a FIFO is not opened", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "0.log")
		require.NoError(t, unix.Mkfifo(p, 0o640))
		got := logs.ReadLastStringFromContainerLogs(p)
		assert.True(t, strings.HasPrefix(got, "Error on reading termination message from logs: "), got)
		assert.Contains(t, got, "not a regular file")
	})
}
