package configgen_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"
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
)

// volumelessPod has pod IPs' etc-hosts mount and a termination message but no volume, so nothing
// but the Generator makes its pod directory.
func volumelessPod() *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "echo", Namespace: "default", UID: podUID},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			Containers: []v1.Container{{
				Name: "echo", Image: "busybox:1.36", TerminationMessagePath: "/dev/termination-log",
			}},
		},
	}
}

func TestMakePodDataDirs(t *testing.T) {
	podDir := "/var/lib/kubelet/pods/" + podUID
	wantDirs := []string{podDir, podDir + "/volumes", podDir + "/plugins"}

	calls := map[string]func(*configgen.Generator, *v1.Pod) error{
		"MakePodDataDirs": func(g *configgen.Generator, pod *v1.Pod) error { return g.MakePodDataDirs(pod) },
		"GeneratePodSandboxConfig": func(g *configgen.Generator, pod *v1.Pod) error {
			_, err := g.GeneratePodSandboxConfig(context.Background(), pod, 0)
			return err
		},
		"GenerateContainerConfig": func(g *configgen.Generator, pod *v1.Pod) error {
			_, err := g.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "busybox"})
			return err
		},
		"GenerateRunContainerOptions": func(g *configgen.Generator, pod *v1.Pod) error {
			_, err := g.GenerateRunContainerOptions(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}})
			return err
		},
	}
	for name, call := range calls {
		t.Run(name+" makes the pod, volumes and plugins directories 0750 for a pod with no volumes", func(t *testing.T) {
			node := configgentest.NewNode()
			gen, err := node.Generator()
			require.NoError(t, err)
			require.NoError(t, call(gen, volumelessPod()))
			for _, dir := range wantDirs {
				fi, err := node.Files.Stat(dir)
				require.NoError(t, err, dir)
				assert.Equal(t, fs.ModeDir|0o750, fi.Mode(), dir)
			}
		})
	}

	t.Run("existing directories keep their mode", func(t *testing.T) {
		node := configgentest.NewNode()
		require.NoError(t, node.Files.MkdirAll(podDir+"/volumes", 0o700))
		gen, err := node.Generator()
		require.NoError(t, err)
		require.NoError(t, gen.MakePodDataDirs(volumelessPod()))
		fi, err := node.Files.Stat(podDir + "/volumes")
		require.NoError(t, err)
		assert.Equal(t, fs.ModeDir|0o700, fi.Mode())
	})

	t.Run("the directories are under Options.RootDir", func(t *testing.T) {
		node := configgentest.NewNode()
		node.Options.RootDir = "/srv/kubelet"
		gen, err := node.Generator()
		require.NoError(t, err)
		dirs, err := gen.PodDataDirs(volumelessPod())
		require.NoError(t, err)
		assert.Equal(t, []string{"/srv/kubelet/pods/" + podUID, "/srv/kubelet/pods/" + podUID + "/volumes", "/srv/kubelet/pods/" + podUID + "/plugins"}, dirs)
	})
}

