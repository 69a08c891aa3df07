package configgen_test

import (
	"context"
	"io/fs"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
	"github.com/podconfig/podconfig/internal/benchpod"
	"github.com/podconfig/podconfig/security"
)

// callLog records the host calls made through it, as "Method path".
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(method, path string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, method+" "+path)
}

func (l *callLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.calls
	l.calls = nil
	return out
}

// recording wraps fsys so that every call is logged in l.
func recording(fsys hostfstest.FS, l *callLog) *hostfstest.Interceptor {
	return hostfstest.Wrap(fsys, hostfstest.Funcs{
		MkdirAll: func(f hostfstest.FS, p string, perm fs.FileMode) error {
			l.add("MkdirAll", p)
			return f.MkdirAll(p, perm)
		},
		WriteFile: func(f hostfstest.FS, p string, data []byte, perm fs.FileMode) error {
			l.add("WriteFile", p)
			return f.WriteFile(p, data, perm)
		},
		Create:   func(f hostfstest.FS, p string) error { l.add("Create", p); return f.Create(p) },
		Chmod:    func(f hostfstest.FS, p string, perm fs.FileMode) error { l.add("Chmod", p); return f.Chmod(p, perm) },
		ReadFile: func(f hostfstest.FS, p string) ([]byte, error) { l.add("ReadFile", p); return f.ReadFile(p) },
		Open:     func(f hostfstest.FS, p string) (fs.File, error) { l.add("Open", p); return f.Open(p) },
		OpenBeneath: func(f hostfstest.FS, root, p string) (fs.File, error) {
			l.add("OpenBeneath", root+" "+p)
			return f.OpenBeneath(root, p)
		},
		Stat:     func(f hostfstest.FS, p string) (fs.FileInfo, error) { l.add("Stat", p); return f.Stat(p) },
		Lstat:    func(f hostfstest.FS, p string) (fs.FileInfo, error) { l.add("Lstat", p); return f.Lstat(p) },
		Readlink: func(f hostfstest.FS, p string) (string, error) { l.add("Readlink", p); return f.Readlink(p) },
		ReadDir:  func(f hostfstest.FS, p string) ([]fs.DirEntry, error) { l.add("ReadDir", p); return f.ReadDir(p) },
		Symlink:  func(f hostfstest.FS, o, n string) error { l.add("Symlink", n); return f.Symlink(o, n) },
		Remove:   func(f hostfstest.FS, p string) error { l.add("Remove", p); return f.Remove(p) },
	})
}

// osSyscalls is what each host call of a container config costs on hostfs.OS, in system calls,
// for the outcome a node's every call after a pod's first has: the directories and files exist
// and the hosts file is unchanged.
var osSyscalls = map[string]int{
	"Stat":      1, // newfstatat
	"Lstat":     1, // newfstatat
	"MkdirAll":  1, // newfstatat of the existing directory
	"WriteFile": 4, // openat, fstat, pread64, close: the content is unchanged
	"Chmod":     1, // fchmodat
	"Create":    2, // openat, close
	// openat (root), openat2 (O_PATH), fstat, openat (reopen), fstat, 2 close; the caller's read
	// and close (its Stat costs nothing)
	"OpenBeneath": 9,
}

// kubeletSyscalls is what kubelet v1.37's generateContainerConfig makes of host file system
// calls for benchpod's container, counted with strace over 2,000 calls of the conformance
// module's side-by-side benchmark (per call: 3 openat, 4 newfstatat, 2 fchmodat, 1 write, 1 read,
// 3 close, and 12 fcntl and 3 epoll_ctl that os.File adds).
const kubeletSyscalls = 29

// A container config, once its pod's directories are made, asks the host only what it must:
// each directory and file once, through the calls this list fixes, costing on the OS backend no
// more system calls than kubelet makes for the same pod.
func TestContainerConfigHostCalls(t *testing.T) {
	dir := t.TempDir()
	root, logDir := filepath.Join(dir, "root"), filepath.Join(dir, "logs")
	log := &callLog{}
	files := recording(hostfs.OS{}, log)

	facts := benchpod.NodeFacts()
	node := configgentest.NewNode(benchpod.Objects()...)
	node.Options.Files = files
	node.Options.RootDir, node.Options.PodLogsDir = root, logDir
	node.Options.NodeIPs = nil
	for _, ip := range facts.IPs {
		node.Options.NodeIPs = append(node.Options.NodeIPs, net.ParseIP(ip))
	}
	node.Options.ClusterDomain, node.Options.ClusterDNS = facts.ClusterDomain, facts.ClusterDNS
	node.Options.ResolvConf = []byte(facts.ResolvConf)
	node.Options.TerminationMessageRand = func() uint32 { return 42 }
	node.ImageUsers[benchpod.ImageRef] = security.ImageUser{UID: ptr.To(benchpod.ImageUID)}
	volumes := benchpod.Volumes(root)
	for _, v := range volumes {
		require.NoError(t, hostfs.OS{}.MkdirAll(v.HostPath, 0o755))
		node.HostUtils.AddPath(v.HostPath, fs.ModeDir|0o755)
	}
	for path, content := range benchpod.Files(root) {
		require.NoError(t, hostfs.OS{}.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, hostfs.OS{}.WriteFile(path, []byte(content), 0o644))
		node.HostUtils.AddPath(filepath.Dir(path), fs.ModeDir|0o755)
		node.HostUtils.AddPath(path, 0o644)
	}
	gen, err := node.Generator()
	require.NoError(t, err)

	pod := benchpod.Pod()
	container := benchpod.Container(pod)
	req := configgen.ContainerRequest{Pod: pod, Container: container, PodIPs: facts.PodIPs,
		ImageRef: benchpod.ImageRef, Volumes: volumes}
	render := func() []string {
		_, err := gen.GenerateContainerConfig(context.Background(), req)
		require.NoError(t, err)
		return log.take()
	}
	render() // the pod's first call makes its directories and files

	podDir := root + "/pods/" + string(pod.UID)
	var envFile string
	for path := range benchpod.Files(root) {
		if strings.HasSuffix(path, "/"+benchpod.EnvFile.Path) { // the one file the env reads
			envFile = path
		}
	}
	envVolume := filepath.Dir(filepath.Dir(envFile))
	for i := range 2 {
		calls := render()
		assert.Equal(t, []string{
			"Stat " + podDir + "/etc-hosts",
			"OpenBeneath " + envVolume + " " + strings.TrimPrefix(envFile, envVolume+"/"),
			"Lstat " + podDir + "/volumes",
			"Lstat " + podDir + "/plugins",
			"Lstat " + logDir + "/" + pod.Namespace + "_" + pod.Name + "_" + string(pod.UID) + "/" + container.Name,
			"Lstat " + podDir + "/etc-hosts",
			"WriteFile " + podDir + "/etc-hosts",
			"MkdirAll " + podDir + "/containers/" + container.Name,
			"Create " + podDir + "/containers/" + container.Name + "/0000002a",
			"Chmod " + podDir + "/containers/" + container.Name + "/0000002a",
		}, calls, "call %d after the pod's first", i+2)
		syscalls := 0
		for _, c := range calls {
			method, _, _ := strings.Cut(c, " ")
			cost, ok := osSyscalls[method]
			require.True(t, ok, "no system-call cost known for %s", method)
			syscalls += cost
		}
		assert.LessOrEqual(t, syscalls, kubeletSyscalls, "system calls on hostfs.OS")
	}
}
