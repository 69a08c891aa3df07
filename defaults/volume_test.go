package defaults

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func TestVolumeRules(t *testing.T) {
	fieldRef := func(apiVersion string) *v1.ObjectFieldSelector {
		return &v1.ObjectFieldSelector{APIVersion: apiVersion, FieldPath: "metadata.name"}
	}
	tests := []struct {
		name string
		in   v1.VolumeSource
		want v1.VolumeSource
	}{
		{"a volume with no source is an emptyDir", v1.VolumeSource{},
			v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
		{"emptyDir medium and sizeLimit have no default", v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}},
			v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}},
		{"emptyDir medium Memory is kept", v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumMemory}},
			v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Medium: v1.StorageMediumMemory}}},
		{"hostPath type defaults to the empty type", v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/data"}},
			v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/data", Type: ptr.To(v1.HostPathUnset)}}},
		{"hostPath type Directory is kept", v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/data", Type: ptr.To(v1.HostPathDirectory)}},
			v1.VolumeSource{HostPath: &v1.HostPathVolumeSource{Path: "/data", Type: ptr.To(v1.HostPathDirectory)}}},
		{"secret defaultMode defaults to 0644", v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "s"}},
			v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "s", DefaultMode: ptr.To[int32](0o644)}}},
		{"secret defaultMode 0400 is kept", v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "s", DefaultMode: ptr.To[int32](0o400)}},
			v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "s", DefaultMode: ptr.To[int32](0o400)}}},
		{"configMap defaultMode defaults to 0644", v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "c"}}},
			v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{LocalObjectReference: v1.LocalObjectReference{Name: "c"}, DefaultMode: ptr.To[int32](0o644)}}},
		{"configMap defaultMode 0 is kept", v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{DefaultMode: ptr.To[int32](0)}},
			v1.VolumeSource{ConfigMap: &v1.ConfigMapVolumeSource{DefaultMode: ptr.To[int32](0)}}},
		{"downwardAPI defaultMode defaults to 0644 and item fieldRef apiVersion to v1",
			v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{Items: []v1.DownwardAPIVolumeFile{{Path: "name", FieldRef: fieldRef("")}, {Path: "cpu", ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.cpu"}}}}},
			v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: ptr.To[int32](0o644), Items: []v1.DownwardAPIVolumeFile{{Path: "name", FieldRef: fieldRef("v1")}, {Path: "cpu", ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.cpu"}}}}}},
		{"downwardAPI defaultMode and fieldRef apiVersion set are kept",
			v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: ptr.To[int32](0o600), Items: []v1.DownwardAPIVolumeFile{{Path: "name", FieldRef: fieldRef("v9")}}}},
			v1.VolumeSource{DownwardAPI: &v1.DownwardAPIVolumeSource{DefaultMode: ptr.To[int32](0o600), Items: []v1.DownwardAPIVolumeFile{{Path: "name", FieldRef: fieldRef("v9")}}}}},
		{"projected defaultMode defaults to 0644, downwardAPI fieldRef to v1, token expiry to 3600",
			v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{Sources: []v1.VolumeProjection{
				{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "name", FieldRef: fieldRef("")}}}},
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token"}},
				{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"}}},
			}}},
			v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: ptr.To[int32](0o644), Sources: []v1.VolumeProjection{
				{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "name", FieldRef: fieldRef("v1")}}}},
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3600)}},
				{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"}}},
			}}}},
		{"projected defaultMode and token expiry set are kept",
			v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: ptr.To[int32](0o440), Sources: []v1.VolumeProjection{
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](7200)}}}}},
			v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{DefaultMode: ptr.To[int32](0o440), Sources: []v1.VolumeProjection{
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](7200)}}}}}},
		{"image pullPolicy defaults to Always for :latest", v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "quay.io/tools:latest"}},
			v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "quay.io/tools:latest", PullPolicy: v1.PullAlways}}},
		{"image pullPolicy defaults to IfNotPresent for a version", v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "quay.io/tools:v1"}},
			v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "quay.io/tools:v1", PullPolicy: v1.PullIfNotPresent}}},
		{"image pullPolicy Never is kept", v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "quay.io/tools", PullPolicy: v1.PullNever}},
			v1.VolumeSource{Image: &v1.ImageVolumeSource{Reference: "quay.io/tools", PullPolicy: v1.PullNever}}},
		{"ephemeral claim volumeMode defaults to Filesystem and its resources are rounded",
			v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{Spec: v1.PersistentVolumeClaimSpec{
				Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resourceMust("0.0001")}}}}}},
			v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{Spec: v1.PersistentVolumeClaimSpec{
				VolumeMode: ptr.To(v1.PersistentVolumeFilesystem),
				Resources:  v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resourceMust("1m")}}}}}}},
		{"ephemeral claim volumeMode Block is kept",
			v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{Spec: v1.PersistentVolumeClaimSpec{VolumeMode: ptr.To(v1.PersistentVolumeBlock)}}}},
			v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{VolumeClaimTemplate: &v1.PersistentVolumeClaimTemplate{Spec: v1.PersistentVolumeClaimSpec{VolumeMode: ptr.To(v1.PersistentVolumeBlock)}}}}},
		{"ephemeral with no claim template is left alone", v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{}},
			v1.VolumeSource{Ephemeral: &v1.EphemeralVolumeSource{}}},
		{"persistentVolumeClaim has no defaults", v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}},
			v1.VolumeSource{PersistentVolumeClaim: &v1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
		{"iscsi iscsiInterface defaults to default", v1.VolumeSource{ISCSI: &v1.ISCSIVolumeSource{TargetPortal: "10.0.0.1"}},
			v1.VolumeSource{ISCSI: &v1.ISCSIVolumeSource{TargetPortal: "10.0.0.1", ISCSIInterface: "default"}}},
		{"iscsi iscsiInterface set is kept", v1.VolumeSource{ISCSI: &v1.ISCSIVolumeSource{ISCSIInterface: "tcp"}},
			v1.VolumeSource{ISCSI: &v1.ISCSIVolumeSource{ISCSIInterface: "tcp"}}},
		{"rbd pool, user and keyring default to rbd, admin and /etc/ceph/keyring", v1.VolumeSource{RBD: &v1.RBDVolumeSource{RBDImage: "img"}},
			v1.VolumeSource{RBD: &v1.RBDVolumeSource{RBDImage: "img", RBDPool: "rbd", RadosUser: "admin", Keyring: "/etc/ceph/keyring"}}},
		{"rbd pool, user and keyring set are kept", v1.VolumeSource{RBD: &v1.RBDVolumeSource{RBDPool: "p", RadosUser: "u", Keyring: "/k"}},
			v1.VolumeSource{RBD: &v1.RBDVolumeSource{RBDPool: "p", RadosUser: "u", Keyring: "/k"}}},
		{"azureDisk cachingMode, fsType, readOnly and kind default to ReadWrite, ext4, false and Shared", v1.VolumeSource{AzureDisk: &v1.AzureDiskVolumeSource{DiskName: "d"}},
			v1.VolumeSource{AzureDisk: &v1.AzureDiskVolumeSource{DiskName: "d", CachingMode: ptr.To(v1.AzureDataDiskCachingReadWrite), FSType: ptr.To("ext4"), ReadOnly: ptr.To(false), Kind: ptr.To(v1.AzureSharedBlobDisk)}}},
		{"azureDisk fields set are kept", v1.VolumeSource{AzureDisk: &v1.AzureDiskVolumeSource{CachingMode: ptr.To(v1.AzureDataDiskCachingNone), FSType: ptr.To("xfs"), ReadOnly: ptr.To(true), Kind: ptr.To(v1.AzureManagedDisk)}},
			v1.VolumeSource{AzureDisk: &v1.AzureDiskVolumeSource{CachingMode: ptr.To(v1.AzureDataDiskCachingNone), FSType: ptr.To("xfs"), ReadOnly: ptr.To(true), Kind: ptr.To(v1.AzureManagedDisk)}}},
		{"scaleIO storageMode and fsType default to ThinProvisioned and xfs", v1.VolumeSource{ScaleIO: &v1.ScaleIOVolumeSource{Gateway: "g"}},
			v1.VolumeSource{ScaleIO: &v1.ScaleIOVolumeSource{Gateway: "g", StorageMode: "ThinProvisioned", FSType: "xfs"}}},
		{"scaleIO storageMode and fsType set are kept", v1.VolumeSource{ScaleIO: &v1.ScaleIOVolumeSource{StorageMode: "ThickProvisioned", FSType: "ext4"}},
			v1.VolumeSource{ScaleIO: &v1.ScaleIOVolumeSource{StorageMode: "ThickProvisioned", FSType: "ext4"}}},
		{"nfs has no defaults", v1.VolumeSource{NFS: &v1.NFSVolumeSource{Server: "nfs", Path: "/export"}},
			v1.VolumeSource{NFS: &v1.NFSVolumeSource{Server: "nfs", Path: "/export"}}},
		{"csi has no defaults", v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "d"}},
			v1.VolumeSource{CSI: &v1.CSIVolumeSource{Driver: "d"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := podWith(func(p *v1.Pod) { p.Spec.Volumes = []v1.Volume{{Name: "v", VolumeSource: tt.in}} })
			SetObjectDefaultsPod(pod)
			assertSemantic(t, []v1.Volume{{Name: "v", VolumeSource: tt.want}}, pod.Spec.Volumes)
		})
	}
}
