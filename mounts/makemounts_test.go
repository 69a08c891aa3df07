package mounts_test

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

const podDir = "/pod"

var (
	private   = runtimeapi.MountPropagation_PROPAGATION_PRIVATE
	hostToCtr = runtimeapi.MountPropagation_PROPAGATION_HOST_TO_CONTAINER
	bidi      = runtimeapi.MountPropagation_PROPAGATION_BIDIRECTIONAL
)

func prop(m v1.MountPropagationMode) *v1.MountPropagationMode { return &m }

func rroMode(m v1.RecursiveReadOnlyMode) *v1.RecursiveReadOnlyMode { return &m }

// makeMountsCase is one MakeMounts scenario with in-memory backends.
type makeMountsCase struct {
	name          string
	containerName string // "ctr" when empty and not emptyName
	emptyName     bool
	mounts        []v1.VolumeMount
	volumes       mounts.VolumeMap
	podIPs        []string
	hostNetwork   bool
	podVolumes    []v1.Volume
	env           map[string]string
	supportsRRO   bool
	setup         func(hu *mountstest.HostUtils, sp *mountstest.Subpather)
	hostsFile     func() (string, error)
	noHostsFunc   bool

	want         []mounts.Mount
	wantErr      string
	wantIs       []error
	wantWarnings []string
	check        func(t *testing.T, hu *mountstest.HostUtils, sp *mountstest.Subpather)
}

