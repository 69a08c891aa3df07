package volumes

import (
	"context"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/mounts"
)

func managerPod() *v1.Pod {
	pod := testPod()
	pod.Spec.SecurityContext = &v1.PodSecurityContext{FSGroup: i64(2000)}
	pod.Spec.Volumes = []v1.Volume{
		{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644)}}},
		{Name: "creds", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "creds", DefaultMode: i32(0o400)}}},
		{Name: "info", VolumeSource: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: i32(0o644), Items: []v1.DownwardAPIVolumeFile{
			{Path: "name", FieldRef: &v1.ObjectFieldSelector{FieldPath: "metadata.name"}}}}}},
		{Name: "scratch", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
		{Name: "cache", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumMemory, SizeLimit: ptr(resource.MustParse("16Mi"))}}},
		{Name: "host", VolumeSource: v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/srv/data", Type: ptr(v1.HostPathDirectoryOrCreate)}}},
		{Name: "pvc", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "x"}}},
	}
	pod.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "cfg", MountPath: "/etc/app"}, {Name: "scratch", MountPath: "/etc/app/extra"}}
	return pod
}

func TestManagerSetUpPodInMemory(t *testing.T) {
	host := NewMemoryHost()
	m := &Manager{RootDir: "/var/lib/kubelet", Sources: testSources(), Host: host}
	pod := managerPod()
	require.NoError(t, host.Files.MkdirAll(m.PodDir(pod), 0o750))
	vm, err := m.SetUpPod(context.Background(), pod)
	require.NoError(t, err)
	podDir := "/var/lib/kubelet/pods/uid-1"
	assert.Equal(t, mounts.VolumeMap{
		"cfg":     {HostPath: podDir + "/volumes/kubernetes.io~configmap/cfg", ReadOnly: true, SELinuxRelabel: true, MounterType: "*configmap.configMapVolumeMounter"},
		"creds":   {HostPath: podDir + "/volumes/kubernetes.io~secret/creds", ReadOnly: true, SELinuxRelabel: true, MounterType: "*secret.secretVolumeMounter"},
		"info":    {HostPath: podDir + "/volumes/kubernetes.io~downward-api/info", ReadOnly: true, SELinuxRelabel: true, MounterType: "*downwardapi.downwardAPIVolumeMounter"},
		"scratch": {HostPath: podDir + "/volumes/kubernetes.io~empty-dir/scratch", SELinuxRelabel: true, MounterType: "*emptydir.emptyDir"},
		"cache":   {HostPath: podDir + "/volumes/kubernetes.io~empty-dir/cache", SELinuxRelabel: true, MounterType: "*emptydir.emptyDir"},
		"host":    {HostPath: "/srv/data", MounterType: "*hostpath.hostPathMounter"},
	}, vm, "every supported volume, the PVC left to the caller")

	for name, want := range map[string]string{
		"creds":   "tmpfs size=8589934592,noswap",
		"info":    "tmpfs size=8589934592,noswap",
		"cache":   "tmpfs size=16777216,noswap",
		"cfg":     "",
		"scratch": "",
	} {
		got, _ := host.Mounted(vm[name].HostPath)
		assert.Equal(t, want, got, "%s: secret-bearing volumes and Memory emptyDirs are tmpfs, sized to allocatable or sizeLimit", name)
	}
	fi, err := host.Files.Stat("/srv/data")
	require.NoError(t, err)
	assert.True(t, fi.IsDir(), "DirectoryOrCreate made the host directory")

	fsys, err := host.OpenVolume(vm["cfg"].HostPath)
	require.NoError(t, err)
	got := tree(t, fsys)
	assert.Contains(t, got, "extra dgrwxr-xr-x", "the nested mount point of scratch is made inside cfg")
	assert.Contains(t, got, "..TS/a.conf -rw-r--r-- A")
	root, err := fsys.Lstat(".")
	require.NoError(t, err)
	assert.Equal(t, "dgrwxrwxrwx", root.Mode().String(), "the wrapped emptyDir root 0777 with fsGroup's setgid")

	for _, name := range []string{"scratch", "cfg"} {
		_, err := host.Files.Stat(podDir + "/plugins/kubernetes.io~empty-dir/" + map[string]string{"scratch": "scratch", "cfg": "wrapped_cfg"}[name] + "/ready")
		assert.NoError(t, err, "ready marker of %s", name)
	}

	// A second set-up is a refresh: nothing changes.
	vm2, err := m.SetUpPod(context.Background(), pod)
	require.NoError(t, err)
	assert.Equal(t, vm, vm2)

	require.NoError(t, m.TearDownPod(pod))
	entries, err := host.Files.ReadDir(podDir + "/volumes")
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		sub, _ := host.Files.ReadDir(podDir + "/volumes/" + e.Name())
		for _, s := range sub {
			left = append(left, e.Name()+"/"+s.Name())
		}
	}
	sort.Strings(left)
	assert.Empty(t, left, "teardown removes every volume directory")
	for _, name := range []string{"creds", "info", "cache"} {
		_, mounted := host.Mounted(vm[name].HostPath)
		assert.False(t, mounted, "%s is unmounted", name)
	}
	_, err = host.Files.Stat("/srv/data")
	assert.NoError(t, err, "a hostPath is never removed")
}

