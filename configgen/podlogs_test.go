package configgen_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
)

func TestMakePodLogsDirectory(t *testing.T) {
	t.Run("makes <PodLogsDir>/<namespace>_<name>_<uid> 0755, the sandbox's LogDirectory", func(t *testing.T) {
		node := configgentest.NewNode()
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := volumelessPod()
		dir, err := gen.MakePodLogsDirectory(pod)
		require.NoError(t, err)
		assert.Equal(t, "/var/log/pods/"+pod.Namespace+"_"+pod.Name+"_"+string(pod.UID), dir)
		fi, err := node.Files.Stat(dir)
		require.NoError(t, err)
		assert.Equal(t, fs.ModeDir|0o755, fi.Mode())

		_, err = gen.MakePodLogsDirectory(pod)
		assert.NoError(t, err, "an existing directory is fine")
	})

	for _, tc := range []struct {
		name   string
		mutate func(*v1.Pod)
	}{
		{"a namespace with a slash is refused", func(p *v1.Pod) { p.Namespace = "a/b" }},
		{"a name of .. is refused", func(p *v1.Pod) { p.Name = ".." }},
		{"an empty UID is refused", func(p *v1.Pod) { p.UID = "" }},
		{"a nil pod is refused", nil},
	} {
		t.Run(tc.name+" before anything is made", func(t *testing.T) {
			node := configgentest.NewNode()
			gen, err := node.Generator()
			require.NoError(t, err)
			var pod *v1.Pod
			if tc.mutate != nil {
				pod = volumelessPod()
				tc.mutate(pod)
			}
			_, err = gen.MakePodLogsDirectory(pod)
			assert.ErrorIs(t, err, configgen.ErrInvalidPod)
			_, statErr := node.Files.Stat("/var/log/pods")
			assert.ErrorIs(t, statErr, fs.ErrNotExist)
		})
	}

	t.Run("a host error has kubelet's text, ErrHost and the cause", func(t *testing.T) {
		node := configgentest.NewNode()
		node.Options.Files = hostfstest.Wrap(node.Files, hostfstest.Funcs{MkdirAll: func(hostfstest.FS, string, fs.FileMode) error {
			return &fs.PathError{Op: "mkdir", Path: "/var/log/pods", Err: fs.ErrPermission}
		}})
		gen, err := node.Generator()
		require.NoError(t, err)
		pod := volumelessPod()
		_, err = gen.MakePodLogsDirectory(pod)
		assert.EqualError(t, err, `Failed to create log directory for pod "`+pod.Name+"_"+pod.Namespace+"("+string(pod.UID)+`)": mkdir /var/log/pods: permission denied`)
		assert.ErrorIs(t, err, configgen.ErrHost)
		assert.ErrorIs(t, err, fs.ErrPermission)
		assert.ErrorIs(t, err, configgen.ErrDependencyFailed)
		var cerr *configgen.Error
		require.True(t, errors.As(err, &cerr))
		assert.Equal(t, configgen.ReasonFailedCreatePodSandBox, cerr.Reason)
	})
}
