package mounts_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/mounts/mountstest"
)

func TestTranslateMountPropagation(t *testing.T) {
	cases := []struct {
		name    string
		mode    *v1.MountPropagationMode
		want    runtimeapi.MountPropagation
		wantErr string
	}{
		{"nil propagation is private", nil, private, ""},
		{"None is private", prop(v1.MountPropagationNone), private, ""},
		{"HostToContainer is host-to-container", prop(v1.MountPropagationHostToContainer), hostToCtr, ""},
		{"Bidirectional is bidirectional, privileged or not", prop(v1.MountPropagationBidirectional), bidi, ""},
		{"unknown mode is an error", prop("shared"), 0, `invalid MountPropagation mode: "shared"`},
		{"empty mode is an error", prop(""), 0, `invalid MountPropagation mode: ""`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := mounts.TranslateMountPropagation(tc.mode)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, mounts.ErrInvalidPropagation)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestMakeMountsCopiesBindMountOptions(t *testing.T) {
	opts := []string{"noexec", "nodev"}
	ms, _, _, err := mounts.MakeMounts(mounts.Input{
		Pod: &v1.Pod{}, Volumes: disk,
		Container: &v1.Container{Name: "ctr", VolumeMounts: []v1.VolumeMount{{Name: "disk", MountPath: "/m", BindMountOptions: opts}}},
	})
	require.NoError(t, err)
	opts[0] = "exec"
	assert.Equal(t, []string{"noexec", "nodev"}, ms[0].BindMountOptions, "the mount does not alias the pod spec")
}

func TestMakeMountsConcurrentUse(t *testing.T) {
	hu := mountstest.NewHostUtils()
	hu.AddPath("/vol/disk", 0o755)
	sp := mountstest.NewSubpather(hu)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			name := fmt.Sprintf("ctr%d", i)
			ms, cleanup, _, err := mounts.MakeMounts(mounts.Input{
				Pod: &v1.Pod{}, PodDir: podDir, Volumes: disk, HostUtils: hu, Subpather: sp,
				Container:       &v1.Container{Name: name, VolumeMounts: []v1.VolumeMount{{Name: "disk", MountPath: "/m", SubPath: "shared"}}},
				PodIPs:          []string{"10.0.0.1"},
				EnsureHostsFile: func() (string, error) { return podDir + "/etc-hosts", nil },
			})
			assert.NoError(t, err)
			assert.Equal(t, podDir+"/volume-subpaths/disk/"+name+"/0", ms[0].HostPath)
			cleanup()
		})
	}
	wg.Wait()
	assert.Empty(t, sp.Binds())
}