func TestManagerLeavesNothingOnError(t *testing.T) {
	for _, tc := range []struct {
		name string
		vol  v1.Volume
		err  string
	}{
		{"a missing ConfigMap makes no directory", v1.Volume{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}, DefaultMode: i32(0o644)}}},
			`MountVolume.SetUp failed for volume "cfg" of pod shop/web: configmap "gone" not found`},
		{"a key naming ..data makes no directory", v1.Volume{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644),
			Items: []v1.KeyToPath{{Key: "a.conf", Path: "./..data"}}}}},
			`MountVolume.SetUp failed for volume "cfg" of pod shop/web: invalid path: must not start with '..': ..data`},
		{"a nested mount point at ..data tears the new volume down", v1.Volume{Name: "nested", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "creds", DefaultMode: i32(0o644)}}},
			`MountVolume.SetUp failed for volume "nested" of pod shop/web: readlink ..data: invalid argument`},
		{"a volume name with a slash is refused", v1.Volume{Name: "../x", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			`MountVolume.SetUp failed for volume "../x" of pod shop/web: invalid volume name "../x": must not contain '/'`},
		{"an unknown medium is refused", v1.Volume{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: "Tape"}}},
			`MountVolume.SetUp failed for volume "e" of pod shop/web: unknown storage medium "Tape"`},
		{"hugepages without a request are refused", v1.Volume{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumHugePages}}},
			`MountVolume.SetUp failed for volume "e" of pod shop/web: medium HugePages: hugePages storage requested, but there is no resource request for huge pages`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := NewMemoryHost()
			m := &Manager{Sources: testSources(), Host: host}
			pod := testPod()
			pod.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "nested", MountPath: "/s"}, {Name: "other", MountPath: "/s/..data"}}
			require.NoError(t, host.Files.MkdirAll(m.PodDir(pod), 0o750))
			_, err := m.SetUp(context.Background(), pod, &tc.vol)
			require.Error(t, err)
			assert.Equal(t, tc.err, err.Error())
			for _, d := range []string{"/volumes", "/plugins"} {
				entries, _ := host.Files.ReadDir(m.PodDir(pod) + d)
				for _, e := range entries {
					sub, _ := host.Files.ReadDir(m.PodDir(pod) + d + "/" + e.Name())
					assert.Empty(t, sub, "nothing left in %s/%s", d, e.Name())
				}
			}
			assert.Empty(t, host.mounts, "no mount left")
		})
	}
}

func TestHostPathTypes(t *testing.T) {
	host := NewMemoryHost()
	require.NoError(t, host.Files.MkdirAll("/d", 0o755))
	require.NoError(t, host.Files.WriteFile("/f", nil, 0o644))
	m := &Manager{Host: host}
	for _, tc := range []struct {
		name, path string
		typ        v1.HostPathType
		err        string
	}{
		{"a path with .. is refused", "/a/../etc", "", "invalid HostPath `/a/../etc`: must not contain '..'"},
		{"unset type checks nothing", "/missing", "", ""},
		{"Directory must exist", "/missing", v1.HostPathDirectory, `hostPath type check failed, /missing is not a directory, unable to determine its type: path "/missing" does not exist`},
		{"Directory must be a directory", "/f", v1.HostPathDirectory, "hostPath type check failed: /f is not a directory, it's a File"},
		{"File must be a file", "/d", v1.HostPathFile, "hostPath type check failed: /d is not a file, it's a Directory"},
		{"FileOrCreate does not make the parent", "/nodir/f", v1.HostPathFileOrCreate, "open /nodir/f: no such file or directory"},
		{"FileOrCreate makes a missing file", "/new", v1.HostPathFileOrCreate, ""},
		{"FileOrCreate over a directory fails", "/d", v1.HostPathFileOrCreate, "hostPath type check failed: /d is not a file, it's a Directory"},
		{"Socket must be a socket", "/f", v1.HostPathSocket, "hostPath type check failed: /f is not a socket file, it's a File"},
		{"an unknown type is refused", "/f", "Pipe", "Pipe is an invalid volume type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.SetUp(context.Background(), testPod(), &v1.Volume{Name: "h", VolumeSource: v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: tc.path, Type: &tc.typ}}})
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			var ve *VolumeError
			require.ErrorAs(t, err, &ve)
			assert.EqualError(t, ve.Err, tc.err)
		})
	}
}

func TestPodMemoryLimit(t *testing.T) {
	mem := func(s string) v1.ResourceRequirements {
		q := resource.MustParse(s)
		return v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceMemory: q}, Requests: v1.ResourceList{v1.ResourceMemory: q}}
	}
	for _, tc := range []struct {
		name  string
		pod   v1.PodSpec
		limit int64
		ok    bool
	}{
		{"BestEffort has none", v1.PodSpec{Containers: []v1.Container{{Name: "a"}}}, 0, false},
		{"Burstable with every container limited", v1.PodSpec{Containers: []v1.Container{{Name: "a", Resources: v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Gi")}, Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}}}}}, 1 << 30, true},
		{"Burstable with one container unlimited has none", v1.PodSpec{Containers: []v1.Container{{Name: "a", Resources: mem("1Gi")}, {Name: "b", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}}}}}, 0, false},
		{"overhead is added", v1.PodSpec{Overhead: v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Mi")}, Containers: []v1.Container{{Name: "a", Resources: mem("1Gi")}}}, 1<<30 + 1<<20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			limit, ok := podMemoryLimit(&v1.Pod{Spec: tc.pod}, true)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.limit, limit)
		})
	}
}
