package mounts_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/mounts"
)

func TestContainerVolumeMounts(t *testing.T) {
	volumes := []v1.Volume{
		{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
		{Name: "cfg", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{}}},
		{Name: "creds", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{}}},
		{Name: "info", VolumeSource: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{}}},
		{Name: "all", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{}}},
		{Name: "img", VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "tools:1"}}},
		{Name: "claim-ro", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "c", ReadOnly: true}}},
		{Name: "claim", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "c"}}},
	}
	private := runtimeapi.MountPropagation_PROPAGATION_PRIVATE
	tests := []struct {
		name    string
		mount   v1.VolumeMount
		env     map[string]string
		rro     bool
		want    mounts.VolumeMount
		wantErr string
		wantIs  error
	}{
		{name: "a plain mount keeps its settings", mount: v1.VolumeMount{Name: "data", MountPath: "/data"},
			want: mounts.VolumeMount{Volume: "data", MountPath: "/data", Propagation: private}},
		{name: "a relative mountPath becomes absolute", mount: v1.VolumeMount{Name: "data", MountPath: "var/data/"},
			want: mounts.VolumeMount{Volume: "data", MountPath: "/var/data", Propagation: private}},
		{name: "subPath is kept", mount: v1.VolumeMount{Name: "data", MountPath: "/d", SubPath: "a/b"},
			want: mounts.VolumeMount{Volume: "data", MountPath: "/d", SubPath: "a/b", Propagation: private}},
		{name: "subPathExpr is expanded against the env", mount: v1.VolumeMount{Name: "data", MountPath: "/d", SubPathExpr: "logs/$(POD)"},
			env:  map[string]string{"POD": "web-0"},
			want: mounts.VolumeMount{Volume: "data", MountPath: "/d", SubPath: "logs/web-0", Propagation: private}},
		{name: "subPathExpr with a missing variable fails", mount: v1.VolumeMount{Name: "data", MountPath: "/d", SubPathExpr: "$(POD)"},
			wantErr: "missing value for POD", wantIs: mounts.ErrSubPathExpansion},
		{name: "subPath with .. fails with kubelet's text", mount: v1.VolumeMount{Name: "data", MountPath: "/d", SubPath: "../x"},
			wantErr: "unable to provision SubPath `../x`: must not contain '..'", wantIs: mounts.ErrInvalidSubPath},
		{name: "an undeclared volume fails with kubelet's text", mount: v1.VolumeMount{Name: "ghost", MountPath: "/g"},
			wantErr: `cannot find volume "ghost" to mount into container "app"`, wantIs: mounts.ErrVolumeNotFound},
		{name: "configMap volumes are read-only", mount: v1.VolumeMount{Name: "cfg", MountPath: "/c"},
			want: mounts.VolumeMount{Volume: "cfg", MountPath: "/c", ReadOnly: true, Propagation: private}},
		{name: "secret volumes are read-only", mount: v1.VolumeMount{Name: "creds", MountPath: "/c"},
			want: mounts.VolumeMount{Volume: "creds", MountPath: "/c", ReadOnly: true, Propagation: private}},
		{name: "downwardAPI volumes are read-only", mount: v1.VolumeMount{Name: "info", MountPath: "/c"},
			want: mounts.VolumeMount{Volume: "info", MountPath: "/c", ReadOnly: true, Propagation: private}},
		{name: "projected volumes are read-only", mount: v1.VolumeMount{Name: "all", MountPath: "/c"},
			want: mounts.VolumeMount{Volume: "all", MountPath: "/c", ReadOnly: true, Propagation: private}},
		{name: "image volumes are read-only", mount: v1.VolumeMount{Name: "img", MountPath: "/c"},
			want: mounts.VolumeMount{Volume: "img", MountPath: "/c", ReadOnly: true, Propagation: private}},
		{name: "a PVC claimed read-only is read-only", mount: v1.VolumeMount{Name: "claim-ro", MountPath: "/c"},
			want: mounts.VolumeMount{Volume: "claim-ro", MountPath: "/c", ReadOnly: true, Propagation: private}},
		{name: "a PVC claimed read-write follows the mount", mount: v1.VolumeMount{Name: "claim", MountPath: "/c"},
			want: mounts.VolumeMount{Volume: "claim", MountPath: "/c", Propagation: private}},
		{name: "HostToContainer propagation is translated", mount: v1.VolumeMount{Name: "data", MountPath: "/d", MountPropagation: ptr.To(v1.MountPropagationHostToContainer)},
			want: mounts.VolumeMount{Volume: "data", MountPath: "/d", Propagation: runtimeapi.MountPropagation_PROPAGATION_HOST_TO_CONTAINER}},
		{name: "an unknown propagation mode fails", mount: v1.VolumeMount{Name: "data", MountPath: "/d", MountPropagation: ptr.To(v1.MountPropagationMode("Sideways"))},
			wantErr: `invalid MountPropagation mode: "Sideways"`, wantIs: mounts.ErrInvalidPropagation},
		{name: "recursiveReadOnly IfPossible follows the runtime", rro: true,
			mount: v1.VolumeMount{Name: "data", MountPath: "/d", ReadOnly: true, RecursiveReadOnly: ptr.To(v1.RecursiveReadOnlyIfPossible)},
			want:  mounts.VolumeMount{Volume: "data", MountPath: "/d", ReadOnly: true, RecursiveReadOnly: true, Propagation: private}},
		{name: "recursiveReadOnly Enabled without runtime support fails",
			mount:   v1.VolumeMount{Name: "data", MountPath: "/d", ReadOnly: true, RecursiveReadOnly: ptr.To(v1.RecursiveReadOnlyEnabled)},
			wantErr: `failed to resolve recursive read-only mode: volume "data" requested recursive read-only mode, but it is not supported by the runtime`,
			wantIs:  mounts.ErrRecursiveReadOnly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := &v1.Pod{Spec: v1.PodSpec{Volumes: volumes, Containers: []v1.Container{{Name: "app", VolumeMounts: []v1.VolumeMount{tt.mount}}}}}
			got, err := mounts.ContainerVolumeMounts(mounts.VolumeMountsInput{Pod: pod, Container: &pod.Spec.Containers[0], Env: tt.env, SupportsRecursiveReadOnly: tt.rro})
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				assert.ErrorIs(t, err, tt.wantIs)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []mounts.VolumeMount{tt.want}, got)
		})
	}
	_, err := mounts.ContainerVolumeMounts(mounts.VolumeMountsInput{})
	assert.ErrorIs(t, err, mounts.ErrMissingDependency)
}