// run checks the case through MakeMounts.
func (tc makeMountsCase) run(t *testing.T) {
	t.Helper()
	hu := mountstest.NewHostUtils()
	sp := mountstest.NewSubpather(hu)
	hu.AddPath("/vol/disk", fs.ModeDir|fs.ModeSetgid|0o775)
	hu.AddPath("/vol/disk/existing", 0o755)
	if tc.setup != nil {
		tc.setup(hu, sp)
	}
	name := tc.containerName
	if name == "" && !tc.emptyName {
		name = "ctr"
	}
	hostsCalls := 0
	ensure := func() (string, error) {
		hostsCalls++
		if tc.hostsFile != nil {
			return tc.hostsFile()
		}
		return podDir + "/etc-hosts", nil
	}
	if tc.noHostsFunc {
		ensure = nil
	}
	in := mounts.Input{
		Pod:                       &v1.Pod{Spec: v1.PodSpec{HostNetwork: tc.hostNetwork, Volumes: tc.podVolumes}},
		Container:                 &v1.Container{Name: name, VolumeMounts: tc.mounts},
		PodDir:                    podDir,
		PodIPs:                    tc.podIPs,
		Volumes:                   tc.volumes,
		HostUtils:                 hu,
		Subpather:                 sp,
		Env:                       tc.env,
		SupportsRecursiveReadOnly: tc.supportsRRO,
		EnsureHostsFile:           ensure,
	}
	got, cleanup, warnings, err := mounts.MakeMounts(in)
	require.NotNil(t, cleanup, "cleanup is never nil")
	switch {
	case tc.wantErr != "":
		require.EqualError(t, err, tc.wantErr)
		assert.Nil(t, got)
		assert.Empty(t, sp.Binds(), "a failed call leaves no bind behind")
	default:
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
	for _, target := range tc.wantIs {
		assert.ErrorIs(t, err, target)
	}
	assert.Equal(t, tc.wantWarnings, warnings)
	if tc.check != nil {
		tc.check(t, hu, sp)
	}
}

// disk is a plain volume used by most cases.
var disk = mounts.VolumeMap{"disk": {HostPath: "/vol/disk"}}

func TestMakeMountsKubeletCases(t *testing.T) {
	cases := []makeMountsCase{
		{
			name: "mounts keep volumeMounts order, propagation and read-only",
			volumes: mounts.VolumeMap{
				"disk":  {HostPath: "/mnt/disk"},
				"disk4": {HostPath: "/mnt/host"},
				"disk5": {HostPath: "/var/lib/kubelet/podID/volumes/empty/disk5"},
			},
			mounts: []v1.VolumeMount{
				{MountPath: "/etc/hosts", Name: "disk", MountPropagation: prop(v1.MountPropagationHostToContainer)},
				{MountPath: "/mnt/path3", Name: "disk", ReadOnly: true, MountPropagation: prop(v1.MountPropagationNone)},
				{MountPath: "/mnt/path4", Name: "disk4"},
				{MountPath: "/mnt/path5", Name: "disk5", MountPropagation: prop(v1.MountPropagationBidirectional)},
			},
			hostNetwork: true,
			want: []mounts.Mount{
				{Name: "disk", ContainerPath: "/etc/hosts", HostPath: "/mnt/disk", Propagation: hostToCtr},
				{Name: "disk", ContainerPath: "/mnt/path3", HostPath: "/mnt/disk", ReadOnly: true, Propagation: private},
				{Name: "disk4", ContainerPath: "/mnt/path4", HostPath: "/mnt/host", Propagation: private},
				{Name: "disk5", ContainerPath: "/mnt/path5", HostPath: "/var/lib/kubelet/podID/volumes/empty/disk5", Propagation: bidi},
			},
		},
		{
			name:    "missing volume is an error naming volume and container",
			volumes: mounts.VolumeMap{},
			mounts:  []v1.VolumeMount{{MountPath: "/mnt/path3", Name: "disk", ReadOnly: true}},
			wantErr: `cannot find volume "disk" to mount into container "ctr"`,
			wantIs:  []error{mounts.ErrVolumeNotFound},
		},
		{
			name:      "volume without host path or image cannot be mounted, even into an unnamed container",
			emptyName: true,
			volumes:   mounts.VolumeMap{"disk": {}},
			mounts:    []v1.VolumeMount{{MountPath: "/mnt/path3", Name: "disk"}},
			wantErr:   `cannot find volume "disk" to mount into container ""`,
			wantIs:    []error{mounts.ErrVolumeNotFound},
		},
		{
			name:    "a mounted volume with an empty path is kubelet's path-is-empty error naming its mounter",
			volumes: mounts.VolumeMap{"disk": {MounterType: "*emptydir.emptyDir"}},
			mounts:  []v1.VolumeMount{{MountPath: "/mnt/path3", Name: "disk"}},
			wantErr: "path is empty *emptydir.emptyDir",
			wantIs:  []error{mounts.ErrEmptyVolumePath},
		},
		{
			name:    "a mounted volume with an empty path fails after its subPath is checked, as in kubelet",
			volumes: mounts.VolumeMap{"disk": {MounterType: "*csi.csiMountMgr"}},
			mounts:  []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPath: "../x"}},
			wantErr: "unable to provision SubPath `../x`: must not contain '..'",
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
		{
			name:    "SELinux relabel comes from the volume, for every mount of it",
			volumes: mounts.VolumeMap{"disk": {HostPath: "/vol/disk", SELinuxRelabel: true}},
			mounts:  []v1.VolumeMount{{MountPath: "/a", Name: "disk"}, {MountPath: "/b", Name: "disk"}},
			want: []mounts.Mount{
				{Name: "disk", ContainerPath: "/a", HostPath: "/vol/disk", SELinuxRelabel: true},
				{Name: "disk", ContainerPath: "/b", HostPath: "/vol/disk", SELinuxRelabel: true},
			},
		},
		{
			name:    "read-only volume makes every mount of it read-only",
			volumes: mounts.VolumeMap{"disk": {HostPath: "/vol/disk", ReadOnly: true}},
			mounts:  []v1.VolumeMount{{MountPath: "/a", Name: "disk"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/a", HostPath: "/vol/disk", ReadOnly: true}},
		},
		{
			name:    "relative container path is made absolute and cleaned",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "data/x", Name: "disk"}, {MountPath: "../up/./y", Name: "disk"}, {MountPath: "", Name: "disk"}},
			want: []mounts.Mount{
				{Name: "disk", ContainerPath: "/data/x", HostPath: "/vol/disk"},
				{Name: "disk", ContainerPath: "/up/y", HostPath: "/vol/disk"},
				{Name: "disk", ContainerPath: "/", HostPath: "/vol/disk"},
			},
		},
		{
			name:    "absolute container path is kept as written",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/data//x/", Name: "disk"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/data//x/", HostPath: "/vol/disk"}},
		},
		{
			name:    "bind mount options are copied",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/a", Name: "disk", BindMountOptions: []string{"noexec", "nosuid"}}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/a", HostPath: "/vol/disk", BindMountOptions: []string{"noexec", "nosuid"}}},
		},
		{
			name:    "image volume has no host path and passes the subPath to the runtime",
			volumes: mounts.VolumeMap{"img": {Image: &runtimeapi.ImageSpec{Image: "registry/img:1"}}},
			mounts:  []v1.VolumeMount{{MountPath: "/img", Name: "img", SubPath: "dir/sub", ReadOnly: true}},
			want: []mounts.Mount{{
				Name: "img", ContainerPath: "/img", Image: &runtimeapi.ImageSpec{Image: "registry/img:1"},
				ImageSubPath: "dir/sub", ReadOnly: true,
			}},
			check: func(t *testing.T, hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				assert.Empty(t, hu.Calls(), "no subPath directory for an image volume")
				assert.Empty(t, sp.Calls(), "no bind for an image volume")
			},
		},
		{
			name: "with an image volume in the pod, every mount's subPath is also its image_sub_path",
			volumes: mounts.VolumeMap{
				"disk": {HostPath: "/vol/disk"},
				"img":  {Image: &runtimeapi.ImageSpec{Image: "img"}},
			},
			mounts: []v1.VolumeMount{
				{MountPath: "/sub", Name: "disk", SubPath: "existing"},
				{MountPath: "/plain", Name: "disk"},
			},
			want: []mounts.Mount{
				{Name: "disk", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/disk/ctr/0", ImageSubPath: "existing"},
				{Name: "disk", ContainerPath: "/plain", HostPath: "/vol/disk"},
			},
		},
		{
			name:       "an image volume the pod declares counts even when it is not in the volume map",
			volumes:    disk,
			podVolumes: []v1.Volume{{Name: "img", VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "img"}}}},
			mounts:     []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "existing"}},
			want:       []mounts.Mount{{Name: "disk", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/disk/ctr/0", ImageSubPath: "existing"}},
		},
		{
			name:    "without image volumes an ordinary mount has no image_sub_path",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "existing"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/disk/ctr/0"}},
		},
		{
			name:    "image volume subPath is validated too",
			volumes: mounts.VolumeMap{"img": {Image: &runtimeapi.ImageSpec{Image: "img"}}},
			mounts:  []v1.VolumeMount{{MountPath: "/img", Name: "img", SubPath: "../etc"}},
			wantErr: "unable to provision SubPath `../etc`: must not contain '..'",
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}

func TestMakeMountsSubPath(t *testing.T) {
	cases := []makeMountsCase{
		{
			name:    "absolute subPath is rejected",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/mnt/path3", SubPath: "/must/not/be/absolute", Name: "disk", ReadOnly: true}},
			wantErr: "error SubPath `/must/not/be/absolute` must not be an absolute path",
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
		{
			name:    "subPath with .. is rejected",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/mnt/path3", SubPath: "no/backsteps/../allowed", Name: "disk"}},
			wantErr: "unable to provision SubPath `no/backsteps/../allowed`: must not contain '..'",
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
		{
			name:    "subPath that is only .. is rejected",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/m", SubPath: "..", Name: "disk"}},
			wantErr: "unable to provision SubPath `..`: must not contain '..'",
		},
		{
			name:    "subPath with a NUL byte is rejected",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/m", SubPath: "a\x00b", Name: "disk"}},
			wantErr: `unable to provision SubPath "a\x00b": must not contain a NUL byte`,
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
		{
			name:    "subPath that is not valid UTF-8 is rejected",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/m", SubPath: "a\xffb", Name: "disk"}},
			wantErr: `unable to provision SubPath "a\xffb": must be valid UTF-8`,
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
		{
			name:    "subPath element that merely contains dots is allowed",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/m", SubPath: "a..b/...", Name: "disk"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/m", HostPath: podDir + "/volume-subpaths/disk/ctr/0"}},
		},
		{
			name:    "subPath is bound at kubelet's target, indexed by volumeMount position",
			volumes: disk,
			mounts: []v1.VolumeMount{
				{MountPath: "/plain", Name: "disk"},
				{MountPath: "/sub", Name: "disk", SubPath: "existing"},
			},
			want: []mounts.Mount{
				{Name: "disk", ContainerPath: "/plain", HostPath: "/vol/disk"},
				{Name: "disk", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/disk/ctr/1"},
			},
			check: func(t *testing.T, hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				assert.Equal(t, map[string]string{podDir + "/volume-subpaths/disk/ctr/1": "/vol/disk/existing"}, sp.Binds())
				assert.Equal(t, []mountstest.Call{{Method: "PrepareSafeSubpath", Subpath: mounts.Subpath{
					VolumeMountIndex: 1, Path: "/vol/disk/existing", VolumeName: "disk", VolumePath: "/vol/disk", PodDir: podDir, ContainerName: "ctr",
				}}}, sp.Calls(), "an existing subPath is not created")
			},
		},
		{
			name:    "inner volume name names the bind target directory",
			volumes: mounts.VolumeMap{"data": {HostPath: "/vol/disk", InnerVolumeName: "pv-0001"}},
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "data", SubPath: "existing"}},
			want:    []mounts.Mount{{Name: "data", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/pv-0001/ctr/0"}},
		},
		{
			name:    "missing subPath directory is created with the volume root's mode",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "new/dir"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/disk/ctr/0"}},
			check: func(t *testing.T, hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				assert.Equal(t, mountstest.Call{Method: "SafeMakeDir", Path: "new/dir", Base: "/vol/disk", Perm: fs.ModeDir | fs.ModeSetgid | 0o775}, sp.Calls()[0])
				assert.Equal(t, []mountstest.Call{{Method: "PathExists", Path: "/vol/disk/new/dir"}, {Method: "GetMode", Path: "/vol/disk"}}, hu.Calls())
			},
		},
		{
			name:    "subPath existence that cannot be checked is a warning and nothing is created",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "existing"}},
			setup: func(hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				hu.Funcs.PathExists = func(string) error { return fs.ErrPermission }
			},
			want:         []mounts.Mount{{Name: "disk", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/disk/ctr/0"}},
			wantWarnings: []string{`could not determine if subPath "existing" of volumeMount "disk" of container "ctr" exists, not creating it: permission denied`},
			check: func(t *testing.T, hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				assert.Equal(t, "PrepareSafeSubpath", sp.Calls()[0].Method, "no SafeMakeDir")
			},
		},
		{
			name:    "volume root mode error is returned verbatim",
			volumes: mounts.VolumeMap{"disk": {HostPath: "/vol/gone"}},
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "x"}},
			wantErr: "stat /vol/gone: file does not exist",
			wantIs:  []error{fs.ErrNotExist},
		},
		{
			name:    "subPath directory that appeared meanwhile is fine",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "racy"}},
			setup: func(hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				sp.Funcs.SafeMakeDir = func(subdir, base string, _ os.FileMode) error {
					hu.AddPath(base+"/"+subdir, 0o755)
					return &fs.PathError{Op: "mkdir", Path: subdir, Err: fs.ErrExist}
				}
			},
			want: []mounts.Mount{{Name: "disk", ContainerPath: "/sub", HostPath: podDir + "/volume-subpaths/disk/ctr/0"}},
		},
		{
			name:    "subPath directory creation failure hides the cause in the text but wraps it",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "x"}},
			setup: func(hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				sp.Funcs.SafeMakeDir = func(string, string, os.FileMode) error { return fs.ErrPermission }
			},
			wantErr: `failed to create subPath directory for volumeMount "disk" of container "ctr"`,
			wantIs:  []error{mounts.ErrSubPathSetup, fs.ErrPermission},
		},
		{
			name:    "subPath preparation failure hides the cause in the text but wraps it",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/sub", Name: "disk", SubPath: "existing"}},
			setup: func(hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				sp.Funcs.PrepareSafeSubpath = func(mounts.Subpath) error { return errSymlink }
			},
			wantErr: `failed to prepare subPath for volumeMount "disk" of container "ctr"`,
			wantIs:  []error{mounts.ErrSubPathSetup, errSymlink},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}

