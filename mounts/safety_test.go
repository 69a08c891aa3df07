package mounts_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

func noHostCalls(t *testing.T, hu *mountstest.HostUtils, sp *mountstest.Subpather) {
	assert.Empty(t, hu.Calls(), "no host query before the error")
	assert.Empty(t, sp.Calls(), "no host effect before the error")
}

func TestMakeMountsHostileNames(t *testing.T) {
	sub := []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPath: "existing"}}
	cases := []makeMountsCase{
		{name: "empty container name is rejected before a subPath is prepared", emptyName: true, volumes: disk, mounts: sub,
			wantErr: `subPath of volumeMount "disk" of container "": invalid container name "": must not be empty`},
		{name: "container name .. is rejected", containerName: "..", volumes: disk, mounts: sub,
			wantErr: `subPath of volumeMount "disk" of container "..": invalid container name "..": must not be '.' or '..'`},
		{name: "container name . is rejected", containerName: ".", volumes: disk, mounts: sub,
			wantErr: `subPath of volumeMount "disk" of container ".": invalid container name ".": must not be '.' or '..'`},
		{name: "container name with a slash is rejected", containerName: "../../etc", volumes: disk, mounts: sub,
			wantErr: `subPath of volumeMount "disk" of container "../../etc": invalid container name "../../etc": must not contain '/'`},
		{name: "container name with a NUL byte is rejected", containerName: "c\x00", volumes: disk, mounts: sub,
			wantErr: `subPath of volumeMount "disk" of container "c\x00": invalid container name "c\x00": must not contain a NUL byte`},
		{name: "inner volume name with a slash is rejected", volumes: mounts.VolumeMap{"disk": {HostPath: "/vol/disk", InnerVolumeName: "../../../etc"}}, mounts: sub,
			wantErr: `subPath of volumeMount "disk" of container "ctr": invalid inner volume name "../../../etc": must not contain '/'`},
		{name: "volume name used as inner name is checked too", volumes: mounts.VolumeMap{"..": {HostPath: "/vol/disk"}},
			mounts:  []v1.VolumeMount{{MountPath: "/m", Name: "..", SubPath: "existing"}},
			wantErr: `subPath of volumeMount ".." of container "ctr": invalid inner volume name "..": must not be '.' or '..'`},
		{name: "hostile name in a later mount stops the call before any host effect", volumes: mounts.VolumeMap{
			"disk": {HostPath: "/vol/disk"}, "bad": {HostPath: "/vol/disk", InnerVolumeName: "a/b"}},
			mounts:  []v1.VolumeMount{{MountPath: "/a", Name: "disk", SubPath: "existing"}, {MountPath: "/b", Name: "bad", SubPath: "existing"}},
			wantErr: `subPath of volumeMount "bad" of container "ctr": invalid inner volume name "a/b": must not contain '/'`},
	}
	for _, tc := range cases {
		tc.wantIs = []error{mounts.ErrInvalidName}
		tc.check = noHostCalls
		t.Run(tc.name, tc.run)
	}

	// Names only become paths with a subPath; without one kubelet accepts them and so do we.
	makeMountsCase{
		name: "unusual names without a subPath are accepted", containerName: "a/b", volumes: mounts.VolumeMap{"x/y": {HostPath: "/vol/disk"}},
		mounts: []v1.VolumeMount{{MountPath: "/m", Name: "x/y"}},
		want:   []mounts.Mount{{Name: "x/y", ContainerPath: "/m", HostPath: "/vol/disk"}},
	}.run(t)
}

