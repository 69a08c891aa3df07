package terminal_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/podconfig/podconfig/internal/terminal"
)

func TestEscape(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text is unchanged", "pod ns/p: ok, ünïcode 日本", "pod ns/p: ok, ünïcode 日本"},
		{"escape starts a sequence", "a\x1b[2Jb", `a\x1b[2Jb`},
		{"carriage return, tab and newline", "a\rb\tc\nd", `a\rb\tc\nd`},
		{"bell, backspace, NUL and DEL", "\a\b\x00\x7f", `\a\b\x00\x7f`},
		{"C1 controls, which some terminals obey", "\u009b2K\u0085", `\u009b2K\u0085`},
		{"bidirectional overrides and isolates", "a\u202eb\u2066c\u200fd", `a\u202eb\u2066c\u200fd`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
		{"a backslash stays as it is", `a\b`, `a\b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, terminal.Escape(tt.in))
		})
	}
}
