package validation

// The in-tree network and cloud volume plugins still in the API: what the API server checks of
// each, which is little more than the fields their plugins need.

import (
	"net"
	"path"
	"regexp"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The API server's words for a partition (checked from 0, though they say 1) and a LUN.
var (
	partitionErrorMsg = validation.InclusiveRangeError(1, 255)
	lunErrorMsg       = validation.InclusiveRangeError(0, 255)
)

func validateGCEPersistentDisk(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	// The API server names this source persistentDisk in its errors.
	fldPath := volPath.Child("persistentDisk")
	var errs field.ErrorList
	if vol.GCEPersistentDisk.PDName == "" {
		errs = append(errs, field.Required(fldPath.Child("pdName"), ""))
	}
	if p := vol.GCEPersistentDisk.Partition; p < 0 || p > 255 {
		errs = append(errs, field.Invalid(fldPath.Child("partition"), p, partitionErrorMsg))
	}
	return errs
}

func validateAWSElasticBlockStore(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("awsElasticBlockStore")
	var errs field.ErrorList
	if vol.AWSElasticBlockStore.VolumeID == "" {
		errs = append(errs, field.Required(fldPath.Child("volumeID"), ""))
	}
	if p := vol.AWSElasticBlockStore.Partition; p < 0 || p > 255 {
		errs = append(errs, field.Invalid(fldPath.Child("partition"), p, partitionErrorMsg))
	}
	return errs
}

// validateNFS requires a server and an absolute path; an empty path is both missing and relative.
func validateNFS(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("nfs")
	var errs field.ErrorList
	if vol.NFS.Server == "" {
		errs = append(errs, field.Required(fldPath.Child("server"), ""))
	}
	if vol.NFS.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	if !path.IsAbs(vol.NFS.Path) {
		errs = append(errs, field.Invalid(fldPath.Child("path"), vol.NFS.Path, "must be an absolute path"))
	}
	return errs
}

// The shapes of iSCSI qualified names (iqn.yyyy-mm.naming-authority:unique-name), EUI-64 and NAA
// names, as the API server matches them (the iqn pattern is not anchored at its start).
var (
	iscsiIQNPattern = regexp.MustCompile(`iqn\.\d{4}-\d{2}\.([[:alnum:]-.]+)(:[^,;*&$|\s]+)$`)
	iscsiEUIPattern = regexp.MustCompile(`^eui.[[:alnum:]]{16}$`)
	iscsiNAAPattern = regexp.MustCompile(`^naa.[[:alnum:]]{32}$`)
)

// iscsiNameMatches reports whether name, which starts with iqn, eui or naa, has that kind's shape.
func iscsiNameMatches(name string) bool {
	switch {
	case strings.HasPrefix(name, "iqn"):
		return iscsiIQNPattern.MatchString(name)
	case strings.HasPrefix(name, "eui"):
		return iscsiEUIPattern.MatchString(name)
	case strings.HasPrefix(name, "naa"):
		return iscsiNAAPattern.MatchString(name)
	}
	return true
}

func hasISCSINamePrefix(name string) bool {
	return strings.HasPrefix(name, "iqn") || strings.HasPrefix(name, "eui") || strings.HasPrefix(name, "naa")
}

func validateISCSI(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	iscsi := vol.ISCSI
	fldPath := volPath.Child("iscsi")
	var errs field.ErrorList
	if iscsi.TargetPortal == "" {
		errs = append(errs, field.Required(fldPath.Child("targetPortal"), ""))
	}
	switch {
	case iscsi.IQN == "":
		errs = append(errs, field.Required(fldPath.Child("iqn"), ""))
	case !hasISCSINamePrefix(iscsi.IQN):
		errs = append(errs, field.Invalid(fldPath.Child("iqn"), iscsi.IQN, "must be valid format starting with iqn, eui, or naa"))
	case !iscsiNameMatches(iscsi.IQN):
		errs = append(errs, field.Invalid(fldPath.Child("iqn"), iscsi.IQN, "must be valid format"))
	}
	if iscsi.Lun < 0 || iscsi.Lun > 255 {
		errs = append(errs, field.Invalid(fldPath.Child("lun"), iscsi.Lun, lunErrorMsg))
	}
	if (iscsi.DiscoveryCHAPAuth || iscsi.SessionCHAPAuth) && iscsi.SecretRef == nil {
		errs = append(errs, field.Required(fldPath.Child("secretRef"), ""))
	}
	if iscsi.InitiatorName != nil {
		// The API server spells this field initiatorname in its errors.
		initiator := *iscsi.InitiatorName
		if !hasISCSINamePrefix(initiator) {
			errs = append(errs, field.Invalid(fldPath.Child("initiatorname"), initiator, "must be valid format starting with iqn, eui, or naa"))
		} else if !iscsiNameMatches(initiator) {
			errs = append(errs, field.Invalid(fldPath.Child("initiatorname"), initiator, "must be valid format"))
		}
	}
	return errs
}

// validateISCSIInitiatorNameLength bounds the initiator name kubelet builds from the volume's name
// and the target portal; the API server checks it even when iscsi is not the volume's first source.
func validateISCSIInitiatorNameLength(vol *v1.Volume, volPath *field.Path) field.ErrorList {
	if vol.ISCSI.InitiatorName != nil && len(vol.Name+":"+vol.ISCSI.TargetPortal) > 64 {
		return field.ErrorList{field.Invalid(volPath.Child("name"), vol.Name,
			"Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.")}
	}
	return nil
}

func validateGlusterfs(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("glusterfs")
	var errs field.ErrorList
	if vol.Glusterfs.EndpointsName == "" {
		errs = append(errs, field.Required(fldPath.Child("endpoints"), ""))
	}
	if vol.Glusterfs.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	return errs
}

// validateFlocker requires exactly one of a dataset name (without "/") and a UUID.
func validateFlocker(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	f := vol.Flocker
	fldPath := volPath.Child("flocker")
	var errs field.ErrorList
	if f.DatasetName == "" && f.DatasetUUID == "" {
		errs = append(errs, field.Required(fldPath, "one of datasetName and datasetUUID is required"))
	}
	if f.DatasetName != "" && f.DatasetUUID != "" {
		errs = append(errs, field.Invalid(fldPath, "resource", "datasetName and datasetUUID can not be specified simultaneously"))
	}
	if strings.Contains(f.DatasetName, "/") {
		errs = append(errs, field.Invalid(fldPath.Child("datasetName"), f.DatasetName, "must not contain '/'"))
	}
	return errs
}

func validateRBD(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("rbd")
	var errs field.ErrorList
	if len(vol.RBD.CephMonitors) == 0 {
		errs = append(errs, field.Required(fldPath.Child("monitors"), ""))
	}
	if vol.RBD.RBDImage == "" {
		errs = append(errs, field.Required(fldPath.Child("image"), ""))
	}
	return errs
}

func validateCinder(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("cinder")
	var errs field.ErrorList
	if vol.Cinder.VolumeID == "" {
		errs = append(errs, field.Required(fldPath.Child("volumeID"), ""))
	}
	if ref := vol.Cinder.SecretRef; ref != nil && ref.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("secretRef", "name"), ""))
	}
	return errs
}

