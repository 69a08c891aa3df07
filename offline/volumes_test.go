package offline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/offline"
)

func TestNodeVolumes(t *testing.T) {
	root := "/var/lib/kubelet/pods/u1/volumes/"
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1"},
		Spec: v1.PodSpec{Volumes: []v1.Volume{
			{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			{Name: "c", VolumeSource: v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{}}},
			{Name: "s", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{}}},
			{Name: "d", VolumeSource: v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{}}},
			{Name: "pr", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{}}},
			{Name: "h", VolumeSource: v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/srv/h"}}},
			{Name: "pvc", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "claim", ReadOnly: true}}},
			{Name: "rw", VolumeSource: v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "rw-claim"}}},
			{Name: "img", VolumeSource: v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "tools:1"}}},
		}},
	}
	node := offline.NewNode()
	got := node.Volumes(pod)
	assert.Equal(t, mounts.VolumeMap{
		"e":  {HostPath: root + "kubernetes.io~empty-dir/e", SELinuxRelabel: true},
		"c":  {HostPath: root + "kubernetes.io~configmap/c", ReadOnly: true, SELinuxRelabel: true},
		"s":  {HostPath: root + "kubernetes.io~secret/s", ReadOnly: true, SELinuxRelabel: true},
		"d":  {HostPath: root + "kubernetes.io~downward-api/d", ReadOnly: true, SELinuxRelabel: true},
		"pr": {HostPath: root + "kubernetes.io~projected/pr", ReadOnly: true, SELinuxRelabel: true},
		"h":  {HostPath: "/srv/h"},
		// Kubelet's CSI mounter is unmanaged, so never relabelled, when read-only.
		"pvc": {HostPath: root + "kubernetes.io~csi/claim/mount", ReadOnly: true, InnerVolumeName: "claim"},
		"rw":  {HostPath: root + "kubernetes.io~csi/rw-claim/mount", SELinuxRelabel: true, InnerVolumeName: "rw-claim"},
		"img": {Image: &runtimeapi.ImageSpec{Image: "tools:1", UserSpecifiedImage: "tools:1"}, ReadOnly: true},
	}, got)
	exists, err := node.HostUtils.PathExists(root + "kubernetes.io~empty-dir/e")
	require.NoError(t, err)
	assert.True(t, exists, "volume directories are known to HostUtils")
	fi, err := node.Files.Stat(root + "kubernetes.io~secret/s")
	require.NoError(t, err)
	assert.True(t, fi.IsDir(), "and exist in Files")
}

func TestMountedVolume(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1"}}
	for _, tc := range []struct {
		name string
		root string
		vol  *v1.Volume
		want mounts.Volume
	}{
		{"an empty root is kubelet's default", "", &v1.Volume{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			mounts.Volume{HostPath: "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~empty-dir/e", SELinuxRelabel: true}},
		{"a root is kubelet's --root-dir", "/srv/kubelet", &v1.Volume{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
			mounts.Volume{HostPath: "/srv/kubelet/pods/u1/volumes/kubernetes.io~empty-dir/e", SELinuxRelabel: true}},
		{"an ephemeral volume is a CSI mount of the claim its template makes", "", &v1.Volume{Name: "scratch", VolumeSource: v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{}}},
			mounts.Volume{HostPath: "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~csi/pvc-p-scratch/mount", SELinuxRelabel: true}},
		{"an uncommon type is its plugin's directory", "", &v1.Volume{Name: "share", VolumeSource: v1.VolumeSource{NFS: &v1.NFSVolumeSource{Server: "nfs", Path: "/"}}},
			mounts.Volume{HostPath: "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~nfs/share"}},
		{"a volume with no source is a directory of its own", "", &v1.Volume{Name: "odd"},
			mounts.Volume{HostPath: "/var/lib/kubelet/pods/u1/volumes/kubernetes.io~volume/odd"}},
		{"no volume is the zero Volume", "", nil, mounts.Volume{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, offline.MountedVolume(tc.root, pod, tc.vol))
		})
	}
	assert.Equal(t, mounts.Volume{}, offline.MountedVolume("", nil, &v1.Volume{Name: "e"}), "no pod is the zero Volume")
}
