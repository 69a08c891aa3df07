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

func TestMakeMountsPropagationAndReadOnly(t *testing.T) {
	ro := func(mode v1.RecursiveReadOnlyMode, p *v1.MountPropagationMode) []v1.VolumeMount {
		return []v1.VolumeMount{{MountPath: "/m", Name: "disk", ReadOnly: true, RecursiveReadOnly: rroMode(mode), MountPropagation: p}}
	}
	cases := []makeMountsCase{
		{
			name:    "unknown propagation is an error",
			volumes: disk,
			mounts:  []v1.VolumeMount{{MountPath: "/m", Name: "disk", MountPropagation: prop("Sideways")}},
			wantErr: `invalid MountPropagation mode: "Sideways"`,
			wantIs:  []error{mounts.ErrInvalidPropagation},
		},
		{
			name:        "recursive read-only enabled on a supporting runtime",
			volumes:     disk,
			supportsRRO: true,
			mounts:      ro(v1.RecursiveReadOnlyEnabled, prop(v1.MountPropagationNone)),
			want:        []mounts.Mount{{Name: "disk", ContainerPath: "/m", HostPath: "/vol/disk", ReadOnly: true, RecursiveReadOnly: true}},
		},
		{
			name:    "recursive read-only enabled on a runtime without support is an error",
			volumes: disk,
			mounts:  ro(v1.RecursiveReadOnlyEnabled, nil),
			wantErr: `failed to resolve recursive read-only mode: volume "disk" requested recursive read-only mode, but it is not supported by the runtime`,
			wantIs:  []error{mounts.ErrRecursiveReadOnly},
		},
		{
			name:        "recursive read-only if possible follows runtime support (supported)",
			volumes:     disk,
			supportsRRO: true,
			mounts:      ro(v1.RecursiveReadOnlyIfPossible, nil),
			want:        []mounts.Mount{{Name: "disk", ContainerPath: "/m", HostPath: "/vol/disk", ReadOnly: true, RecursiveReadOnly: true}},
		},
		{
			name:    "recursive read-only if possible follows runtime support (unsupported)",
			volumes: disk,
			mounts:  ro(v1.RecursiveReadOnlyIfPossible, nil),
			want:    []mounts.Mount{{Name: "disk", ContainerPath: "/m", HostPath: "/vol/disk", ReadOnly: true}},
		},
		{
			name:        "recursive read-only disabled is off",
			volumes:     disk,
			supportsRRO: true,
			mounts:      ro(v1.RecursiveReadOnlyDisabled, nil),
			want:        []mounts.Mount{{Name: "disk", ContainerPath: "/m", HostPath: "/vol/disk", ReadOnly: true}},
		},
		{
			name:        "recursive read-only needs a read-only volumeMount, even on a read-only volume",
			volumes:     mounts.VolumeMap{"disk": {HostPath: "/vol/disk", ReadOnly: true}},
			supportsRRO: true,
			mounts:      []v1.VolumeMount{{MountPath: "/m", Name: "disk", RecursiveReadOnly: rroMode(v1.RecursiveReadOnlyEnabled)}},
			wantErr:     `failed to resolve recursive read-only mode: volume "disk" requested recursive read-only mode, but it is not read-only`,
			wantIs:      []error{mounts.ErrRecursiveReadOnly},
		},
		{
			name:        "recursive read-only is incompatible with host-to-container propagation",
			volumes:     disk,
			supportsRRO: true,
			mounts:      ro(v1.RecursiveReadOnlyIfPossible, prop(v1.MountPropagationHostToContainer)),
			wantErr:     `failed to resolve recursive read-only mode: volume "disk" requested recursive read-only mode, but it is not compatible with propagation "HostToContainer"`,
			wantIs:      []error{mounts.ErrRecursiveReadOnly},
		},
		{
			name:        "unknown recursive read-only mode is an error",
			volumes:     disk,
			supportsRRO: true,
			mounts:      ro("Sometimes", nil),
			wantErr:     `failed to resolve recursive read-only mode: unknown recursive read-only mode "Sometimes"`,
			wantIs:      []error{mounts.ErrRecursiveReadOnly},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}
