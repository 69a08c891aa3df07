package validation

// Volumes: their names, that each has exactly one source, and the volumes env vars read files from.
// The sources themselves are checked in volumesources.go, volumeprojected.go and volumeclaim.go.

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateVolumes is the API server's ValidateVolumes: it returns the valid volumes by name (those
// without an error, which containers may mount) and the errors. podMeta names the PVCs the pod's
// ephemeral volumes become.
func validateVolumes(volumes []v1.Volume, podMeta *metav1.ObjectMeta, fldPath *field.Path) (map[string]v1.VolumeSource, field.ErrorList) {
	var allErrs field.ErrorList
	createdClaims := ephemeralClaimNames(volumes, podMeta)
	vols := make(map[string]v1.VolumeSource, len(volumes))
	for i := range volumes {
		vol := &volumes[i]
		idxPath := fldPath.Index(i)
		errs := validateVolumeSource(vol, podMeta, idxPath)
		errs = append(errs, validateVolumeName(vol.Name, vols, idxPath.Child("name"))...)
		if len(errs) == 0 {
			vols[vol.Name] = vol.VolumeSource
		}
		allErrs = append(allErrs, errs...)
		if pvc := vol.PersistentVolumeClaim; pvc != nil && createdClaims.Has(pvc.ClaimName) {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("persistentVolumeClaim", "claimName"), pvc.ClaimName,
				"must not reference a PVC that gets created for an ephemeral volume"))
		}
	}
	return vols, allErrs
}

// validateVolumeName refuses an empty name, one that is not a DNS label, and the name of a valid
// volume already seen (an invalid one does not make a later namesake a duplicate).
func validateVolumeName(name string, valid map[string]v1.VolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath, ""))
	} else {
		errs = append(errs, validateDNS1123Label(name, fldPath)...)
	}
	if _, dup := valid[name]; dup {
		errs = append(errs, field.Duplicate(fldPath, name))
	}
	return errs
}

// ephemeralClaimNames returns the names of the PVCs the pod's ephemeral volumes become
// ("<pod>-<volume>"), or none when the pod has no name yet (a template, or a generateName).
func ephemeralClaimNames(volumes []v1.Volume, podMeta *metav1.ObjectMeta) sets.Set[string] {
	names := sets.New[string]()
	if podMeta == nil || podMeta.Name == "" {
		return names
	}
	for _, vol := range volumes {
		if vol.Ephemeral != nil {
			names.Insert(podMeta.Name + "-" + vol.Name)
		}
	}
	return names
}

// volumeSourceKind is one of the sources a volume may have, in the API server's order.
type volumeSourceKind struct {
	// name is the field the API server names when this source is a volume's second: its JSON
	// name, but for cephfs ("cephFS") and downwardAPI ("downwarAPI"), spelled as the API server
	// spells them.
	name string
	// isSet reports whether the volume has this source.
	isSet func(*v1.VolumeSource) bool
	// validate checks the source of the volume at volPath, when it is the volume's first.
	validate func(vol *v1.Volume, podMeta *metav1.ObjectMeta, volPath *field.Path) field.ErrorList
	// always checks what the API server checks of this source even when it is not the first.
	always func(vol *v1.Volume, volPath *field.Path) field.ErrorList
}

