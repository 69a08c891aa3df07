//go:build !linux

package subpath_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

func TestUnsupportedOperatingSystem(t *testing.T) {
	l := subpath.New()
	require.ErrorIs(t, l.SafeMakeDir("a", "/tmp", 0o755), subpath.ErrNotSupported)
	_, cleanup, err := l.PrepareSafeSubpath(mounts.Subpath{})
	require.ErrorIs(t, err, subpath.ErrNotSupported)
	assert.NotNil(t, cleanup, "the cleanup is never nil")
	require.ErrorIs(t, l.CleanSubPaths("/p", "v"), subpath.ErrNotSupported)
	_, err = l.SetUpLocalVolume(subpath.LocalVolume{})
	require.ErrorIs(t, err, subpath.ErrNotSupported)
}
