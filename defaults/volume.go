package defaults

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// setVolumeDefaults applies to one volume what the generated SetObjectDefaults_Pod applies to it:
// SetDefaults_Volume, then the defaulter of its source.
func setVolumeDefaults(vol *v1.Volume) {
	src := &vol.VolumeSource
	// A volume with no source is an emptyDir (SetDefaults_Volume). The common sources are looked
	// at first, to spare most volumes the reflection.
	if !hasCommonSource(src) && ptr.AllPtrFieldsNil(src) {
		*src = v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}
	}
	// Gate ImageVolume, locked on since v1.36.
	if src.Image != nil && src.Image.PullPolicy == "" {
		src.Image.PullPolicy = pullPolicyForImage(src.Image.Reference)
	}

	if src.HostPath != nil && src.HostPath.Type == nil {
		src.HostPath.Type = ptr.To(v1.HostPathUnset) // SetDefaults_HostPathVolumeSource
	}
	if src.Secret != nil && src.Secret.DefaultMode == nil {
		src.Secret.DefaultMode = ptr.To[int32](v1.SecretVolumeSourceDefaultMode)
	}
	if s := src.ISCSI; s != nil && s.ISCSIInterface == "" {
		s.ISCSIInterface = "default"
	}
	if s := src.RBD; s != nil {
		if s.RBDPool == "" {
			s.RBDPool = "rbd"
		}
		if s.RadosUser == "" {
			s.RadosUser = "admin"
		}
		if s.Keyring == "" {
			s.Keyring = "/etc/ceph/keyring"
		}
	}
	if s := src.DownwardAPI; s != nil {
		if s.DefaultMode == nil {
			s.DefaultMode = ptr.To[int32](v1.DownwardAPIVolumeSourceDefaultMode)
		}
		setDownwardAPIItemDefaults(s.Items)
	}
	if src.ConfigMap != nil && src.ConfigMap.DefaultMode == nil {
		src.ConfigMap.DefaultMode = ptr.To[int32](v1.ConfigMapVolumeSourceDefaultMode)
	}
	if s := src.AzureDisk; s != nil {
		if s.CachingMode == nil {
			s.CachingMode = ptr.To(v1.AzureDataDiskCachingReadWrite)
		}
		if s.FSType == nil {
			s.FSType = ptr.To("ext4")
		}
		if s.ReadOnly == nil {
			s.ReadOnly = ptr.To(false)
		}
		if s.Kind == nil {
			s.Kind = ptr.To(v1.AzureSharedBlobDisk)
		}
	}
	if s := src.Projected; s != nil {
		if s.DefaultMode == nil {
			s.DefaultMode = ptr.To[int32](v1.ProjectedVolumeSourceDefaultMode)
		}
		for i := range s.Sources {
			p := &s.Sources[i]
			if p.DownwardAPI != nil {
				setDownwardAPIItemDefaults(p.DownwardAPI.Items)
			}
			if p.ServiceAccountToken != nil && p.ServiceAccountToken.ExpirationSeconds == nil {
				p.ServiceAccountToken.ExpirationSeconds = ptr.To[int64](defaultServiceAccountTokenTTL)
			}
		}
	}
	if s := src.ScaleIO; s != nil {
		if s.StorageMode == "" {
			s.StorageMode = "ThinProvisioned"
		}
		if s.FSType == "" {
			s.FSType = "xfs"
		}
	}
	if s := src.Ephemeral; s != nil && s.VolumeClaimTemplate != nil {
		spec := &s.VolumeClaimTemplate.Spec
		if spec.VolumeMode == nil {
			spec.VolumeMode = ptr.To(v1.PersistentVolumeFilesystem) // SetDefaults_PersistentVolumeClaimSpec
		}
		roundResourceList(spec.Resources.Limits)
		roundResourceList(spec.Resources.Requests)
	}
}

func setDownwardAPIItemDefaults(items []v1.DownwardAPIVolumeFile) {
	for i := range items {
		if items[i].FieldRef != nil {
			setFieldRefDefaults(items[i].FieldRef)
		}
	}
}

func hasCommonSource(src *v1.VolumeSource) bool {
	return src.EmptyDir != nil || src.ConfigMap != nil || src.Secret != nil || src.Projected != nil ||
		src.HostPath != nil || src.PersistentVolumeClaim != nil || src.DownwardAPI != nil ||
		src.CSI != nil || src.Ephemeral != nil || src.Image != nil
}
