//go:build linux

package configgen_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

// TestEveryFailedHostCallLeavesNothingBehind starts a three-container pod as a kubelet would
// (its sandbox, its log directory, each container, then the first container again after the
// pod's IP changed, which rewrites its etc-hosts), with the real backends as root. It counts
// every call the Generator makes to the host (HostFiles, HostUtils and Subpather), then replays
// the pod once per call, failing that call, once before the call takes effect and once after.
// A render that fails must leave every file (its content, mode and inode: etc-hosts included),
// directory and mount under the node's directories as it was before that render, and the same
// render retried without the failure must succeed. The one exception is etc-hosts' own write
// failing after it wrote everything: the file then holds the new content in full (hostfs.OS
// itself puts the old content back when its write fails). A render that succeeds despite the failure
// (a lookup that only spares work, or the termination-message file, which kubelet only warns
// about) must return what it returns without the failure, or report a warning.
func TestEveryFailedHostCallLeavesNothingBehind(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: subPath bind mounts need root (run the tests as root, as CI does)")
	}
	counted := runHostCallScenario(t, -1, false, nil)
	require.Greater(t, counted.calls, 60, "the scenario makes too few host calls to be realistic")
	t.Logf("%d host calls (%s), each failed before and after its effect", counted.calls, counted.summary())
	for _, after := range []bool{false, true} {
		for i := 0; i < counted.calls; i++ {
			name := fmt.Sprintf("call %d (%s) fails before its effect", i, counted.names[i])
			if after {
				name = fmt.Sprintf("call %d (%s) fails after its effect", i, counted.names[i])
			}
			t.Run(name, func(t *testing.T) {
				// The runs wait on the kernel's mount and unmount more than they compute.
				t.Parallel()
				got := runHostCallScenario(t, i, after, counted.results)
				require.True(t, got.hit, "the failure was never injected: the calls differ from the counted run")
			})
		}
	}
}

// hostCallRun is what one run of the scenario saw.
type hostCallRun struct {
	calls   int
	names   []string
	hit     bool
	results []string // what each render returned, with the node's directory as "<base>"
}

// summary counts the calls by kind.
func (r hostCallRun) summary() string {
	counts := map[string]int{}
	var kinds []string
	for _, n := range r.names {
		k, _, _ := strings.Cut(n, " ")
		if counts[k] == 0 {
			kinds = append(kinds, k)
		}
		counts[k]++
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, counts[k])
	}
	return strings.Join(parts, ", ")
}

