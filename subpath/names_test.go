package subpath_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/subpath"
)

func TestValidateName(t *testing.T) {
	tests := []struct {
		name, value, err string
	}{
		{"a plain name is accepted", "config-volume", ""},
		{"a name with dots inside is accepted", "a..b", ""},
		{"an empty name is rejected", "", `invalid volume name "": must not be empty`},
		{"a single dot is rejected", ".", `invalid volume name ".": must not be '.' or '..'`},
		{"two dots are rejected", "..", `invalid volume name "..": must not be '.' or '..'`},
		{"a slash is rejected", "a/b", `invalid volume name "a/b": must not contain '/'`},
		{"a leading slash is rejected", "/", `invalid volume name "/": must not contain '/'`},
		{"NUL is rejected", "a\x00", `invalid volume name "a\x00": must not contain a NUL byte`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := subpath.ValidateName("volume name", tt.value)
			if tt.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, subpath.ErrInvalidName)
			assert.Equal(t, tt.err, err.Error())
		})
	}
}

func TestBindTarget(t *testing.T) {
	got, err := subpath.BindTarget("/var/lib/kubelet/pods/uid", "pvc-1", "app", 7)
	require.NoError(t, err)
	assert.Equal(t, "/var/lib/kubelet/pods/uid/volume-subpaths/pvc-1/app/7", got, "the layout is kubelet's")

	_, err = subpath.BindTarget("/p", "v", "c", -1)
	require.ErrorIs(t, err, subpath.ErrInvalidName)
	assert.Equal(t, "volume mount index -1 must not be negative", err.Error())
}
