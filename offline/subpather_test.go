package offline_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
	podsubpath "github.com/podconfig/podconfig/subpath"
)

func subpath(vol, ctr string, i int, path string) mounts.Subpath {
	return mounts.Subpath{VolumeMountIndex: i, Path: path, VolumeName: vol, VolumePath: "/vol", PodDir: "/pod", ContainerName: ctr}
}

func TestSubpatherSafeMakeDir(t *testing.T) {
	hu := offline.NewHostUtils()
	hu.AddPath("/vol", 0o755)
	hu.AddPath("/vol/a", 0o700)
	sp := offline.NewSubpather(hu)

	require.NoError(t, sp.SafeMakeDir("a/b/c", "/vol", fs.ModeSetgid|0o770))
	for path, want := range map[string]fs.FileMode{"/vol/a": 0o700, "/vol/a/b": fs.ModeSetgid | 0o770, "/vol/a/b/c": fs.ModeSetgid | 0o770} {
		mode, err := hu.GetMode(path)
		require.NoError(t, err)
		assert.Equal(t, want, mode, "missing levels get perm, existing ones keep theirs: %s", path)
	}

	err := sp.SafeMakeDir("../etc", "/vol", 0o755)
	require.EqualError(t, err, "path /etc is outside of allowed base /vol")
	ok, _ := hu.PathExists("/etc")
	assert.False(t, ok, "a refused SafeMakeDir makes nothing")
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
			hu := offline.NewHostUtils()
			hu.AddPath("/vol", 0o755)
			hu.AddPath("/vol/a", 0o755)
			sp := offline.NewSubpather(hu)
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
		sp := offline.NewSubpather(nil)
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
		sp := offline.NewSubpather(nil)
		long := strings.Repeat("v", 255)
		for _, s := range []mounts.Subpath{
			{VolumeMountIndex: 12, Path: "/vol/a", VolumeName: long, VolumePath: "/vol", PodDir: "/var/lib/kubelet/pods/" + long, ContainerName: long},
			{VolumeMountIndex: 1, Path: "/vol/a", VolumeName: "vol", VolumePath: "/vol", PodDir: "/pods//uid/", ContainerName: "ctr"},
		} {
			want := offline.BindTarget(s)
			for range 2 {
				got, _, err := sp.PrepareSafeSubpath(s)
				require.NoError(t, err)
				assert.Equal(t, want, got)
			}
		}
		linux, err := podsubpath.BindTarget("/pods/uid", "vol", "ctr", 1)
		require.NoError(t, err)
		assert.Equal(t, "/pods/uid/volume-subpaths/vol/ctr/1", linux)
		assert.Equal(t, linux, offline.BindTarget(mounts.Subpath{VolumeMountIndex: 1, VolumeName: "vol", PodDir: "/pods//uid/", ContainerName: "ctr"}), "the Linux backend's target, the pod directory cleaned")
		assert.Len(t, sp.Binds(), 2)
	})
	t.Run("with a host, a bound source is bound again and an unknown one at the same target is refused", func(t *testing.T) {
		hu := offline.NewHostUtils()
		hu.AddPath("/vol/a", 0o755)
		sp := offline.NewSubpather(hu)
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
		sp := offline.NewSubpather(nil)
		_, stale, err := sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/a"))
		require.NoError(t, err)
		_, _, err = sp.PrepareSafeSubpath(subpath("vol", "ctr", 0, "/vol/b"))
		require.NoError(t, err)
		stale()
		assert.Equal(t, map[string]string{"/pod/volume-subpaths/vol/ctr/0": "/vol/b"}, sp.Binds())
	})
}

func TestSubpatherCleanSubPaths(t *testing.T) {
	sp := offline.NewSubpather(nil)
	for _, s := range []mounts.Subpath{subpath("vol", "a", 0, "/vol/x"), subpath("vol", "b", 1, "/vol/y"), subpath("volume2", "a", 2, "/vol/z")} {
		_, _, err := sp.PrepareSafeSubpath(s)
		require.NoError(t, err)
	}
	require.NoError(t, sp.CleanSubPaths("/pod", "vol"))
	assert.Equal(t, map[string]string{"/pod/volume-subpaths/volume2/a/2": "/vol/z"}, sp.Binds(),
		"every container's binds of that volume go, another volume whose name shares the prefix stays")

	err := sp.CleanSubPaths("/pod", "..")
	require.EqualError(t, err, `invalid volume name "..": must not be '.' or '..'`)
	assert.ErrorIs(t, err, podsubpath.ErrInvalidName, "a name is refused with the real backend's error")
	assert.Len(t, sp.Binds(), 1)
}
