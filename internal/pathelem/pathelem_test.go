package pathelem

import (
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Validate("container name", tt.input))
		})
	}
}