func TestMakeMountsUndoesOnError(t *testing.T) {
	two := mounts.VolumeMap{"disk": {HostPath: "/vol/disk"}, "other": {HostPath: "/vol/other"}}
	subs := []v1.VolumeMount{
		{MountPath: "/a", Name: "disk", SubPath: "existing"},
		{MountPath: "/b", Name: "disk", SubPath: "made/here"},
		{MountPath: "/c", Name: "other", SubPath: "x"},
	}
	failOn := func(index int, err error) func(*mountstest.HostUtils, *mountstest.Subpather) {
		return func(hu *mountstest.HostUtils, sp *mountstest.Subpather) {
			hu.AddPath("/vol/other", 0o755)
			sp.Funcs.PrepareSafeSubpath = func(s mounts.Subpath) error {
				if s.VolumeMountIndex == index {
					return err
				}
				return nil
			}
		}
	}
	prepared := func(n int) func(*testing.T, *mountstest.HostUtils, *mountstest.Subpather) {
		return func(t *testing.T, _ *mountstest.HostUtils, sp *mountstest.Subpather) {
			count := 0
			for _, c := range sp.Calls() {
				if c.Method == "PrepareSafeSubpath" {
					count++
				}
			}
			assert.Equal(t, n, count, "subPaths prepared before the failure")
		}
	}
	cases := []makeMountsCase{
		{
			name: "a later subPath that cannot be prepared undoes the earlier ones", volumes: two, mounts: subs,
			setup:   failOn(2, errSymlink),
			wantErr: `failed to prepare subPath for volumeMount "other" of container "ctr"`,
			wantIs:  []error{mounts.ErrSubPathSetup, errSymlink},
			check:   prepared(3),
		},
		{
			name: "a later subPath whose directory cannot be made undoes the earlier ones", volumes: two, mounts: subs,
			setup: func(hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				hu.AddPath("/vol/other", 0o755)
				sp.Funcs.SafeMakeDir = func(subdir, _ string, _ fs.FileMode) error {
					if subdir == "x" {
						return fs.ErrPermission
					}
					return nil
				}
			},
			wantErr: `failed to create subPath directory for volumeMount "other" of container "ctr"`,
			wantIs:  []error{mounts.ErrSubPathSetup, fs.ErrPermission},
			check:   prepared(2),
		},
		{
			name: "a volume root whose mode cannot be read undoes the earlier subPaths", volumes: mounts.VolumeMap{
				"disk": {HostPath: "/vol/disk"}, "other": {HostPath: "/vol/gone"}}, mounts: subs,
			wantErr: "stat /vol/gone: file does not exist",
			check:   prepared(2),
		},
		{
			name: "a hosts file failure undoes every subPath", volumes: two, mounts: subs, podIPs: []string{"10.0.0.1"},
			setup: func(hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				hu.AddPath("/vol/other", 0o755)
			},
			hostsFile: func() (string, error) { return "", errors.New("disk full") },
			wantErr:   "disk full",
			check:     prepared(3),
		},
		{
			name: "an invalid later mount means no subPath is prepared at all", volumes: two,
			mounts:  append(subs[:2:2], v1.VolumeMount{MountPath: "/c", Name: "other", MountPropagation: prop("Bogus")}),
			wantErr: `invalid MountPropagation mode: "Bogus"`,
			check:   noHostCalls,
		},
		{
			name: "subPath without backends is an error before any host effect", volumes: disk,
			mounts: []v1.VolumeMount{{MountPath: "/a", Name: "disk", SubPath: "x"}},
		},
	}
	for _, tc := range cases[:len(cases)-1] {
		t.Run(tc.name, tc.run)
	}

	t.Run(cases[len(cases)-1].name, func(t *testing.T) {
		_, cleanup, _, err := mounts.MakeMounts(mounts.Input{
			Pod: &v1.Pod{}, Container: &v1.Container{Name: "ctr", VolumeMounts: cases[len(cases)-1].mounts}, Volumes: disk,
		})
		require.EqualError(t, err, `container "ctr" uses a subPath but MakeMounts has no HostUtils or Subpather`)
		assert.ErrorIs(t, err, mounts.ErrMissingDependency)
		assert.NotNil(t, cleanup)
	})
}

