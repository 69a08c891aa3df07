package offline_test

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/offline"
)

func TestHostUtils(t *testing.T) {
	hu := offline.NewHostUtils()
	hu.AddPath("/vol/", fs.ModeSetgid|0o775)

	ok, err := hu.PathExists("/vol")
	require.NoError(t, err)
	assert.True(t, ok, "an added path exists, cleaned")
	ok, err = hu.PathExists("/vol/./")
	require.NoError(t, err)
	assert.True(t, ok, "a path asked for uncleaned is cleaned")
	ok, err = hu.PathExists("/nope")
	require.NoError(t, err)
	assert.False(t, ok, "an unknown path does not exist")
	ok, err = hu.PathExists("/")
	require.NoError(t, err)
	assert.False(t, ok, "a parent of a known path is not known unless added")

	mode, err := hu.GetMode("/vol")
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSetgid|0o775, mode)
	_, err = hu.GetMode("/nope")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.EqualError(t, err, "stat /nope: file does not exist")

	var zero offline.HostUtils
	zero.AddPath("/z", 0o700)
	ok, _ = zero.PathExists("/z")
	assert.True(t, ok, "the zero value is ready to use")
}

func TestHostUtilsRemovePaths(t *testing.T) {
	tests := []struct {
		name   string
		remove string
		left   []string
	}{
		{"the directory and every path below it go", "/pods/a", []string{"/pods/ab", "/pods/b/x", "/srv"}},
		{"a directory given with a trailing slash is cleaned", "/pods/a/", []string{"/pods/ab", "/pods/b/x", "/srv"}},
		{"a file alone", "/pods/a/v/f", []string{"/pods/a", "/pods/a/v", "/pods/ab", "/pods/b/x", "/srv"}},
		{"an unknown path removes nothing", "/nope", []string{"/pods/a", "/pods/a/v", "/pods/a/v/f", "/pods/ab", "/pods/b/x", "/srv"}},
		{"the root removes everything", "/", nil},
	}
	all := []string{"/pods/a", "/pods/a/v", "/pods/a/v/f", "/pods/ab", "/pods/b/x", "/srv"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hu := offline.NewHostUtils()
			for _, p := range all {
				hu.AddPath(p, 0o755)
			}
			hu.RemovePaths(tt.remove)
			var left []string
			for _, p := range all {
				if ok, _ := hu.PathExists(p); ok {
					left = append(left, p)
				}
			}
			assert.Equal(t, tt.left, left)
		})
	}
}
