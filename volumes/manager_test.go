package volumes

import (
	"context"
	"path/filepath"
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

// podDirEntries lists what is below dir in the host's files (a volume directory's contents live
// in its own MemoryFS), one "path mode" line per entry, sorted.
func podDirEntries(t *testing.T, host *MemoryHost, dir string) []string {
	t.Helper()
	var out []string
	var walk func(rel string)
	walk = func(rel string) {
		entries, err := host.Files.ReadDir(filepath.Join(dir, rel))
		require.NoError(t, err)
		for _, e := range entries {
			name := filepath.Join(rel, e.Name())
			fi, err := host.Files.Lstat(filepath.Join(dir, name))
			require.NoError(t, err)
			out = append(out, name+" "+fi.Mode().String())
			if fi.IsDir() {
				walk(name)
			}
		}
	}
	walk("")
	sort.Strings(out)
	return out
}

// TestManagerLeavesNothingOnError: a set-up that fails leaves the pod directory as it was. What
// the spec alone refuses (a missing object or key, a payload path, a medium, a nested mount
// point) is refused before anything is made, where kubelet leaves the volume directory, its
// ready marker or the empty plugin directories (docs/compatibility.md); a write that fails
// after the volume was made tears it down, as kubelet does.
func TestManagerLeavesNothingOnError(t *testing.T) {
	// nestedOut mounts the volume "v" in a second container at a path that leaves the container.
	nestedOut := func(p *v1.Pod) {
		p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: "side", VolumeMounts: []v1.VolumeMount{{Name: "v", MountPath: "../etc"}}})
	}
	for _, tc := range []struct {
		name string
		pod  func(*v1.Pod)
		vol  v1.Volume
		err  string
		left []string
	}{
		{name: "a missing ConfigMap makes no directory", vol: v1.Volume{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "gone"}, DefaultMode: i32(0o644)}}},
			err: `MountVolume.SetUp failed for volume "cfg" of pod shop/web: configmap "gone" not found`},
		{name: "a key naming ..data makes no directory", vol: v1.Volume{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644),
			Items: []v1.KeyToPath{{Key: "a.conf", Path: "./..data"}}}}},
			err: `MountVolume.SetUp failed for volume "cfg" of pod shop/web: invalid path: must not start with '..': ..data`},
		{name: "an absolute item path makes no directory and no plugin directory", vol: v1.Volume{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644),
			Items: []v1.KeyToPath{{Key: "a.conf", Path: "/etc/a"}}}}},
			err: `MountVolume.SetUp failed for volume "cfg" of pod shop/web: invalid path: must be relative path: /etc/a`},
		{name: "a configMap mounted outside a container makes no directory and no ready marker", pod: nestedOut,
			vol: v1.Volume{Name: "v", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}, DefaultMode: i32(0o644)}}},
			err: `MountVolume.SetUp failed for volume "v" of pod shop/web: invalid container mount point ../etc`},
		{name: "a secret mounted outside a container mounts no tmpfs", pod: nestedOut,
			vol: v1.Volume{Name: "v", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "creds", DefaultMode: i32(0o644)}}},
			err: `MountVolume.SetUp failed for volume "v" of pod shop/web: invalid container mount point ../etc`},
		{name: "a nested mount point at ..data tears the new volume down, leaving the plugin directories", pod: func(p *v1.Pod) {
			p.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "nested", MountPath: "/s"}, {Name: "other", MountPath: "/s/..data"}}
		}, vol: v1.Volume{Name: "nested", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "creds", DefaultMode: i32(0o644)}}},
			err:  `MountVolume.SetUp failed for volume "nested" of pod shop/web: readlink ..data: invalid argument`,
			left: []string{"plugins drwxr-x---", "plugins/kubernetes.io~empty-dir drwxr-x---", "volumes drwxr-x---", "volumes/kubernetes.io~secret drwxr-xr-x"}},
		{name: "a volume name with a slash is refused", vol: v1.Volume{Name: "../x", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			err: `MountVolume.SetUp failed for volume "../x" of pod shop/web: invalid volume name "../x": must not contain '/'`},
		{name: "an unknown medium is refused", vol: v1.Volume{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: "Tape"}}},
			err: `MountVolume.SetUp failed for volume "e" of pod shop/web: unknown storage medium "Tape"`},
		{name: "hugepages without a request make no directory", vol: v1.Volume{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumHugePages}}},
			err: `MountVolume.SetUp failed for volume "e" of pod shop/web: medium HugePages: hugePages storage requested, but there is no resource request for huge pages`},
		{name: "a hugepage medium whose size is no quantity fails with the parser's error and makes no directory",
			vol: v1.Volume{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: "HugePages-2Xi"}}},
			err: `MountVolume.SetUp failed for volume "e" of pod shop/web: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			host := NewMemoryHost()
			m := &Manager{Sources: testSources(), Host: host}
			pod := testPod()
			if tc.pod != nil {
				tc.pod(pod)
			}
			// The pod's data directories, as configgen's MakePodDataDirs makes them.
			for _, d := range []string{"volumes", "plugins"} {
				require.NoError(t, host.Files.MkdirAll(filepath.Join(m.PodDir(pod), d), 0o750))
			}
			_, err := m.SetUp(context.Background(), pod, &tc.vol)
			require.Error(t, err)
			assert.Equal(t, tc.err, err.Error())
			left := tc.left
			if left == nil {
				left = []string{"plugins drwxr-x---", "volumes drwxr-x---"}
			}
			assert.Equal(t, left, podDirEntries(t, host, m.PodDir(pod)))
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

func TestHugePageSizeOption(t *testing.T) {
	const notQuantity = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
	requests := func(names ...string) *v1.Pod {
		pod := &v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{Name: "a", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{}}}}}}
		for _, n := range names {
			pod.Spec.Containers[0].Resources.Requests[v1.ResourceName(n)] = resource.MustParse("4Mi")
		}
		return pod
	}
	for _, tc := range []struct {
		name   string
		medium v1.StorageMedium
		pod    *v1.Pod
		want   string
		err    string
	}{
		{"a sized medium takes its requested size", "HugePages-2Mi", requests("hugepages-2Mi", "hugepages-1Gi"), "pagesize=2Mi", ""},
		{"HugePages takes the one size requested", v1.StorageMediumHugePages, requests("hugepages-1Gi"), "pagesize=1Gi", ""},
		{"a medium size that is no quantity fails with the parser's error", "HugePages-2Xi", requests("hugepages-2Mi"), "", notQuantity},
		{"a medium with an empty size fails with the parser's error", "HugePages-", requests("hugepages-2Mi"), "", notQuantity},
		{"a sized medium without that size requested fails", "HugePages-1Gi", requests("hugepages-2Mi"),
			"", "medium HugePages-1Gi: hugePages storage requested, but there is no resource request for huge pages"},
		{"HugePages with two sizes requested fails", v1.StorageMediumHugePages, requests("hugepages-2Mi", "hugepages-1Gi"),
			"", "medium: HugePages can't be used if container requests multiple huge page sizes"},
		{"a requested hugepage size that is no quantity fails with the parser's error", v1.StorageMediumHugePages, requests("hugepages-x"), "", notQuantity},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := hugePageSizeOption(tc.medium, tc.pod, true)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
