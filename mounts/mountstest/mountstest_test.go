package mountstest_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
	"github.com/podconfig/podconfig/offline"
)

func subpath(vol, ctr string, i int, path string) mounts.Subpath {
	return mounts.Subpath{VolumeMountIndex: i, Path: path, VolumeName: vol, VolumePath: "/vol", PodDir: "/pod", ContainerName: ctr}
}

func TestHostUtilsRecordsAndInjects(t *testing.T) {
	host := offline.NewHostUtils()
	hu := mountstest.WrapHostUtils(host)
	hu.AddPath("/vol", 0o755)

	ok, err := hu.PathExists("/vol")
	require.NoError(t, err)
	assert.True(t, ok, "answers are the offline model's")
	mode, err := hu.GetMode("/vol")
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o755), mode)
	ok, _ = host.PathExists("/vol")
	assert.True(t, ok, "a wrapped offline HostUtils shares its paths")

	hu.Funcs = mountstest.HostUtilsFuncs{
		PathExists: func(string) error { return fs.ErrPermission },
		GetMode:    func(string) error { return fs.ErrPermission },
	}
	_, err = hu.PathExists("/vol")
	assert.ErrorIs(t, err, fs.ErrPermission, "an injected error wins")
	_, err = hu.GetMode("/vol")
	assert.ErrorIs(t, err, fs.ErrPermission)

	assert.Equal(t, []mountstest.Call{
		{Method: "PathExists", Path: "/vol"}, {Method: "GetMode", Path: "/vol"},
		{Method: "PathExists", Path: "/vol"}, {Method: "GetMode", Path: "/vol"},
	}, hu.Calls(), "AddPath is not recorded, failed calls are")
	hu.ResetCalls()
	assert.Empty(t, hu.Calls())

	hu.RemovePaths("/vol")
	ok, _ = host.PathExists("/vol")
	assert.False(t, ok)
}

func TestSubpatherRecordsAndInjects(t *testing.T) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol", 0o755)
	hu.AddPath("/vol/a", 0o755)
	sp := mountstest.NewSubpather(hu)

	t.Run("calls reach the offline model and are recorded", func(t *testing.T) {
		require.NoError(t, sp.SafeMakeDir("b", "/vol", fs.ModeSetgid|0o770))
		mode, err := hu.GetMode("/vol/b")
		require.NoError(t, err)
		assert.Equal(t, fs.ModeSetgid|0o770, mode, "the directory made is known to the HostUtils")
		target, cleanup, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		assert.Equal(t, "/pod/volume-subpaths/vol/ctr/0", target)
		assert.Equal(t, map[string]string{target: "/vol/a"}, sp.Binds())
		require.NotNil(t, cleanup)
		require.EqualError(t, sp.CleanSubPaths("/pod", ".."), `invalid volume name "..": must not be '.' or '..'`)
		require.NoError(t, sp.CleanSubPaths("/pod", "vol"))
		assert.Empty(t, sp.Binds())
		assert.Equal(t, []mountstest.Call{
			{Method: "SafeMakeDir", Path: "b", Base: "/vol", Perm: fs.ModeSetgid | 0o770},
			{Method: "PrepareSafeSubpath", Subpath: subpath("vol", "ctr", 0, "/vol/a")},
			{Method: "CleanSubPaths", PodDir: "/pod", VolumeName: ".."},
			{Method: "CleanSubPaths", PodDir: "/pod", VolumeName: "vol"},
		}, sp.Calls())
		sp.ResetCalls()
		assert.Empty(t, sp.Calls())
	})
	t.Run("an injected error does nothing else", func(t *testing.T) {
		injected := errors.New("injected")
		sp := mountstest.NewSubpather(hu)
		sp.Funcs = mountstest.SubpatherFuncs{
			SafeMakeDir:        func(string, string, fs.FileMode) error { return injected },
			PrepareSafeSubpath: func(mounts.Subpath) error { return fs.ErrPermission },
			CleanSubPaths:      func(string, string) error { return injected },
		}
		assert.ErrorIs(t, sp.SafeMakeDir("x", "/vol", 0o755), injected)
		ok, _ := hu.PathExists("/vol/x")
		assert.False(t, ok, "a failed SafeMakeDir creates nothing")
		_, cleanup, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		assert.ErrorIs(t, err, fs.ErrPermission)
		assert.Nil(t, cleanup)
		assert.Empty(t, sp.Binds())
		assert.ErrorIs(t, sp.CleanSubPaths("/pod", "vol"), injected)
		assert.Len(t, sp.Calls(), 3, "failed calls are recorded too")
	})
	t.Run("a wrapped offline Subpather shares its binds", func(t *testing.T) {
		inner := offline.NewSubpather(nil)
		sp := mountstest.WrapSubpather(inner)
		target, _, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 1, "/vol/a"))
		require.NoError(t, err)
		assert.Equal(t, map[string]string{target: "/vol/a"}, inner.Binds())
	})
	t.Run("the zero Subpather is ready to use", func(t *testing.T) {
		var zero mountstest.Subpather
		_, _, err := zero.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		assert.Len(t, zero.Binds(), 1)
	})
}