func TestMakePodDataDirsErrors(t *testing.T) {
	podDir := "/var/lib/kubelet/pods/" + podUID
	t.Run("a host error is ErrHost naming the pod, with kubelet's text and the cause", func(t *testing.T) {
		node := configgentest.NewNode()
		node.Options.Files = hostfstest.Wrap(node.Files, hostfstest.Funcs{MkdirAll: func(fsys hostfstest.FS, path string, perm fs.FileMode) error {
			if strings.HasSuffix(path, "/plugins") {
				return &fs.PathError{Op: "mkdir", Path: path, Err: fs.ErrPermission}
			}
			return fsys.MkdirAll(path, perm)
		}})
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := volumelessPod()
		for _, call := range []func() error{
			func() error { return gen.MakePodDataDirs(pod) },
			func() error { _, err := gen.GeneratePodSandboxConfig(context.Background(), pod, 0); return err },
			func() error {
				_, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "busybox"})
				return err
			},
		} {
			err := call()
			require.Error(t, err)
			assert.ErrorIs(t, err, configgen.ErrHost)
			assert.ErrorIs(t, err, fs.ErrPermission)
			assert.Equal(t, `pod "default/echo": error making pod data directories: mkdir `+podDir+`/plugins: permission denied`, err.Error())
		}
		_, err = node.Files.Stat(podDir + "/etc-hosts")
		assert.ErrorIs(t, err, fs.ErrNotExist, "no etc-hosts file without its directory")
	})

	t.Run("a pod UID that is not one path element is ErrInvalidPod before any directory", func(t *testing.T) {
		node := configgentest.NewNode()
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := volumelessPod()
		pod.UID = "../../etc"
		err = gen.MakePodDataDirs(pod)
		require.ErrorIs(t, err, configgen.ErrInvalidPod)
		_, err = node.Files.Stat("/var/lib/kubelet/pods")
		assert.ErrorIs(t, err, fs.ErrNotExist)
	})

	t.Run("a nil pod is ErrInvalidPod", func(t *testing.T) {
		gen, err := configgentest.NewNode().Generator()
		require.NoError(t, err)
		assert.ErrorIs(t, gen.MakePodDataDirs(nil), configgen.ErrInvalidPod)
	})

	t.Run("a spec error leaves no pod directory", func(t *testing.T) {
		node := configgentest.NewNode()
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := volumelessPod()
		pod.Spec.SecurityContext = &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)}
		_, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "busybox"})
		require.Error(t, err)
		pod.Spec.SecurityContext = nil
		pod.Spec.Hostname = "not_a_label"
		_, err = gen.GeneratePodSandboxConfig(context.Background(), pod, 0)
		require.ErrorContains(t, err, "not_a_label")
		_, err = node.Files.Stat(podDir)
		assert.True(t, errors.Is(err, fs.ErrNotExist), "pod directory: %v", err)
	})
}

