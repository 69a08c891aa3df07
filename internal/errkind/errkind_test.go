package errkind

import (
	"errors"
	"fmt"
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

func TestCategoryOf(t *testing.T) {
	podKind := Sentinel(InvalidPod, "bad spec")
	optionsKind := Sentinel(InvalidOptions, "no getter")
	hostKind := Sentinel(DependencyFailed, "host failed")
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"a sentinel has the category it was defined with", podKind, InvalidPod},
		{"a wrapped sentinel keeps its category", fmt.Errorf("volume %q: %w", "data", optionsKind), InvalidOptions},
		{"an error made with New has its kind's category", New(hostKind, "mkdir failed", fs.ErrPermission), DependencyFailed},
		{"a category wrapped directly is itself", fmt.Errorf("%w: RootDir must be absolute", InvalidOptions), InvalidOptions},
		{"a spec error beneath a host error wins: the spec is why the host refused", New(hostKind, "bind failed", podKind), InvalidPod},
		{"a configuration error wins over a spec error", errors.Join(podKind, optionsKind), InvalidOptions},
		{"an error with no sentinel is a dependency failure: retry", errors.New("etcdserver: request timed out"), DependencyFailed},
		{"nil has no category", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, CategoryOf(tt.err))
		})
	}
}

func TestSentinel(t *testing.T) {
	s := Sentinel(InvalidPod, "invalid subPath")
	assert.EqualError(t, s, "invalid subPath", "the text is the sentinel's own, without its category")
	assert.NotErrorIs(t, s, InvalidPod, "a sentinel does not unwrap to its category: configgen.Error.Category is the one answer")
	assert.True(t, IsSentinel(s))
	assert.True(t, IsSentinel(InvalidOptions))
	assert.False(t, IsSentinel(fmt.Errorf("x: %w", s)))
	assert.Equal(t, DependencyFailed, CategoryOf(Sentinel(errors.New("retry"), "oops")),
		"an error that is not one of the three categories gives none (and the module's sentinel test refuses it)")
	assert.Equal(t, InvalidPod, CategoryOf(errors.Join(Sentinel(nil, "oops"), s)))
}