var errSymlink = errors.New("unexpected symlink found /vol/disk/existing")

func TestMakeMountsSubPathExpr(t *testing.T) {
	cases := []makeMountsCase{
		{
			name:    "subPathExpr is expanded from the container environment",
			volumes: disk,
			env:     map[string]string{"POD_NAME": "web-0"},
			mounts:  []v1.VolumeMount{{MountPath: "/logs", Name: "disk", SubPathExpr: "logs/$(POD_NAME)"}},
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/logs", HostPath: podDir + "/volume-subpaths/disk/ctr/0"}},
			check: func(t *testing.T, hu *mountstest.HostUtils, sp *mountstest.Subpather) {
				assert.Equal(t, map[string]string{podDir + "/volume-subpaths/disk/ctr/0": "/vol/disk/logs/web-0"}, sp.Binds())
			},
		},
		{
			name:    "subPathExpr wins over subPath",
			volumes: mounts.VolumeMap{"img": {Image: &runtimeapi.ImageSpec{Image: "img"}}},
			env:     map[string]string{"X": "from-expr"},
			mounts:  []v1.VolumeMount{{MountPath: "/i", Name: "img", SubPath: "from-subpath", SubPathExpr: "$(X)"}},
			want:    []mounts.Mount{{Name: "img", ContainerPath: "/i", Image: &runtimeapi.ImageSpec{Image: "img"}, ImageSubPath: "from-expr"}},
		},
		{
			name:    "subPathExpr with missing or empty variables names each once, sorted",
			volumes: disk,
			env:     map[string]string{"EMPTY": "", "SET": "v"},
			mounts:  []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPathExpr: "$(ZED)/$(SET)/$(EMPTY)/$(ZED)/$(ALPHA)"}},
			wantErr: "missing value for ALPHA, EMPTY, ZED",
			wantIs:  []error{mounts.ErrSubPathExpansion},
		},
		{
			name:    "subPathExpr escapes $$ and keeps unknown $ forms",
			volumes: mounts.VolumeMap{"img": {Image: &runtimeapi.ImageSpec{Image: "img"}}},
			mounts:  []v1.VolumeMount{{MountPath: "/i", Name: "img", SubPathExpr: "a$$(B)$c$"}},
			want:    []mounts.Mount{{Name: "img", ContainerPath: "/i", Image: &runtimeapi.ImageSpec{Image: "img"}, ImageSubPath: "a$(B)$c$"}},
		},
		{
			name:    "subPathExpr that expands to .. is rejected",
			volumes: disk,
			env:     map[string]string{"UP": "../.."},
			mounts:  []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPathExpr: "x/$(UP)/etc"}},
			wantErr: "unable to provision SubPath `x/../../etc`: must not contain '..'",
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
		{
			name:    "subPathExpr that expands beyond PATH_MAX is rejected before it is built",
			volumes: disk,
			env:     map[string]string{"BIG": strings.Repeat("d", 1<<20)},
			mounts:  []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPathExpr: strings.Repeat("$(BIG)", 1000)}},
			wantErr: `subPathExpr of volumeMount "disk" expands beyond 4096 bytes (PATH_MAX)`,
			wantIs:  []error{mounts.ErrSubPathExpansion},
		},
		{
			name:    "subPathExpr that expands to an absolute path is rejected",
			volumes: disk,
			env:     map[string]string{"ROOT": "/etc"},
			mounts:  []v1.VolumeMount{{MountPath: "/m", Name: "disk", SubPathExpr: "$(ROOT)/shadow"}},
			wantErr: "error SubPath `/etc/shadow` must not be an absolute path",
			wantIs:  []error{mounts.ErrInvalidSubPath},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}