func validateCephFS(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	if len(vol.CephFS.Monitors) == 0 {
		return field.ErrorList{field.Required(volPath.Child("cephfs", "monitors"), "")}
	}
	return nil
}

// validateQuobyte requires a registry of host:port pairs (one error per bad pair), a tenant of at
// most 64 bytes (checked instead of the pairs, and reported as missing) and a volume.
func validateQuobyte(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	q := vol.Quobyte
	fldPath := volPath.Child("quobyte")
	const registryMsg = "must be a host:port pair or multiple pairs separated by commas"
	var errs field.ErrorList
	switch {
	case q.Registry == "":
		errs = append(errs, field.Required(fldPath.Child("registry"), registryMsg))
	case len(q.Tenant) > 64:
		errs = append(errs, field.Required(fldPath.Child("tenant"), "must be a UUID and may not exceed a length of 64 characters"))
	default:
		for _, pair := range strings.Split(q.Registry, ",") {
			if _, _, err := net.SplitHostPort(pair); err != nil {
				errs = append(errs, field.Invalid(fldPath.Child("registry"), q.Registry, registryMsg))
			}
		}
	}
	if q.Volume == "" {
		errs = append(errs, field.Required(fldPath.Child("volume"), ""))
	}
	return errs
}

// validateFC requires target WWNs with a LUN, or WWIDs, not both.
func validateFC(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fc := vol.FC
	fldPath := volPath.Child("fc")
	var errs field.ErrorList
	if len(fc.TargetWWNs) == 0 && len(fc.WWIDs) == 0 {
		errs = append(errs, field.Required(fldPath.Child("targetWWNs"), "must specify either targetWWNs or wwids, but not both"))
	}
	if len(fc.TargetWWNs) != 0 && len(fc.WWIDs) != 0 {
		errs = append(errs, field.Invalid(fldPath.Child("targetWWNs"), fc.TargetWWNs, "targetWWNs and wwids can not be specified simultaneously"))
	}
	if len(fc.TargetWWNs) != 0 {
		if fc.Lun == nil {
			errs = append(errs, field.Required(fldPath.Child("lun"), "lun is required if targetWWNs is specified"))
		} else if *fc.Lun < 0 || *fc.Lun > 255 {
			// The API server reports the pointer, which prints as the number.
			errs = append(errs, field.Invalid(fldPath.Child("lun"), fc.Lun, lunErrorMsg))
		}
	}
	return errs
}

