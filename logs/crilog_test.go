package logs_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/logs"
)

func TestParseCRILog(t *testing.T) {
	for _, tc := range []struct {
		name, line, content string
		partial, ok         bool
	}{
		{"a full line: its content, newline included", "2026-01-01T00:00:00.123456789Z stdout F hello world\n", "hello world\n", false, true},
		{"a partial line", "2026-01-01T00:00:00Z stderr P par", "par", true, true},
		{"an empty line", "2026-01-01T00:00:00Z stdout F \n", "\n", false, true},
		{"a tag with further fields after a colon", "2026-01-01T00:00:00+02:00 stdout P:x y", "y", true, true},
		{"spaces in the content are kept", "2026-01-01T00:00:00Z stdout F  a  b ", " a  b ", false, true},
		{"a bad timestamp is not a log line", "yesterday stdout F x\n", "", false, false},
		{"an unknown stream is not a log line", "2026-01-01T00:00:00Z stdin F x\n", "", false, false},
		{"no tag is not a log line", "2026-01-01T00:00:00Z stdout", "", false, false},
		{"a tag without the space after it is not a log line", "2026-01-01T00:00:00Z stdout F", "", false, false},
		{"an empty line of the file is not a log line", "", "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			content, partial, ok := logs.ParseCRILog([]byte(tc.line))
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.partial, partial)
			assert.Equal(t, tc.content, string(content))
		})
	}
}

func TestTailLineStart(t *testing.T) {
	long := strings.Repeat("x", 3000) + "\n"
	for _, tc := range []struct {
		name, file string
		n          int
		want       int64
	}{
		{"the last line of three starts after the second newline", "a\nb\nc\n", 1, 4},
		{"the last two lines of three start after the first newline", "a\nb\nc\n", 2, 2},
		{"more lines than the file has start at its beginning", "a\nb\nc\n", 1 << 30, 0},
		{"as many lines as the file has start at its beginning", "a\nb\nc\n", 3, 0},
		{"a last line still being written is not counted, as kubelet counts newlines", "a\nb\nc", 1, 2},
		{"an empty file starts at 0", "", 5, 0},
		{"lines longer than a block are found across blocks", long + long + long, 2, 3001},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := logs.TailLineStart(strings.NewReader(tc.file), int64(len(tc.file)), tc.n)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
