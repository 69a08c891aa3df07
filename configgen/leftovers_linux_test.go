//go:build linux

package configgen_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
)

// TestFailedCallsLeaveNothingBehind fails a Generator call at each step that comes after a host
// effect, with the real backends (hostfs.OS, subpath.Linux) as root, and checks that the files,
// directories and mounts under the node's directories are exactly as before.
func TestFailedCallsLeaveNothingBehind(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("skipping: subPath bind mounts need root (run the tests as root, as CI does)")
	}
	tests := []struct {
		name string
		// setup breaks the node at one step; root is RootDir, logs PodLogsDir.
		setup   func(t *testing.T, root, logs, podDir string)
		wantErr string
	}{
		{
			name: "the etc-hosts write fails after the log directory and the pod's directories were made",
			setup: func(t *testing.T, _, _, podDir string) {
				require.NoError(t, os.MkdirAll(filepath.Join(podDir, "etc-hosts", "x"), 0o755))
			},
			wantErr: "etc-hosts is a directory",
		},
		{
			name: "a pod directory that is a file is refused before anything is made",
			setup: func(t *testing.T, _, _, podDir string) {
				require.NoError(t, os.MkdirAll(filepath.Dir(podDir), 0o755))
				require.NoError(t, os.WriteFile(podDir, nil, 0o644))
			},
			wantErr: "is not a directory",
		},
		{
			name: "the log directory cannot be made after the pod's directories were",
			setup: func(t *testing.T, _, logs, _ string) {
				require.NoError(t, os.MkdirAll(filepath.Dir(logs), 0o755))
				require.NoError(t, os.WriteFile(logs, nil, 0o644))
			},
			wantErr: "create container log directory",
		},
		{
			name: "the pod's plugins directory cannot be made after its volumes directory was",
			setup: func(t *testing.T, _, _, podDir string) {
				require.NoError(t, os.MkdirAll(podDir, 0o750))
				require.NoError(t, os.WriteFile(filepath.Join(podDir, "plugins"), nil, 0o644))
			},
			wantErr: "error making pod data directories",
		},
		{
			name: "a subPath that escapes its volume, after another subPath was bound",
			setup: func(t *testing.T, root, _, _ string) {
				require.NoError(t, os.Symlink("/etc", filepath.Join(root, "vol", "escape")))
			},
			wantErr: "failed to prepare subPath",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			root, logs := filepath.Join(base, "kubelet"), filepath.Join(base, "log", "pods")
			vol := filepath.Join(root, "vol")
			require.NoError(t, os.MkdirAll(filepath.Join(vol, "data"), 0o755))
			node := configgentest.NewNode()
			node.Options.RootDir, node.Options.PodLogsDir = root, logs
			node.Options.Files = hostfs.OS{}
			node.Options.Subpather = subpath.New()
			node.Options.HostUtils = mounts.OSHostUtils{}
			gen, err := node.Generator()
			require.NoError(t, err)
			pod := samplePod()
			c := &pod.Spec.Containers[0]
			c.VolumeMounts = []v1.VolumeMount{{Name: "data", MountPath: "/data", SubPath: "data"}}
			if tc.name == "a subPath that escapes its volume, after another subPath was bound" {
				c.VolumeMounts = append(c.VolumeMounts, v1.VolumeMount{Name: "data", MountPath: "/x", SubPath: "escape"})
			}
			podDir := filepath.Join(root, "pods", podUID)
			tc.setup(t, root, logs, podDir)
			treeBefore, mountsBefore := nodeTree(t, base), mountsUnder(t, base)

			_, err = gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{
				Pod: pod, Container: c, PodIPs: []string{"10.244.1.17"}, ImageRef: "sha256:abc",
				Volumes: mounts.VolumeMap{"data": {HostPath: vol}},
			})
			require.Error(t, err)
			assert.ErrorContains(t, err, tc.wantErr)
			assert.Equal(t, treeBefore, nodeTree(t, base), "files or directories left behind")
			assert.Equal(t, mountsBefore, mountsUnder(t, base), "mounts left behind")
		})
	}
}

// nodeTree lists every path below dir.
func nodeTree(t *testing.T, dir string) []string {
	var out []string
	require.NoError(t, filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, strings.TrimPrefix(p, dir))
		return nil
	}))
	sort.Strings(out)
	return out
}

// mountsUnder lists the mount points below dir from /proc/self/mountinfo.
func mountsUnder(t *testing.T, dir string) []string {
	b, err := os.ReadFile("/proc/self/mountinfo")
	require.NoError(t, err)
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], dir) {
			out = append(out, f[4])
		}
	}
	sort.Strings(out)
	return out
}
