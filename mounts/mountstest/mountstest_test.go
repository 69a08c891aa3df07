package mountstest_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
	podsubpath "github.com/podconfig/podconfig/subpath"
)

func subpath(vol, ctr string, i int, path string) mounts.Subpath {
	return mounts.Subpath{VolumeMountIndex: i, Path: path, VolumeName: vol, VolumePath: "/vol", PodDir: "/pod", ContainerName: ctr}
}

func TestHostUtils(t *testing.T) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol/", fs.ModeSetgid|0o775)

	ok, err := hu.PathExists("/vol")
	require.NoError(t, err)
	assert.True(t, ok, "an added path exists, cleaned")
	ok, err = hu.PathExists("/nope")
	require.NoError(t, err)
	assert.False(t, ok, "an unknown path does not exist")

	mode, err := hu.GetMode("/vol")
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSetgid|0o775, mode)
	_, err = hu.GetMode("/nope")
	assert.ErrorIs(t, err, fs.ErrNotExist)

	hu.Funcs.GetMode = func(string) error { return fs.ErrPermission }
	_, err = hu.GetMode("/vol")
	assert.ErrorIs(t, err, fs.ErrPermission, "an injected error wins")

	assert.Equal(t, []mountstest.Call{
		{Method: "PathExists", Path: "/vol"}, {Method: "PathExists", Path: "/nope"},
		{Method: "GetMode", Path: "/vol"}, {Method: "GetMode", Path: "/nope"}, {Method: "GetMode", Path: "/vol"},
	}, hu.Calls())
	hu.ResetCalls()
	assert.Empty(t, hu.Calls())
}

func TestSubpatherSafeMakeDir(t *testing.T) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol", 0o755)
	hu.AddPath("/vol/a", 0o700)
	sp := mountstest.NewSubpather(hu)

	require.NoError(t, sp.SafeMakeDir("a/b/c", "/vol", fs.ModeSetgid|0o770))
	for path, want := range map[string]fs.FileMode{"/vol/a": 0o700, "/vol/a/b": fs.ModeSetgid | 0o770, "/vol/a/b/c": fs.ModeSetgid | 0o770} {
		mode, err := hu.GetMode(path)
		require.NoError(t, err)
		assert.Equal(t, want, mode, "missing levels get perm, existing ones keep theirs: %s", path)
	}

	err := sp.SafeMakeDir("../etc", "/vol", 0o755)
	require.EqualError(t, err, "path /etc is outside of allowed base /vol")

	injected := errors.New("injected")
	sp.Funcs.SafeMakeDir = func(string, string, fs.FileMode) error { return injected }
	assert.ErrorIs(t, sp.SafeMakeDir("x", "/vol", 0o755), injected)
	ok, _ := hu.PathExists("/vol/x")
	assert.False(t, ok, "a failed SafeMakeDir creates nothing")
}

