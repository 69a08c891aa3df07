package configgen_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
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
			_, _, err := g.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "busybox"})
			return err
		},
		"GenerateRunContainerOptions": func(g *configgen.Generator, pod *v1.Pod) error {
			_, _, err := g.GenerateRunContainerOptions(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}})
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
				_, _, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "busybox"})
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
		_, _, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "busybox"})
		require.Error(t, err)
		pod.Spec.SecurityContext = nil
		pod.Spec.Hostname = "not_a_label"
		_, err = gen.GeneratePodSandboxConfig(context.Background(), pod, 0)
		require.ErrorContains(t, err, "not_a_label")
		_, err = node.Files.Stat(podDir)
		assert.True(t, errors.Is(err, fs.ErrNotExist), "pod directory: %v", err)
	})
}
