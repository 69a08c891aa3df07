package node

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

func TestFormatMapIsKubeletsDownwardAPIFormat(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   map[string]string
		want string
	}{
		{"no labels is an empty file", nil, ""},
		{"keys sorted, values Go-quoted, no trailing newline", map[string]string{"tier": "front", "app": `we"b`}, "app=\"we\\\"b\"\ntier=\"front\""},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, formatMap(tc.in)) })
	}
}

func TestValidateProjectedPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"key", true},
		{"dir/key", true},
		{"a..b", true},
		{"", false},
		{"/etc/passwd", false},
		{"../escape", false},
		{"dir/../../escape", false},
		{"..data", false},
		{"..2026_01_01", false},
		{"nul\x00byte", false},
	} {
		t.Run(tc.path, func(t *testing.T) {
			err := validateProjectedPath(tc.path)
			if tc.ok {
				assert.NoError(t, err)
			} else {
				assert.Error(t, err)
			}
		})
	}
}

func TestAtomicVolumeHasKubeletsLayout(t *testing.T) {
	r := &podRun{podDir: t.TempDir(), pod: &v1.Pod{}}
	vol, err := r.atomicVolume("configmap", "cfg", map[string]fileProjection{
		"key":      {data: []byte("value"), mode: 0o644},
		"dir/file": {data: []byte("nested"), mode: 0o400},
		"./dot":    {data: []byte("cleaned"), mode: 0o644},
		"dir//two": {data: []byte("cleaned too"), mode: 0o644},
	}, false)
	require.NoError(t, err, "paths are cleaned as the atomic writer cleans them")
	assert.True(t, vol.ReadOnly, "configMap, secret, downwardAPI and projected volumes are mounted read-only")
	dir := filepath.Join(r.podDir, "volumes", "kubernetes.io~configmap", "cfg")
	assert.Equal(t, dir, vol.HostPath)

	data, err := os.Readlink(filepath.Join(dir, "..data"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(data, "..2"), "..data points at the timestamped directory, got %q", data)
	for name, want := range map[string]string{"key": "..data/key", "dir": "..data/dir", "dot": "..data/dot"} {
		got, err := os.Readlink(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	content, err := os.ReadFile(filepath.Join(dir, "dir", "file"))
	require.NoError(t, err)
	assert.Equal(t, "nested", string(content))
	fi, err := os.Stat(filepath.Join(dir, data, "dir", "file"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o400), fi.Mode().Perm())
	fi, err = os.Stat(filepath.Join(dir, data))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm())

	_, err = r.atomicVolume("configmap", "bad", map[string]fileProjection{"../x": {}}, false)
	assert.ErrorContains(t, err, "must not contain '..'")
}

func TestKeyFilesIsKubeletsMakePayload(t *testing.T) {
	data := map[string][]byte{"a": []byte("1"), "b": []byte("2")}
	mode := int32(0o600)
	for _, tc := range []struct {
		name     string
		items    []v1.KeyToPath
		optional bool
		want     map[string]fileProjection
		err      string
	}{
		{"no items: every key under its name with the default mode", nil, false,
			map[string]fileProjection{"a": {[]byte("1"), 0o644}, "b": {[]byte("2"), 0o644}}, ""},
		{"items choose keys, paths and modes", []v1.KeyToPath{{Key: "a", Path: "x/a", Mode: &mode}}, false,
			map[string]fileProjection{"x/a": {[]byte("1"), 0o600}}, ""},
		{"a missing key is an error", []v1.KeyToPath{{Key: "c", Path: "c"}}, false, nil, "missing key: c"},
		{"a missing key of an optional source is skipped", []v1.KeyToPath{{Key: "c", Path: "c"}}, true,
			map[string]fileProjection{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := keyFiles(data, tc.items, tc.optional, 0o644, "missing key")
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCheckHostPathTypes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	typ := func(t v1.HostPathType) *v1.HostPathType { return &t }
	for _, tc := range []struct {
		name string
		src  v1.HostPathVolumeSource
		err  string
	}{
		{"no type: no check", v1.HostPathVolumeSource{Path: filepath.Join(dir, "missing")}, ""},
		{"a relative path is refused", v1.HostPathVolumeSource{Path: "rel"}, `hostPath "rel" is not absolute`},
		{"a path with backsteps is refused, as kubelet's hostPath SetUp refuses it", v1.HostPathVolumeSource{Path: "/tmp/../etc"}, "invalid HostPath `/tmp/../etc`: must not contain '..'"},
		{"a path ending in a backstep is refused", v1.HostPathVolumeSource{Path: dir + "/..", Type: typ(v1.HostPathDirectory)}, "invalid HostPath `" + dir + "/..`: must not contain '..'"},
		{"Directory on a directory", v1.HostPathVolumeSource{Path: dir, Type: typ(v1.HostPathDirectory)}, ""},
		{"Directory on a file", v1.HostPathVolumeSource{Path: file, Type: typ(v1.HostPathDirectory)}, "hostPath type check failed: " + file + " is not a directory"},
		{"File on a directory", v1.HostPathVolumeSource{Path: dir, Type: typ(v1.HostPathFile)}, "hostPath type check failed: " + dir + " is not a file"},
		{"Socket on a file", v1.HostPathVolumeSource{Path: file, Type: typ(v1.HostPathSocket)}, "hostPath type check failed: " + file + " is not a socket file"},
		{"File that is missing", v1.HostPathVolumeSource{Path: filepath.Join(dir, "nope"), Type: typ(v1.HostPathFile)}, "hostPath type check failed: " + filepath.Join(dir, "nope") + " does not exist"},
		{"DirectoryOrCreate makes it", v1.HostPathVolumeSource{Path: filepath.Join(dir, "new", "sub"), Type: typ(v1.HostPathDirectoryOrCreate)}, ""},
		{"FileOrCreate makes it", v1.HostPathVolumeSource{Path: filepath.Join(dir, "newfile"), Type: typ(v1.HostPathFileOrCreate)}, ""},
		{"FileOrCreate on a directory", v1.HostPathVolumeSource{Path: dir, Type: typ(v1.HostPathFileOrCreate)}, "hostPath type check failed: " + dir + " is not a file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := checkHostPath(&tc.src)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			assert.NoError(t, err)
		})
	}
	assert.DirExists(t, filepath.Join(dir, "new", "sub"))
	assert.FileExists(t, filepath.Join(dir, "newfile"))
}

func TestTerminationMessageIsReadAsKubeletReadsIt(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	msg := write("msg", "done")
	empty := write("empty", "")
	big := write("big", strings.Repeat("a", 5000)+"END")
	mounts := func(hostPath string) []*runtimeapi.Mount {
		return []*runtimeapi.Mount{{ContainerPath: "/dev/termination-log", HostPath: hostPath}}
	}
	file := &v1.Container{TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: v1.TerminationMessageReadFile}
	fallback := &v1.Container{TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: v1.TerminationMessageFallbackToLogsOnError}
	var longLog strings.Builder
	for i := 0; i < 100; i++ {
		longLog.WriteString("line\n")
	}
	for _, tc := range []struct {
		name string
		st   *runtimeapi.ContainerStatus
		c    *v1.Container
		log  string
		want string
	}{
		{"the file's content", &runtimeapi.ContainerStatus{Mounts: mounts(msg)}, file, "log", "done"},
		{"the runtime's message comes first", &runtimeapi.ContainerStatus{Mounts: mounts(msg), Message: "oom"}, file, "", "oom: done"},
		{"at most the file's last 4 KiB", &runtimeapi.ContainerStatus{Mounts: mounts(big)}, file, "", strings.Repeat("a", 4093) + "END"},
		{"no mount at the path: nothing", &runtimeapi.ContainerStatus{}, file, "log", ""},
		{"a missing file: nothing", &runtimeapi.ContainerStatus{Mounts: mounts(filepath.Join(dir, "missing"))}, file, "", ""},
		{"FallbackToLogsOnError, failed, empty file: the log", &runtimeapi.ContainerStatus{Mounts: mounts(empty), ExitCode: 1}, fallback, "broke\n", "broke\n"},
		{"FallbackToLogsOnError, succeeded: not the log", &runtimeapi.ContainerStatus{Mounts: mounts(empty)}, fallback, "fine\n", ""},
		{"FallbackToLogsOnError, failed, a message: the message", &runtimeapi.ContainerStatus{Mounts: mounts(msg), ExitCode: 1}, fallback, "log\n", "done"},
		{"FallbackToLogsOnError, could not run: not the log", &runtimeapi.ContainerStatus{Mounts: mounts(empty), ExitCode: 128, Reason: "ContainerCannotRun"}, fallback, "x\n", ""},
		{"the log's last 80 lines", &runtimeapi.ContainerStatus{Mounts: mounts(empty), ExitCode: 1}, fallback, longLog.String(), strings.Repeat("line\n", 80)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The runtime's CRI log file of the container's output tc.log.
			var cri strings.Builder
			for _, l := range strings.SplitAfter(tc.log, "\n") {
				if l != "" {
					cri.WriteString("2026-01-01T00:00:00Z stdout F " + l)
				}
			}
			logPath := filepath.Join(t.TempDir(), "0.log")
			require.NoError(t, os.WriteFile(logPath, []byte(cri.String()), 0o640))
			assert.Equal(t, tc.want, terminationMessage(tc.st, tc.c, logPath))
		})
	}
}

func TestFollowerParsesTheCRILogFormat(t *testing.T) {
	var out strings.Builder
	f := &follower{prefix: "ns/pod/c", out: &out, outMu: new(sync.Mutex)}
	f.consume([]byte("2026-01-01T00:00:00.000000000Z stdout F hello world\n2026-01-01T00:00:00Z stderr P par"))
	f.consume([]byte("t\n2026-01-01T00:00:00Z stderr F ial\n2026-01-01T00:00:00Z stdout F \nshort\n"))
	assert.Equal(t, "hello world\npartial\n\n", f.tailString())
	assert.Equal(t, "[ns/pod/c] hello world\n[ns/pod/c] partial\n[ns/pod/c] \n", out.String())
}

func TestApplyDefaults(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "img"}}}}
	again := pod.DeepCopy()
	applyDefaults(pod, "node-1")
	applyDefaults(again, "node-1")
	assert.Equal(t, "default", pod.Namespace)
	assert.Equal(t, "node-1", pod.Spec.NodeName)
	assert.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, string(pod.UID))
	assert.Equal(t, pod.UID, again.UID, "the same pod on the same node has the same UID")
	other := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"}}
	applyDefaults(other, "node-2")
	assert.NotEqual(t, pod.UID, other.UID, "another node gives another UID")
	assert.Equal(t, v1.PullAlways, pod.Spec.Containers[0].ImagePullPolicy, "the API server's defaults apply")
	assert.Equal(t, "/dev/termination-log", pod.Spec.Containers[0].TerminationMessagePath)
}

