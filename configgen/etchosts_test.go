package configgen_test

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
)

// TestEtcHostsRewrite holds the pod's etc-hosts file to its rules across renders, offline: a
// later container's render leaves unchanged content to the backend (hostfs.OS then writes
// nothing) and chmods only a file whose mode changed; a failed write or chmod on the pod's first
// render leaves no file behind, and a failed rewrite never removes the file containers hold.
func TestEtcHostsRewrite(t *testing.T) {
	errInjected := errors.New("injected")
	hostsPath := "/var/lib/kubelet/pods/" + podUID + "/etc-hosts"
	type step struct {
		podIP     string
		failWrite bool
		failChmod bool
		// chmodBefore, when set, is the mode the file is given before the render.
		chmodBefore fs.FileMode
		wantErr     bool
		wantIP      string // the pod IP line etc-hosts holds afterwards; "" for no file
		wantOps     []string
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"a later container's render leaves unchanged content to the backend and does not chmod", []step{
			{podIP: "10.244.1.17", wantIP: "10.244.1.17", wantOps: []string{"write", "chmod"}},
			{podIP: "10.244.1.17", wantIP: "10.244.1.17", wantOps: []string{"write"}},
		}},
		{"changed content is written in place", []step{
			{podIP: "10.244.1.17", wantIP: "10.244.1.17", wantOps: []string{"write", "chmod"}},
			{podIP: "10.244.1.18", wantIP: "10.244.1.18", wantOps: []string{"write"}},
		}},
		{"a mode changed since is set back to 0644", []step{
			{podIP: "10.244.1.17", wantIP: "10.244.1.17", wantOps: []string{"write", "chmod"}},
			{podIP: "10.244.1.17", chmodBefore: 0o600, wantIP: "10.244.1.17", wantOps: []string{"write", "chmod"}},
		}},
		{"a failed chmod on the first render leaves no file", []step{
			{podIP: "10.244.1.17", failChmod: true, wantErr: true, wantIP: "", wantOps: []string{"write", "chmod", "remove"}},
		}},
		{"a failed write on the first render leaves no file", []step{
			{podIP: "10.244.1.17", failWrite: true, wantErr: true, wantIP: "", wantOps: []string{"write", "remove"}},
		}},
		{"a failed rewrite keeps the file containers hold", []step{
			{podIP: "10.244.1.17", wantIP: "10.244.1.17", wantOps: []string{"write", "chmod"}},
			{podIP: "10.244.1.18", failWrite: true, wantErr: true, wantIP: "10.244.1.17", wantOps: []string{"write"}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := configgentest.NewNode()
			var ops []string
			var cur step
			// A failing write fails before its effect (hostfs.OS keeps the old content when its
			// write fails), a failing chmod after it.
			node.Options.Files = hostfstest.Wrap(node.Files, hostfstest.Funcs{
				WriteFile: func(fsys hostfstest.FS, p string, data []byte, perm fs.FileMode) error {
					if p != hostsPath {
						return fsys.WriteFile(p, data, perm)
					}
					ops = append(ops, "write")
					if cur.failWrite {
						return errInjected
					}
					return fsys.WriteFile(p, data, perm)
				},
				Chmod: func(fsys hostfstest.FS, p string, perm fs.FileMode) error {
					if p != hostsPath {
						return fsys.Chmod(p, perm)
					}
					ops = append(ops, "chmod")
					err := fsys.Chmod(p, perm)
					if cur.failChmod {
						return errInjected
					}
					return err
				},
				Remove: func(fsys hostfstest.FS, p string) error {
					if p == hostsPath {
						ops = append(ops, "remove")
					}
					return fsys.Remove(p)
				},
			})
			gen, err := node.Generator()
			require.NoError(t, err)
			pod := samplePod()
			for _, s := range tc.steps {
				if s.chmodBefore != 0 {
					require.NoError(t, node.Files.Chmod(hostsPath, s.chmodBefore))
				}
				ops, cur = nil, s
				_, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{
					Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{s.podIP}, ImageRef: "img", Volumes: node.Volumes(pod),
				})
				if s.wantErr {
					require.ErrorIs(t, err, errInjected)
				} else {
					require.NoError(t, err)
				}
				assert.Equal(t, s.wantOps, ops)
				content, err := node.Files.ReadFile(hostsPath)
				if s.wantIP == "" {
					require.ErrorIs(t, err, fs.ErrNotExist)
					continue
				}
				require.NoError(t, err)
				assert.True(t, strings.Contains(string(content), s.wantIP+"\tweb-7d9f8\n"), "%s", content)
				fi, err := node.Files.Stat(hostsPath)
				require.NoError(t, err)
				assert.Equal(t, fs.FileMode(0o644), fi.Mode())
			}
		})
	}
}