// runHostCallScenario renders the pod on a fresh node with call number fail (-1: none) failing
// before or after its effect, and checks what each render left and returned against want, the
// results without a failure.
func runHostCallScenario(t *testing.T, fail int, after bool, want []string) hostCallRun {
	base := t.TempDir()
	t.Cleanup(func() { unmountUnder(t, base) })
	root, logs := filepath.Join(base, "kubelet"), filepath.Join(base, "log", "pods")
	vol := filepath.Join(base, "volumes", "data")
	for _, d := range []string{"web", "shared", "config"} {
		require.NoError(t, os.MkdirAll(filepath.Join(vol, d), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(vol, "config", "env"), []byte("MODE='production'\n"), 0o644))

	inj := &injector{target: fail, after: after}
	node := configgentest.NewNode()
	node.Options.RootDir, node.Options.PodLogsDir = root, logs
	node.Options.Files = hostfstest.Wrap(hostfs.OS{}, inj.funcs())
	node.Options.HostUtils = injectedHostUtils{mounts.OSHostUtils{}, inj}
	node.Options.Subpather = injectedSubpather{subpath.New(), inj}
	var warnings []configgen.Warning
	node.Options.OnWarning = func(_ *v1.Pod, _ *v1.Container, w configgen.Warning) { warnings = append(warnings, w) }
	var rnd uint32
	node.Options.TerminationMessageRand = func() uint32 { rnd++; return rnd }
	gen, err := node.Generator()
	require.NoError(t, err)

	pod := hostCallPod()
	volumes := mounts.VolumeMap{"data": {HostPath: vol}}
	ctx := context.Background()
	result := func(v fmt.Stringer) string { return strings.ReplaceAll(v.String(), base, "<base>") }
	container := func(name string, restarts int, ips ...string) func() (string, error) {
		return func() (string, error) {
			for i := range pod.Spec.Containers {
				if c := &pod.Spec.Containers[i]; c.Name == name {
					cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{
						Pod: pod, Container: c, RestartCount: restarts, PodIPs: ips, ImageRef: "sha256:abc", Volumes: volumes,
					})
					if err != nil {
						return "", err
					}
					return result(cfg), nil
				}
			}
			panic("no container " + name)
		}
	}
	renders := []struct {
		name   string
		render func() (string, error)
	}{
		{"the sandbox", func() (string, error) {
			cfg, err := gen.GeneratePodSandboxConfig(ctx, pod, 0)
			if err != nil {
				return "", err
			}
			return result(cfg), nil
		}},
		{"the log directory", func() (string, error) {
			dir, err := gen.MakePodLogsDirectory(pod)
			return strings.ReplaceAll(dir, base, "<base>"), err
		}},
		{"container web", container("web", 0, "10.244.1.17")},
		{"container sidecar", container("sidecar", 0, "10.244.1.17")},
		{"container metrics", container("metrics", 0, "10.244.1.17")},
		{"container web restarted after the pod's IP changed", container("web", 1, "10.244.1.18")},
	}
	hostsFile := filepath.Join(root, "pods", string(pod.UID), "etc-hosts")
	// A missing subPath's directories, made in the volume, stay after a failure, as in kubelet:
	// they are volume content, and a retry needs them again.
	madeInVolume := filepath.Join(vol, "logs")
	var results []string
	for i, r := range renders {
		treeBefore, mountsBefore := hostTree(t, base, madeInVolume), mountsUnder(t, base)
		warningsBefore, hitBefore := len(warnings), inj.hit
		got, err := r.render()
		results = append(results, got)
		if fail < 0 {
			require.NoError(t, err, r.name)
			continue
		}
		if inj.hit && !hitBefore {
			if err == nil {
				if got != want[i] {
					assert.Greater(t, len(warnings), warningsBefore,
						"%s succeeded after %s failed with another result, without a warning", r.name, inj.failed)
				}
			} else {
				treeAfter := hostTree(t, base, madeInVolume)
				rewritten := after && inj.failedName == "WriteFile "+hostsFile && slices.ContainsFunc(treeBefore, func(line string) bool {
					return strings.HasPrefix(line, strings.TrimPrefix(hostsFile, base)+" ")
				})
				if rewritten {
					// A backend that reports a failure after writing everything: etc-hosts keeps
					// its inode and mode and holds the new content in full (checked below).
					treeBefore, treeAfter = withoutContent(treeBefore, hostsFile, base), withoutContent(treeAfter, hostsFile, base)
				}
				assert.Equal(t, treeBefore, treeAfter, "%s failed at %s and left this behind", r.name, inj.failed)
				assert.Equal(t, mountsBefore, mountsUnder(t, base), "%s failed at %s and left mounts behind", r.name, inj.failed)
				failedContent, _ := os.ReadFile(hostsFile)
				_, err := r.render()
				require.NoError(t, err, "%s failed again after %s had failed", r.name, inj.failed)
				if rewritten {
					retriedContent, err := os.ReadFile(hostsFile)
					require.NoError(t, err)
					assert.Equal(t, string(retriedContent), string(failedContent), "etc-hosts was left with part of its new content")
				}
			}
			continue
		}
		require.NoError(t, err, r.name)
	}
	if fail < 0 {
		content, err := os.ReadFile(hostsFile)
		require.NoError(t, err)
		require.Contains(t, string(content), "10.244.1.18\tweb-0", "the last render did not rewrite etc-hosts")
	}
	return hostCallRun{calls: inj.n, names: inj.names, hit: inj.hit, results: results}
}