// volumeSourceKinds are the sources in the order the API server tries them: only the first one
// set is validated, each further one is refused.
var volumeSourceKinds = []volumeSourceKind{
	{name: "emptyDir", isSet: func(s *v1.VolumeSource) bool { return s.EmptyDir != nil }, validate: validateEmptyDir},
	{name: "hostPath", isSet: func(s *v1.VolumeSource) bool { return s.HostPath != nil }, validate: validateHostPath},
	{name: "gitRepo", isSet: func(s *v1.VolumeSource) bool { return s.GitRepo != nil }, validate: validateGitRepo},
	{name: "gcePersistentDisk", isSet: func(s *v1.VolumeSource) bool { return s.GCEPersistentDisk != nil }, validate: validateGCEPersistentDisk},
	{name: "awsElasticBlockStore", isSet: func(s *v1.VolumeSource) bool { return s.AWSElasticBlockStore != nil }, validate: validateAWSElasticBlockStore},
	{name: "secret", isSet: func(s *v1.VolumeSource) bool { return s.Secret != nil }, validate: validateSecretVolume},
	{name: "nfs", isSet: func(s *v1.VolumeSource) bool { return s.NFS != nil }, validate: validateNFS},
	{name: "iscsi", isSet: func(s *v1.VolumeSource) bool { return s.ISCSI != nil }, validate: validateISCSI, always: validateISCSIInitiatorNameLength},
	{name: "glusterfs", isSet: func(s *v1.VolumeSource) bool { return s.Glusterfs != nil }, validate: validateGlusterfs},
	{name: "flocker", isSet: func(s *v1.VolumeSource) bool { return s.Flocker != nil }, validate: validateFlocker},
	{name: "persistentVolumeClaim", isSet: func(s *v1.VolumeSource) bool { return s.PersistentVolumeClaim != nil }, validate: validatePersistentVolumeClaimVolume},
	{name: "rbd", isSet: func(s *v1.VolumeSource) bool { return s.RBD != nil }, validate: validateRBD},
	{name: "cinder", isSet: func(s *v1.VolumeSource) bool { return s.Cinder != nil }, validate: validateCinder},
	{name: "cephFS", isSet: func(s *v1.VolumeSource) bool { return s.CephFS != nil }, validate: validateCephFS},
	{name: "quobyte", isSet: func(s *v1.VolumeSource) bool { return s.Quobyte != nil }, validate: validateQuobyte},
	{name: "downwarAPI", isSet: func(s *v1.VolumeSource) bool { return s.DownwardAPI != nil }, validate: validateDownwardAPIVolume},
	{name: "fc", isSet: func(s *v1.VolumeSource) bool { return s.FC != nil }, validate: validateFC},
	{name: "flexVolume", isSet: func(s *v1.VolumeSource) bool { return s.FlexVolume != nil }, validate: validateFlexVolume},
	{name: "configMap", isSet: func(s *v1.VolumeSource) bool { return s.ConfigMap != nil }, validate: validateConfigMapVolume},
	{name: "azureFile", isSet: func(s *v1.VolumeSource) bool { return s.AzureFile != nil }, validate: validateAzureFile},
	{name: "vsphereVolume", isSet: func(s *v1.VolumeSource) bool { return s.VsphereVolume != nil }, validate: validateVsphereVolume},
	{name: "photonPersistentDisk", isSet: func(s *v1.VolumeSource) bool { return s.PhotonPersistentDisk != nil }, validate: validatePhotonPersistentDisk},
	{name: "portworxVolume", isSet: func(s *v1.VolumeSource) bool { return s.PortworxVolume != nil }, validate: validatePortworxVolume},
	{name: "azureDisk", isSet: func(s *v1.VolumeSource) bool { return s.AzureDisk != nil }, validate: validateAzureDisk},
	{name: "storageos", isSet: func(s *v1.VolumeSource) bool { return s.StorageOS != nil }, validate: validateStorageOS},
	{name: "projected", isSet: func(s *v1.VolumeSource) bool { return s.Projected != nil }, validate: validateProjectedVolume},
	{name: "scaleIO", isSet: func(s *v1.VolumeSource) bool { return s.ScaleIO != nil }, validate: validateScaleIO},
	{name: "csi", isSet: func(s *v1.VolumeSource) bool { return s.CSI != nil }, validate: validateCSIVolume},
	{name: "ephemeral", isSet: func(s *v1.VolumeSource) bool { return s.Ephemeral != nil }, validate: validateEphemeralVolume},
	{name: "image", isSet: func(s *v1.VolumeSource) bool { return s.Image != nil }, validate: validateImageVolume},
}

// validateVolumeSource is the API server's validateVolumeSource: the volume's first source is
// validated, any other is refused, and a volume without one is refused.
func validateVolumeSource(vol *v1.Volume, podMeta *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	found := false
	for i := range volumeSourceKinds {
		kind := &volumeSourceKinds[i]
		if !kind.isSet(&vol.VolumeSource) {
			continue
		}
		if found {
			allErrs = append(allErrs, field.Forbidden(volPath.Child(kind.name), "may not specify more than 1 volume type"))
		} else {
			found = true
			allErrs = append(allErrs, kind.validate(vol, podMeta, volPath)...)
		}
		if kind.always != nil {
			allErrs = append(allErrs, kind.always(vol, volPath)...)
		}
	}
	if !found {
		allErrs = append(allErrs, field.Required(volPath, "must specify a volume type"))
	}
	return allErrs
}

// validateFileKeyRefVolumes is the API server's validateFileKeyRefVolumes: an env var's fileKeyRef
// must name one of the pod's volumes (valid or not; the last of a name counts), and an emptyDir.
// Init containers come first, then containers, then ephemeral containers.
func validateFileKeyRefVolumes(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	sources := make(map[string]*v1.VolumeSource, len(spec.Volumes))
	for i := range spec.Volumes {
		sources[spec.Volumes[i].Name] = &spec.Volumes[i].VolumeSource
	}
	var allErrs field.ErrorList
	check := func(env []v1.EnvVar, ctrPath *field.Path) {
		for j := range env {
			if env[j].ValueFrom == nil || env[j].ValueFrom.FileKeyRef == nil {
				continue
			}
			name := env[j].ValueFrom.FileKeyRef.VolumeName
			namePath := ctrPath.Child("env").Index(j).Child("valueFrom", "fileKeyRef", "volumeName")
			if src, ok := sources[name]; !ok {
				allErrs = append(allErrs, field.NotFound(namePath, name))
			} else if src.EmptyDir == nil {
				allErrs = append(allErrs, field.Invalid(namePath, name, "referenced volume must be of type emptyDir"))
			}
		}
	}
	for i := range spec.InitContainers {
		check(spec.InitContainers[i].Env, fldPath.Child("initContainers").Index(i))
	}
	for i := range spec.Containers {
		check(spec.Containers[i].Env, fldPath.Child("containers").Index(i))
	}
	for i := range spec.EphemeralContainers {
		check(spec.EphemeralContainers[i].Env, fldPath.Child("ephemeralContainers").Index(i))
	}
	return allErrs
}