func TestMakeMountsRelativeHostPaths(t *testing.T) {
	sub := []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPath: "existing"}}
	makeMountsCase{
		name: "relative volume host path cannot hold a subPath", volumes: mounts.VolumeMap{"disk": {HostPath: "vol/disk"}}, mounts: sub,
		wantErr: `volume "disk" has host path "vol/disk", which is not absolute, and cannot hold a subPath`,
		wantIs:  []error{mounts.ErrInvalidInput}, check: noHostCalls,
	}.run(t)

	hu := mountstest.NewHostUtils()
	sp := mountstest.NewSubpather(hu)
	_, _, _, err := mounts.MakeMounts(mounts.Input{
		Pod: &v1.Pod{}, Container: &v1.Container{Name: "ctr", VolumeMounts: sub}, Volumes: disk, HostUtils: hu, Subpather: sp,
	})
	require.EqualError(t, err, `container "ctr" uses a subPath but the pod directory "" is not an absolute path`)
	assert.ErrorIs(t, err, mounts.ErrInvalidInput)
	noHostCalls(t, hu, sp)
}

func TestMakeMountsUndoKeepsWhatWasThere(t *testing.T) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol/disk/existing", 0o755)
	sp := mountstest.NewSubpather(hu)
	earlier := mounts.Subpath{VolumeMountIndex: 0, Path: "/vol/disk/existing", VolumeName: "disk", VolumePath: "/vol/disk", PodDir: podDir, ContainerName: "ctr"}
	other := earlier
	other.ContainerName = "sidecar"
	for _, s := range []mounts.Subpath{earlier, other} {
		_, _, err := sp.PrepareSafeSubpath(s)
		require.NoError(t, err)
	}
	before := sp.Binds()

	_, _, _, err := mounts.MakeMounts(mounts.Input{
		Pod: &v1.Pod{}, PodDir: podDir, Volumes: disk, HostUtils: hu, Subpather: sp,
		Container: &v1.Container{Name: "ctr", VolumeMounts: []v1.VolumeMount{
			{MountPath: "/a", Name: "disk", SubPath: "existing"},
			{MountPath: "/b", Name: "disk", SubPath: "existing"},
		}},
		PodIPs:          []string{"10.0.0.1"},
		EnsureHostsFile: func() (string, error) { return "", errors.New("no space") },
	})
	require.EqualError(t, err, "no space")
	assert.Equal(t, before, sp.Binds(), "a bind this call found in place, and other containers' binds, survive the undo")
}

func TestMakeMountsCleanupUndoesOnce(t *testing.T) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol/disk", 0o755)
	sp := mountstest.NewSubpather(hu)
	ms, cleanup, warnings, err := mounts.MakeMounts(mounts.Input{
		Pod: &v1.Pod{}, PodDir: podDir, Volumes: disk, HostUtils: hu, Subpather: sp,
		Container: &v1.Container{Name: "ctr", VolumeMounts: []v1.VolumeMount{
			{MountPath: "/a", Name: "disk", SubPath: "one"},
			{MountPath: "/b", Name: "disk", SubPath: "two"},
		}},
	})
	require.NoError(t, err)
	assert.Empty(t, warnings)
	require.Len(t, ms, 2)
	assert.Equal(t, map[string]string{
		podDir + "/volume-subpaths/disk/ctr/0": "/vol/disk/one",
		podDir + "/volume-subpaths/disk/ctr/1": "/vol/disk/two",
	}, sp.Binds(), "a successful call leaves its binds for the runtime")

	var wg sync.WaitGroup
	for range 4 {
		wg.Go(cleanup)
	}
	wg.Wait()
	assert.Empty(t, sp.Binds(), "cleanup undoes the call's binds")
	_, _, err = sp.PrepareSafeSubpath(mounts.Subpath{VolumeMountIndex: 0, Path: "/vol/disk/one", VolumeName: "disk", VolumePath: "/vol/disk", PodDir: podDir, ContainerName: "ctr"})
	require.NoError(t, err)
	cleanup()
	assert.Len(t, sp.Binds(), 1, "a second cleanup does nothing")
}