// hostCallPod is a pod as a kubelet meets them: three containers, subPaths into one volume (one
// that is missing, so it is made), termination messages, an env file, hostAliases.
func hostCallPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "shop", UID: podUID},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			HostAliases:        []v1.HostAlias{{IP: "10.1.2.3", Hostnames: []string{"db.internal"}}},
			Volumes:            []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
			Containers: []v1.Container{
				{
					Name: "web", Image: "registry.example/web:1",
					VolumeMounts: []v1.VolumeMount{
						{Name: "data", MountPath: "/srv", SubPath: "web"},
						{Name: "data", MountPath: "/shared", SubPath: "shared", ReadOnly: true},
					},
					Env: []v1.EnvVar{{Name: "MODE", ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{
						VolumeName: "data", Path: "config/env", Key: "MODE",
					}}}},
					TerminationMessagePath: "/dev/termination-log",
				},
				{
					Name: "sidecar", Image: "registry.example/sidecar:1",
					VolumeMounts: []v1.VolumeMount{
						{Name: "data", MountPath: "/shared", SubPath: "shared"},
						{Name: "data", MountPath: "/var/log/sidecar", SubPath: "logs/sidecar"},
					},
					TerminationMessagePath: "/dev/termination-log",
				},
				{
					Name: "metrics", Image: "registry.example/metrics:1",
					VolumeMounts:           []v1.VolumeMount{{Name: "data", MountPath: "/etc/metrics", SubPath: "config"}},
					TerminationMessagePath: "/tmp/termination",
				},
			},
		},
	}
}

// injector fails one host call, counted across every backend in the order they are made.
type injector struct {
	mu     sync.Mutex
	n      int
	names  []string
	target int  // the call that fails; -1 for none
	after  bool // fail after the call took effect instead of before
	hit    bool
	failed string // "call N (name)"
	// failedName is the name of the call that failed.
	failedName string
}

// call runs do as host call name, or fails it.
func (in *injector) call(name string, do func() error) error {
	in.mu.Lock()
	i := in.n
	in.n++
	in.names = append(in.names, name)
	hit := i == in.target
	if hit {
		in.hit, in.failed, in.failedName = true, fmt.Sprintf("call %d (%s)", i, name), name
	}
	in.mu.Unlock()
	if !hit {
		return do()
	}
	injected := &fs.PathError{Op: "injected", Path: name, Err: syscall.EIO}
	if in.after {
		_ = do()
	}
	return injected
}

// funcs routes every HostFiles method through the injector.
func (in *injector) funcs() hostfstest.Funcs {
	return hostfstest.Funcs{
		MkdirAll: func(fsys hostfstest.FS, p string, perm fs.FileMode) error {
			return in.call("MkdirAll "+p, func() error { return fsys.MkdirAll(p, perm) })
		},
		WriteFile: func(fsys hostfstest.FS, p string, data []byte, perm fs.FileMode) error {
			return in.call("WriteFile "+p, func() error { return fsys.WriteFile(p, data, perm) })
		},
		Create: func(fsys hostfstest.FS, p string) error {
			return in.call("Create "+p, func() error { return fsys.Create(p) })
		},
		Chmod: func(fsys hostfstest.FS, p string, perm fs.FileMode) error {
			return in.call("Chmod "+p, func() error { return fsys.Chmod(p, perm) })
		},
		ReadFile: func(fsys hostfstest.FS, p string) (b []byte, err error) {
			err = in.call("ReadFile "+p, func() error { b, err = fsys.ReadFile(p); return err })
			return b, err
		},
		Open: func(fsys hostfstest.FS, p string) (f fs.File, err error) {
			err = in.call("Open "+p, func() error { f, err = fsys.Open(p); return err })
			return keepOpen(f, err)
		},
		OpenBeneath: func(fsys hostfstest.FS, root, p string) (f fs.File, err error) {
			err = in.call("OpenBeneath "+root+" "+p, func() error { f, err = fsys.OpenBeneath(root, p); return err })
			return keepOpen(f, err)
		},
		Stat: func(fsys hostfstest.FS, p string) (fi fs.FileInfo, err error) {
			err = in.call("Stat "+p, func() error { fi, err = fsys.Stat(p); return err })
			return fi, err
		},
		Lstat: func(fsys hostfstest.FS, p string) (fi fs.FileInfo, err error) {
			err = in.call("Lstat "+p, func() error { fi, err = fsys.Lstat(p); return err })
			return fi, err
		},
		Readlink: func(fsys hostfstest.FS, p string) (s string, err error) {
			err = in.call("Readlink "+p, func() error { s, err = fsys.Readlink(p); return err })
			return s, err
		},
		ReadDir: func(fsys hostfstest.FS, p string) (d []fs.DirEntry, err error) {
			err = in.call("ReadDir "+p, func() error { d, err = fsys.ReadDir(p); return err })
			return d, err
		},
		Symlink: func(fsys hostfstest.FS, oldname, newname string) error {
			return in.call("Symlink "+newname, func() error { return fsys.Symlink(oldname, newname) })
		},
		Remove: func(fsys hostfstest.FS, p string) error {
			return in.call("Remove "+p, func() error { return fsys.Remove(p) })
		},
	}
}