func TestEmptyDirMemorySizeIsKubeletsCalculateEmptyDirMemorySize(t *testing.T) {
	const gi = 1 << 30
	q := func(s string) *resource.Quantity { v := resource.MustParse(s); return &v }
	limited := func(limits ...string) *v1.Pod {
		p := &v1.Pod{}
		for i, l := range limits {
			c := v1.Container{Name: fmt.Sprint("c", i)}
			if l != "" {
				c.Resources.Limits = v1.ResourceList{v1.ResourceMemory: resource.MustParse(l)}
			}
			p.Spec.Containers = append(p.Spec.Containers, c)
		}
		return p
	}
	podLevel := limited("")
	podLevel.Spec.Resources = &v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("3Gi")}}
	for _, tc := range []struct {
		name      string
		sizeLimit *resource.Quantity
		pod       *v1.Pod
		want      int64
	}{
		{"no limit anywhere: the node's allocatable memory", nil, limited(""), 8 * gi},
		{"a sizeLimit above the node's memory is capped at it", q("1Ei"), limited(""), 8 * gi},
		{"a sizeLimit below it is the size", q("64Mi"), limited(""), 64 << 20},
		{"a zero sizeLimit counts as none", q("0"), limited(""), 8 * gi},
		{"every container's memory limit: the pod's limit", nil, limited("1Gi", "1Gi"), 2 * gi},
		{"one container without a limit: no pod limit", nil, limited("1Gi", ""), 8 * gi},
		{"a pod limit above the node's memory is ignored", nil, limited("16Gi"), 8 * gi},
		{"a sizeLimit below the pod limit wins", q("1Mi"), limited("1Gi"), 1 << 20},
		{"a sizeLimit above the pod limit is capped at it", q("4Gi"), limited("1Gi"), gi},
		{"a pod-level memory limit counts", nil, podLevel, 3 * gi},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, emptyDirMemorySize(8*gi, tc.sizeLimit, tc.pod))
		})
	}
}
