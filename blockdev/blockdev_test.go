package blockdev_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/blockdev"
	"github.com/podconfig/podconfig/blockdev/blockdevtest"
	"github.com/podconfig/podconfig/mounts"
)

func TestMakeBlockVolumes(t *testing.T) {
	links := blockdevtest.NewSymlinks("/dev/sda", "/dev/disk/by-path/diskPath", "/dev/disk/by-id/diskUuid", "/var/lib/rawdisk")
	errLstat := errors.New("failed to Lstat file /broken: input/output error")
	links.Fail("/broken", errLstat)
	cases := []struct {
		name         string
		devices      []v1.VolumeDevice
		volumes      mounts.VolumeMap
		want         []blockdev.DeviceInfo
		wantWarnings []string
		wantErr      string
		wantIs       error
	}{
		{
			name: "devices keep volumeDevices order and read-only volumes get r",
			volumes: mounts.VolumeMap{
				"disk1": {BlockDevicePath: "/dev/sda"},
				"disk2": {BlockDevicePath: "/dev/disk/by-path/diskPath", ReadOnly: true},
				"disk3": {BlockDevicePath: "/dev/disk/by-id/diskUuid"},
				"disk4": {BlockDevicePath: "/var/lib/rawdisk", ReadOnly: true},
			},
			devices: []v1.VolumeDevice{
				{DevicePath: "/dev/sda", Name: "disk1"},
				{DevicePath: "/dev/xvda", Name: "disk2"},
				{DevicePath: "/dev/xvdb", Name: "disk3"},
				{DevicePath: "/mnt/rawdisk", Name: "disk4"},
			},
			want: []blockdev.DeviceInfo{
				{PathInContainer: "/dev/sda", PathOnHost: "/dev/sda", Permissions: "mrw"},
				{PathInContainer: "/dev/xvda", PathOnHost: "/dev/disk/by-path/diskPath", Permissions: "r"},
				{PathInContainer: "/dev/xvdb", PathOnHost: "/dev/disk/by-id/diskUuid", Permissions: "mrw"},
				{PathInContainer: "/mnt/rawdisk", PathOnHost: "/var/lib/rawdisk", Permissions: "r"},
			},
		},
		{
			name:    "relative devicePath is rejected",
			volumes: mounts.VolumeMap{"disk": {BlockDevicePath: "/dev/sda"}},
			devices: []v1.VolumeDevice{{DevicePath: "must/be/absolute", Name: "disk"}},
			wantErr: "error DevicePath `must/be/absolute` must be an absolute path",
			wantIs:  blockdev.ErrInvalidDevicePath,
		},
		{
			name:    "devicePath is checked before the volume",
			devices: []v1.VolumeDevice{{DevicePath: "sdb", Name: "missing"}},
			wantErr: "error DevicePath `sdb` must be an absolute path",
			wantIs:  blockdev.ErrInvalidDevicePath,
		},
		{
			name:    "missing volume is an error naming volume and container",
			volumes: mounts.VolumeMap{},
			devices: []v1.VolumeDevice{{DevicePath: "/dev/sdaa", Name: "disk"}},
			wantErr: `cannot find volume "disk" to pass into container "ctr"`,
			wantIs:  mounts.ErrVolumeNotFound,
		},
		{
			name:    "volume that is not a block volume is an error",
			volumes: mounts.VolumeMap{"disk": {HostPath: "/vol/disk"}},
			devices: []v1.VolumeDevice{{DevicePath: "/dev/sdzz", Name: "disk"}},
			wantErr: `cannot find volume "disk" to pass into container "ctr"`,
			wantIs:  mounts.ErrVolumeNotFound,
		},
		{
			name: "missing symlink is skipped with a warning",
			volumes: mounts.VolumeMap{
				"gone": {BlockDevicePath: "/dev/gone"},
				"disk": {BlockDevicePath: "/dev/sda"},
			},
			devices:      []v1.VolumeDevice{{DevicePath: "/dev/xvda", Name: "gone"}, {DevicePath: "/dev/xvdb", Name: "disk"}},
			want:         []blockdev.DeviceInfo{{PathInContainer: "/dev/xvdb", PathOnHost: "/dev/sda", Permissions: "mrw"}},
			wantWarnings: []string{`block device symlink "/dev/gone" of volume "gone" for container "ctr" does not exist; device "/dev/xvda" skipped`},
		},
		{
			name:    "symlink check error is returned verbatim",
			volumes: mounts.VolumeMap{"disk": {BlockDevicePath: "/broken"}},
			devices: []v1.VolumeDevice{{DevicePath: "/dev/xvda", Name: "disk"}},
			wantErr: errLstat.Error(),
			wantIs:  errLstat,
		},
		{
			name: "no volumeDevices means no devices",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings, err := blockdev.MakeBlockVolumes(&v1.Container{Name: "ctr", VolumeDevices: tc.devices}, tc.volumes, links)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, tc.wantIs)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantWarnings, warnings)
		})
	}
}