// keepOpen closes a file a failed call opened: after an error the caller has nothing to close.
func keepOpen(f fs.File, err error) (fs.File, error) {
	if err != nil {
		if f != nil {
			f.Close()
		}
		return nil, err
	}
	return f, nil
}

// injectedHostUtils routes mounts.HostUtils through an injector.
type injectedHostUtils struct {
	mounts.HostUtils
	in *injector
}

func (h injectedHostUtils) PathExists(p string) (ok bool, err error) {
	err = h.in.call("PathExists "+p, func() error { ok, err = h.HostUtils.PathExists(p); return err })
	return ok, err
}

func (h injectedHostUtils) GetMode(p string) (m os.FileMode, err error) {
	err = h.in.call("GetMode "+p, func() error { m, err = h.HostUtils.GetMode(p); return err })
	return m, err
}

// injectedSubpather routes mounts.Subpather through an injector. Failing PrepareSafeSubpath after
// its effect returns the bind it made with its cleanup and the error, as a backend that failed
// after binding would.
type injectedSubpather struct {
	mounts.Subpather
	in *injector
}

func (s injectedSubpather) SafeMakeDir(subdir, base string, perm os.FileMode) error {
	return s.in.call("SafeMakeDir "+base+" "+subdir, func() error { return s.Subpather.SafeMakeDir(subdir, base, perm) })
}

func (s injectedSubpather) PrepareSafeSubpath(sp mounts.Subpath) (target string, cleanup func(), err error) {
	err = s.in.call("PrepareSafeSubpath "+sp.Path, func() error { target, cleanup, err = s.Subpather.PrepareSafeSubpath(sp); return err })
	return target, cleanup, err
}

func (s injectedSubpather) CleanSubPaths(podDir, volumeName string) error {
	return s.in.call("CleanSubPaths "+podDir+" "+volumeName, func() error { return s.Subpather.CleanSubPaths(podDir, volumeName) })
}

// hostTree describes every path below dir but those below skip: its type and mode, and for a
// file its inode and content, so a file rewritten, replaced or emptied shows.
func hostTree(t *testing.T, dir, skip string) []string {
	var out []string
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if p == skip {
			return filepath.SkipDir
		}
		line := fmt.Sprintf("%s %v", strings.TrimPrefix(p, dir), fi.Mode())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" inode %d %q", fi.Sys().(*syscall.Stat_t).Ino, b)
		}
		out = append(out, line)
		return nil
	}))
	return out
}

// withoutContent is tree with the content of file (below base) left out.
func withoutContent(tree []string, file, base string) []string {
	prefix := strings.TrimPrefix(file, base) + " "
	out := make([]string, len(tree))
	for i, line := range tree {
		if strings.HasPrefix(line, prefix) {
			if j := strings.Index(line, " \""); j >= 0 {
				line = line[:j]
			}
		}
		out[i] = line
	}
	return out
}

// unmountUnder unmounts the subPath binds a run left under dir (the pod's, which a kubelet would
// clean at teardown), innermost first.
func unmountUnder(t *testing.T, dir string) {
	ms := mountsUnder(t, dir)
	for i := len(ms) - 1; i >= 0; i-- {
		if err := syscall.Unmount(ms[i], syscall.MNT_DETACH); err != nil && !errors.Is(err, syscall.EINVAL) {
			t.Errorf("unmounting %s: %v", ms[i], err)
		}
	}
}