// validateFlexVolume requires a driver and refuses options in the kubernetes.io and k8s.io
// namespaces, which kubelet fills in itself. Options are checked in key order (the API server's
// order is a map's).
func validateFlexVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("flexVolume")
	var errs field.ErrorList
	if vol.FlexVolume.Driver == "" {
		errs = append(errs, field.Required(fldPath.Child("driver"), ""))
	}
	for _, k := range sets.List(sets.KeySet(vol.FlexVolume.Options)) {
		namespace, _, _ := strings.Cut(k, "/")
		normalized := "." + strings.ToLower(namespace)
		if strings.HasSuffix(normalized, ".kubernetes.io") || strings.HasSuffix(normalized, ".k8s.io") {
			errs = append(errs, field.Invalid(fldPath.Child("options").Key(k), k, "kubernetes.io and k8s.io namespaces are reserved"))
		}
	}
	return errs
}

func validateAzureFile(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("azureFile")
	var errs field.ErrorList
	if vol.AzureFile.SecretName == "" {
		errs = append(errs, field.Required(fldPath.Child("secretName"), ""))
	}
	if vol.AzureFile.ShareName == "" {
		errs = append(errs, field.Required(fldPath.Child("shareName"), ""))
	}
	return errs
}

var (
	supportedAzureCachingModes = sets.New(v1.AzureDataDiskCachingNone, v1.AzureDataDiskCachingReadOnly, v1.AzureDataDiskCachingReadWrite)
	supportedAzureDiskKinds    = sets.New(v1.AzureSharedBlobDisk, v1.AzureDedicatedBlobDisk, v1.AzureManagedDisk)
)

// validateAzureDisk requires a disk name and URI, a known caching mode and kind, and a URI of the
// kind's shape: an ARM resource path for a managed disk, an https blob URL otherwise.
func validateAzureDisk(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	az := vol.AzureDisk
	fldPath := volPath.Child("azureDisk")
	var errs field.ErrorList
	if az.DiskName == "" {
		errs = append(errs, field.Required(fldPath.Child("diskName"), ""))
	}
	if az.DataDiskURI == "" {
		errs = append(errs, field.Required(fldPath.Child("diskURI"), ""))
	}
	if az.CachingMode != nil && !supportedAzureCachingModes.Has(*az.CachingMode) {
		errs = append(errs, field.NotSupported(fldPath.Child("cachingMode"), *az.CachingMode, sets.List(supportedAzureCachingModes)))
	}
	if az.Kind != nil && !supportedAzureDiskKinds.Has(*az.Kind) {
		errs = append(errs, field.NotSupported(fldPath.Child("kind"), *az.Kind, sets.List(supportedAzureDiskKinds)))
	}
	if az.Kind != nil {
		if *az.Kind == v1.AzureManagedDisk && !strings.HasPrefix(az.DataDiskURI, "/subscriptions/") {
			errs = append(errs, field.NotSupported(fldPath.Child("diskURI"), az.DataDiskURI,
				[]string{"/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"}))
		}
		if *az.Kind != v1.AzureManagedDisk && !strings.HasPrefix(az.DataDiskURI, "https://") {
			errs = append(errs, field.NotSupported(fldPath.Child("diskURI"), az.DataDiskURI,
				[]string{"https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd"}))
		}
	}
	return errs
}

func validateVsphereVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	if vol.VsphereVolume.VolumePath == "" {
		return field.ErrorList{field.Required(volPath.Child("vsphereVolume", "volumePath"), "")}
	}
	return nil
}

func validatePhotonPersistentDisk(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	if vol.PhotonPersistentDisk.PdID == "" {
		return field.ErrorList{field.Required(volPath.Child("photonPersistentDisk", "pdID"), "")}
	}
	return nil
}

func validatePortworxVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	if vol.PortworxVolume.VolumeID == "" {
		return field.ErrorList{field.Required(volPath.Child("portworxVolume", "volumeID"), "")}
	}
	return nil
}

func validateScaleIO(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	sio := vol.ScaleIO
	fldPath := volPath.Child("scaleIO")
	var errs field.ErrorList
	if sio.Gateway == "" {
		errs = append(errs, field.Required(fldPath.Child("gateway"), ""))
	}
	if sio.System == "" {
		errs = append(errs, field.Required(fldPath.Child("system"), ""))
	}
	if sio.VolumeName == "" {
		errs = append(errs, field.Required(fldPath.Child("volumeName"), ""))
	}
	return errs
}

// validateStorageOS requires a volume name that is a DNS label, a namespace that is one when set,
// and a name in a secret reference.
func validateStorageOS(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	sos := vol.StorageOS
	fldPath := volPath.Child("storageos")
	var errs field.ErrorList
	if sos.VolumeName == "" {
		errs = append(errs, field.Required(fldPath.Child("volumeName"), ""))
	} else {
		errs = append(errs, validateDNS1123Label(sos.VolumeName, fldPath.Child("volumeName"))...)
	}
	if sos.VolumeNamespace != "" {
		errs = append(errs, validateDNS1123Label(sos.VolumeNamespace, fldPath.Child("volumeNamespace"))...)
	}
	if sos.SecretRef != nil && sos.SecretRef.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("secretRef", "name"), ""))
	}
	return errs
}