func TestMakeBlockVolumesNeedsItsInputs(t *testing.T) {
	_, _, err := blockdev.MakeBlockVolumes(nil, nil, nil)
	assert.ErrorIs(t, err, mounts.ErrMissingDependency)
	_, _, err = blockdev.MakeBlockVolumes(&v1.Container{Name: "ctr", VolumeDevices: []v1.VolumeDevice{{Name: "d", DevicePath: "/dev/d"}}},
		mounts.VolumeMap{"d": {BlockDevicePath: "/dev/sda"}}, nil)
	require.EqualError(t, err, `container "ctr" has volumeDevices but MakeBlockVolumes has no SymlinkChecker: missing dependency`)
	assert.ErrorIs(t, err, mounts.ErrMissingDependency)
}

func TestToCRIDevices(t *testing.T) {
	got := blockdev.ToCRIDevices([]blockdev.DeviceInfo{
		{PathOnHost: "/dev/sda", PathInContainer: "/dev/xvda", Permissions: "mrw"},
		{PathOnHost: "/dev/sdb", PathInContainer: "/dev/xvdb", Permissions: "r"},
	})
	assert.Equal(t, []*runtimeapi.Device{
		{HostPath: "/dev/sda", ContainerPath: "/dev/xvda", Permissions: "mrw"},
		{HostPath: "/dev/sdb", ContainerPath: "/dev/xvdb", Permissions: "r"},
	}, got, "devices keep their order")
	assert.Empty(t, blockdev.ToCRIDevices(nil))
}

func TestOSIsSymlinkExist(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	require.NoError(t, os.Symlink(file, filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "dangling")))
	cases := []struct {
		name string
		path string
		want bool
	}{
		{"symlink exists", "link", true},
		{"dangling symlink still exists, since it is not followed", "dangling", true},
		{"regular file is not a symlink", "file", false},
		{"directory is not a symlink", ".", false},
		{"missing path is not an error", "missing", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := blockdev.OS{}.IsSymlinkExist(filepath.Join(dir, tc.path))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("path through a file is an error", func(t *testing.T) {
		_, err := blockdev.OS{}.IsSymlinkExist(filepath.Join(file, "x"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "failed to Lstat file "+filepath.Join(file, "x"))
	})
}

// BenchmarkMakeBlockVolumes maps four volumeDevices with the in-memory checker.
func BenchmarkMakeBlockVolumes(b *testing.B) {
	links := blockdevtest.NewSymlinks("/dev/a", "/dev/b", "/dev/c", "/dev/d")
	ctr := &v1.Container{Name: "db", VolumeDevices: []v1.VolumeDevice{
		{Name: "a", DevicePath: "/dev/xvda"}, {Name: "b", DevicePath: "/dev/xvdb"},
		{Name: "c", DevicePath: "/dev/xvdc"}, {Name: "d", DevicePath: "/dev/xvdd"},
	}}
	vols := mounts.VolumeMap{
		"a": {BlockDevicePath: "/dev/a"}, "b": {BlockDevicePath: "/dev/b", ReadOnly: true},
		"c": {BlockDevicePath: "/dev/c"}, "d": {BlockDevicePath: "/dev/d"},
	}
	b.ReportAllocs()
	for b.Loop() {
		devices, _, err := blockdev.MakeBlockVolumes(ctr, vols, links)
		if err != nil || len(devices) != 4 {
			b.Fatal(devices, err)
		}
	}
}
