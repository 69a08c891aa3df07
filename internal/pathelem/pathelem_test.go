package pathelem

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"an ordinary name is one element", "web-1", ""},
		{"dots inside a name are fine", "a..b", ""},
		{"an empty name is refused", "", `invalid container name "": must not be empty`},
		{"dot is refused", ".", `invalid container name ".": must not be '.' or '..'`},
		{"dot-dot is refused", "..", `invalid container name "..": must not be '.' or '..'`},
		{"a slash is refused", "a/b", `invalid container name "a/b": must not contain '/'`},
		{"a NUL byte is refused", "a\x00b", `invalid container name "a\x00b": must not contain a NUL byte`},
		{"255 bytes is the longest element", strings.Repeat("a", 255), ""},
		{"256 bytes is longer than NAME_MAX", strings.Repeat("a", 256), `invalid container name "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"... (256 bytes): must be at most 255 bytes long`},
		{"invalid UTF-8 is refused", "a\xffb", `invalid container name "a\xffb": must be valid UTF-8`},
		{"valid UTF-8 is fine", "wörk", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Validate("container name", tt.input))
		})
	}
}

func TestHasDotDot(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"", false},
		{"a/b", false},
		{"..", true},
		{"../a", true},
		{"a/..", true},
		{"a/../b", true},
		{"/..", true},
		{"a//..//b", true},
		{"..a/b..", false},
		{"...", false},
		{"a/./b", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, HasDotDot(tc.path), "%q", tc.path)
	}
}