func TestMakeMountsNilPodOrContainer(t *testing.T) {
	_, cleanup, _, err := mounts.MakeMounts(mounts.Input{Container: &v1.Container{}})
	require.EqualError(t, err, "MakeMounts: pod and container must not be nil")
	assert.ErrorIs(t, err, mounts.ErrMissingDependency)
	require.NotNil(t, cleanup)
	cleanup()
	_, _, _, err = mounts.MakeMounts(mounts.Input{Pod: &v1.Pod{}})
	assert.ErrorIs(t, err, mounts.ErrMissingDependency)

}

func TestValidateSubPath(t *testing.T) {
	for _, ok := range []string{"", "a", "a/b", "./a", "a/./b", ".", "a..", "..a", "a/...", "a//b", "a/"} {
		assert.NoError(t, mounts.ValidateSubPath(ok), "%q is valid", ok)
	}
	for _, bad := range []string{"/", "/a", "..", "../a", "a/..", "a/../b", "a//..//b", "a\x00", "a\xff"} {
		err := mounts.ValidateSubPath(bad)
		assert.ErrorIs(t, err, mounts.ErrInvalidSubPath, "%q is invalid", bad)
	}
}

// FuzzValidateSubPath checks the guarantee behind the subPath rules: any accepted subPath, joined
// to a volume root and cleaned, stays inside the root.
func FuzzValidateSubPath(f *testing.F) {
	for _, seed := range []string{"a/b", "..", "a/../..", "/etc", "./.", "a/./../b", "...", "a\x00b", "a//..", ""} {
		f.Add(seed)
	}
	const root = "/var/lib/kubelet/pods/uid/volumes/v"
	f.Fuzz(func(t *testing.T, subPath string) {
		if mounts.ValidateSubPath(subPath) != nil {
			return
		}
		joined := filepath.Clean(filepath.Join(root, subPath))
		if joined != root && !strings.HasPrefix(joined, root+"/") {
			t.Fatalf("accepted subPath %q escapes the volume: %q", subPath, joined)
		}
		if strings.ContainsRune(joined, 0) {
			t.Fatalf("accepted subPath %q holds a NUL byte", subPath)
		}
		if !utf8.ValidString(joined) {
			t.Fatalf("accepted subPath %q is not valid UTF-8", subPath)
		}
	})
}

// FuzzMakeMountsSubPathExpr checks that whatever a subPathExpr and the environment expand to, a
// subPath MakeMounts accepts is prepared from inside its volume.
func FuzzMakeMountsSubPathExpr(f *testing.F) {
	f.Add("$(A)", "../..")
	f.Add("x/$(A)/y", "a/../../b")
	f.Add("$$(A)/..", "v")
	f.Add("$(A)$(A)", "./.")
	f.Add("a/$(A", "/etc")
	f.Fuzz(func(t *testing.T, expr, value string) {
		hu := mountstest.NewHostUtils()
		sp := mountstest.NewSubpather(hu)
		_, cleanup, _, err := mounts.MakeMounts(mounts.Input{
			Pod: &v1.Pod{}, PodDir: podDir, Volumes: disk, HostUtils: hu, Subpather: sp,
			Container: &v1.Container{Name: "ctr", VolumeMounts: []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPathExpr: expr}}},
			Env:       map[string]string{"A": value},
		})
		defer cleanup()
		if err != nil {
			return
		}
		for _, c := range sp.Calls() {
			if c.Method != "PrepareSafeSubpath" {
				continue
			}
			p := filepath.Clean(c.Subpath.Path)
			if p != "/vol/disk" && !strings.HasPrefix(p, "/vol/disk/") {
				t.Fatalf("subPathExpr %q with A=%q prepares %q outside the volume", expr, value, c.Subpath.Path)
			}
		}
	})
}
