package errkind

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestError(t *testing.T) {
	kind := errors.New("category")
	tests := []struct {
		name  string
		err   error
		cause error
	}{
		{"a category alone", New(kind, "exact text", nil), nil},
		{"a category and a cause", New(kind, "exact text", fs.ErrNotExist), fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, tt.err, "exact text", "the message is kept as is")
			assert.ErrorIs(t, tt.err, kind)
			if tt.cause != nil {
				assert.ErrorIs(t, tt.err, tt.cause)
			} else {
				assert.NotErrorIs(t, tt.err, fs.ErrNotExist)
			}
			var e *Error
			assert.ErrorAs(t, tt.err, &e)
		})
	}
}