// TestPodDirCheckedBeforeHostEffects: a container call refuses a pod directory it could not finish
// in before it makes anything, and takes any other state of the pod directory as it finds it, on
// both backends (the OS one as root, in a temporary directory).
func TestPodDirCheckedBeforeHostEffects(t *testing.T) {
	type setupFunc func(t *testing.T, files hostfstest.FS, root, podDir string)
	tests := []struct {
		name    string
		setup   setupFunc
		wantErr string // with $P for the pod directory
	}{
		{name: "a missing pod directory is made", setup: func(*testing.T, hostfstest.FS, string, string) {}},
		{name: "an existing pod directory without etc-hosts", setup: func(t *testing.T, files hostfstest.FS, _, podDir string) {
			require.NoError(t, files.MkdirAll(podDir, 0o750))
		}},
		{name: "an existing pod directory with its etc-hosts file", setup: func(t *testing.T, files hostfstest.FS, _, podDir string) {
			require.NoError(t, files.MkdirAll(podDir+"/volumes", 0o750))
			require.NoError(t, files.WriteFile(podDir+"/etc-hosts", []byte("old"), 0o644))
		}},
		{name: "a pod directory that is a symlink to a directory is followed", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(root+"/elsewhere", 0o750))
			require.NoError(t, files.MkdirAll(root+"/pods", 0o750))
			require.NoError(t, files.Symlink(root+"/elsewhere", podDir))
		}},
		{name: "a pod directory that is a symlink to a directory with the volumes and plugins directories", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(root+"/elsewhere/volumes", 0o750))
			require.NoError(t, files.MkdirAll(root+"/elsewhere/plugins", 0o750))
			require.NoError(t, files.MkdirAll(root+"/pods", 0o750))
			require.NoError(t, files.Symlink(root+"/elsewhere", podDir))
		}},
		{name: "a volumes directory that is a symlink to a directory", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(root+"/elsewhere", 0o750))
			require.NoError(t, files.MkdirAll(podDir+"/plugins", 0o750))
			require.NoError(t, files.Symlink(root+"/elsewhere", podDir+"/volumes"))
		}},
		{name: "a plugins directory that is a file", setup: func(t *testing.T, files hostfstest.FS, _, podDir string) {
			require.NoError(t, files.MkdirAll(podDir+"/volumes", 0o750))
			require.NoError(t, files.WriteFile(podDir+"/plugins", nil, 0o644))
		}, wantErr: `pod "default/echo": error making pod data directories: mkdir $P/plugins: not a directory`},
		{name: "a pod directory that is a file", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(root+"/pods", 0o750))
			require.NoError(t, files.WriteFile(podDir, nil, 0o644))
		}, wantErr: `pod "default/echo": pod directory $P is not a directory`},
		{name: "a pod directory that is a symlink to a file", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(root+"/pods", 0o750))
			require.NoError(t, files.WriteFile(root+"/file", nil, 0o644))
			require.NoError(t, files.Symlink(root+"/file", podDir))
		}, wantErr: `pod "default/echo": pod directory $P is not a directory`},
		{name: "a pod directory that is a dangling symlink", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(root+"/pods", 0o750))
			require.NoError(t, files.Symlink(root+"/nowhere", podDir))
		}, wantErr: `pod "default/echo": error making pod data directories: mkdir $P: file exists`},
		{name: "a pod directory that is a symlink loop", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(root+"/pods", 0o750))
			require.NoError(t, files.Symlink(podDir, podDir))
		}, wantErr: `pod "default/echo": checking the pod directory: stat $P: too many levels of symbolic links`},
		{name: "an etc-hosts that is a directory", setup: func(t *testing.T, files hostfstest.FS, _, podDir string) {
			require.NoError(t, files.MkdirAll(podDir+"/etc-hosts", 0o750))
		}, wantErr: `pod "default/echo": $P/etc-hosts is a directory, not the pod's hosts file`},
		{name: "an etc-hosts that is a symlink to a directory", setup: func(t *testing.T, files hostfstest.FS, root, podDir string) {
			require.NoError(t, files.MkdirAll(podDir, 0o750))
			require.NoError(t, files.Symlink(root, podDir+"/etc-hosts"))
		}, wantErr: `pod "default/echo": $P/etc-hosts is a directory, not the pod's hosts file`},
	}
	backends := map[string]func(t *testing.T) (hostfstest.FS, string){
		"Memory": func(*testing.T) (hostfstest.FS, string) { return hostfs.NewMemory(), "/var/lib/kubelet" },
		"OS": func(t *testing.T) (hostfstest.FS, string) {
			if os.Geteuid() != 0 {
				t.Skip("skipping: the OS backend's pod directories are checked as root (run the tests as root, as CI does)")
			}
			return hostfs.OS{}, t.TempDir() + "/kubelet"
		},
	}
	for backend, newFiles := range backends {
		for _, tc := range tests {
			t.Run(backend+": "+tc.name, func(t *testing.T) {
				files, root := newFiles(t)
				podDir := root + "/pods/" + podUID
				node := configgentest.NewNode()
				node.Options.Files = files
				node.Options.RootDir = root
				node.Options.PodLogsDir = root + "/log"
				require.NoError(t, files.MkdirAll(root, 0o755))
				tc.setup(t, files, root, podDir)
				before := fileTree(t, files, root)
				gen, err := node.Generator()
				require.NoError(t, err)
				pod := volumelessPod()
				_, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "busybox"})
				if tc.wantErr == "" {
					require.NoError(t, err)
					b, err := files.ReadFile(podDir + "/etc-hosts")
					require.NoError(t, err)
					assert.Contains(t, string(b), "10.244.0.5\techo")
					for _, dir := range []string{podDir + "/volumes", podDir + "/plugins", podDir + "/containers/echo"} {
						fi, err := files.Stat(dir)
						require.NoError(t, err, dir)
						assert.True(t, fi.IsDir(), dir)
					}
					return
				}
				require.EqualError(t, err, strings.ReplaceAll(tc.wantErr, "$P", podDir))
				assert.ErrorIs(t, err, configgen.ErrHost)
				assert.Equal(t, before, fileTree(t, files, root), "nothing made on the host")
			})
		}
	}
}

// fileTree lists every path below dir in files with its type.
func fileTree(t *testing.T, files hostfstest.FS, dir string) []string {
	t.Helper()
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		entries, err := files.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			p := dir + "/" + e.Name()
			out = append(out, p+" "+e.Type().String())
			if e.IsDir() {
				walk(p)
			}
		}
	}
	walk(dir)
	return out
}
