package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