func TestSubpatherPrepareSafeSubpath(t *testing.T) {
	cases := []struct {
		name    string
		sp      mounts.Subpath
		want    string
		wantErr string
	}{
		{"bind target is kubelet's path", subpath("vol", "ctr", 3, "/vol/a"), "/pod/volume-subpaths/vol/ctr/3", ""},
		{"volume root itself can be bound", subpath("vol", "ctr", 0, "/vol"), "/pod/volume-subpaths/vol/ctr/0", ""},
		{"source outside the volume is rejected", subpath("vol", "ctr", 0, "/etc"), "", `subpath "/etc" not within volume path "/vol"`},
		{"source that does not exist is rejected", subpath("vol", "ctr", 0, "/vol/missing"), "", "lstat /vol/missing failed: file does not exist"},
		{"volume name with a slash is rejected", subpath("../x", "ctr", 0, "/vol/a"), "", `invalid volume name "../x": must not contain '/'`},
		{"empty container name is rejected", subpath("vol", "", 0, "/vol/a"), "", `invalid container name "": must not be empty`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			hu := mountstest.NewHostUtils()
			hu.AddPath("/vol", 0o755)
			hu.AddPath("/vol/a", 0o755)
			sp := mountstest.NewSubpather(hu)
			got, cleanup, err := sp.PrepareSafeSubpath(tc.sp)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.Nil(t, cleanup)
				assert.Empty(t, sp.Binds())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, map[string]string{tc.want: tc.sp.Path}, sp.Binds())
			require.NotNil(t, cleanup)
			cleanup()
			assert.Empty(t, sp.Binds(), "cleanup undoes the bind")
		})
	}

	t.Run("rebinding the same source makes nothing to undo", func(t *testing.T) {
		sp := mountstest.NewSubpather(nil)
		_, first, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		require.NotNil(t, first)
		target, again, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		assert.Nil(t, again)
		assert.Equal(t, "/pod/volume-subpaths/vol/ctr/0", target, "the bound target comes back")
		assert.Equal(t, map[string]string{"/pod/volume-subpaths/vol/ctr/0": "/vol/a"}, sp.Binds())
	})
	t.Run("bind targets are BindTarget's, whatever their length or the pod directory's form", func(t *testing.T) {
		sp := mountstest.NewSubpather(nil)
		long := strings.Repeat("v", 255)
		for _, s := range []mounts.Subpath{
			{VolumeMountIndex: 12, Path: "/vol/a", VolumeName: long, VolumePath: "/vol", PodDir: "/var/lib/kubelet/pods/" + long, ContainerName: long},
			{VolumeMountIndex: 1, Path: "/vol/a", VolumeName: "vol", VolumePath: "/vol", PodDir: "/pods//uid/", ContainerName: "ctr"},
		} {
			want := mountstest.BindTarget(s)
			for range 2 {
				got, _, err := sp.PrepareSafeSubpath(s)
				require.NoError(t, err)
				assert.Equal(t, want, got)
			}
		}
		assert.Equal(t, "/pods/uid/volume-subpaths/vol/ctr/1", mountstest.BindTarget(mounts.Subpath{VolumeMountIndex: 1, VolumeName: "vol", PodDir: "/pods//uid/", ContainerName: "ctr"}))
		assert.Len(t, sp.Binds(), 2)
	})
	t.Run("with a host, a bound source is bound again and an unknown one at the same target is refused", func(t *testing.T) {
		hu := mountstest.NewHostUtils()
		hu.AddPath("/vol/a", 0o755)
		sp := mountstest.NewSubpather(hu)
		_, first, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		require.NotNil(t, first)
		target, again, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		assert.Nil(t, again)
		assert.Equal(t, "/pod/volume-subpaths/vol/ctr/0", target)
		_, _, err = sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/b"))
		require.EqualError(t, err, "lstat /vol/b failed: file does not exist")
		assert.Equal(t, map[string]string{"/pod/volume-subpaths/vol/ctr/0": "/vol/a"}, sp.Binds())
	})
	t.Run("a stale bind is replaced and its undo no longer touches the new one", func(t *testing.T) {
		sp := mountstest.NewSubpather(nil)
		_, stale, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		_, _, err = sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/b"))
		require.NoError(t, err)
		stale()
		assert.Equal(t, map[string]string{"/pod/volume-subpaths/vol/ctr/0": "/vol/b"}, sp.Binds())
	})
	t.Run("an injected error prepares nothing", func(t *testing.T) {
		sp := mountstest.NewSubpather(nil)
		sp.Funcs.PrepareSafeSubpath = func(mounts.Subpath) error { return fs.ErrPermission }
		_, cleanup, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		assert.ErrorIs(t, err, fs.ErrPermission)
		assert.Nil(t, cleanup)
		assert.Empty(t, sp.Binds())
	})
}

func TestSubpatherCleanSubPaths(t *testing.T) {
	sp := mountstest.NewSubpather(nil)
	for _, s := range []mounts.Subpath{subpath("vol", "a", 0, "/vol/x"), subpath("vol", "b", 1, "/vol/y"), subpath("volume2", "a", 2, "/vol/z")} {
		_, _, err := sp.PrepareSafeSubpath(s)
		require.NoError(t, err)
	}
	require.NoError(t, sp.CleanSubPaths("/pod", "vol"))
	assert.Equal(t, map[string]string{"/pod/volume-subpaths/volume2/a/2": "/vol/z"}, sp.Binds(),
		"every container's binds of that volume go, another volume whose name shares the prefix stays")

	err := sp.CleanSubPaths("/pod", "..")
	require.EqualError(t, err, `invalid volume name "..": must not be '.' or '..'`)
	assert.ErrorIs(t, err, podsubpath.ErrInvalidName, "the fake refuses a name with the real backend's error")
	assert.Len(t, sp.Binds(), 1)

	assert.Equal(t, mountstest.Call{Method: "CleanSubPaths", PodDir: "/pod", VolumeName: ".."}, sp.Calls()[len(sp.Calls())-1])
	sp.ResetCalls()
	assert.Empty(t, sp.Calls())
}
