package validation

// The sources a volume takes from the node, the pod's objects or the runtime: emptyDir, hostPath,
// gitRepo, secret, configMap, persistentVolumeClaim, csi and image, and the checks of the files
// they project.
//
// With v1.37's default gates the API server drops two alpha fields before it validates a pod, and
// they are not checked here either: emptyDir.mode (EmptyDirVolumeMode), and the defaultUser and
// user fields (AtomicWriteVolumeUserFields). Those it drops from a volume's first source among
// secret, configMap, downwardAPI and projected only, and from a projection's first kind, so a
// further source keeps and has them checked: see validateDownwardAPIVolume and projectionUserKept.

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func validateEmptyDir(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	if limit := vol.EmptyDir.SizeLimit; limit != nil && limit.Sign() < 0 {
		return field.ErrorList{field.Forbidden(volPath.Child("emptyDir", "sizeLimit"), "SizeLimit field must be a valid resource quantity")}
	}
	return nil
}

// supportedHostPathTypes are the hostPath types, "" (no check of what is there) among them.
var supportedHostPathTypes = sets.New(
	v1.HostPathUnset, v1.HostPathDirectoryOrCreate, v1.HostPathDirectory, v1.HostPathFileOrCreate,
	v1.HostPathFile, v1.HostPathSocket, v1.HostPathCharDev, v1.HostPathBlockDev)

// validateHostPath requires a path without ".." elements (the node resolves it on the host, where
// ".." could leave the directory an administrator allowed) and a known type.
func validateHostPath(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	hp := vol.HostPath
	fldPath := volPath.Child("hostPath")
	if hp.Path == "" {
		return field.ErrorList{field.Required(fldPath.Child("path"), "")}
	}
	errs := validatePathNoBacksteps(hp.Path, fldPath.Child("path"))
	if hp.Type != nil && !supportedHostPathTypes.Has(*hp.Type) {
		// The API server reports the pointer, which prints as the quoted type.
		errs = append(errs, field.NotSupported(fldPath.Child("type"), hp.Type, sets.List(supportedHostPathTypes)))
	}
	return errs
}

// validateGitRepo requires a repository and a directory that stays inside the volume.
func validateGitRepo(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("gitRepo")
	var errs field.ErrorList
	if vol.GitRepo.Repository == "" {
		errs = append(errs, field.Required(fldPath.Child("repository"), ""))
	}
	return append(errs, validateLocalDescendingPath(vol.GitRepo.Directory, fldPath.Child("directory"))...)
}

func validateSecretVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	s := vol.Secret
	fldPath := volPath.Child("secret")
	var errs field.ErrorList
	if s.SecretName == "" {
		errs = append(errs, field.Required(fldPath.Child("secretName"), ""))
	}
	errs = append(errs, validateFileMode(s.DefaultMode, fldPath.Child("defaultMode"))...)
	// A volume whose first source is a secret always has its user fields dropped.
	return append(errs, validateKeyToPaths(s.Items, fldPath.Child("items"), false)...)
}

func validateConfigMapVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	cm := vol.ConfigMap
	fldPath := volPath.Child("configMap")
	var errs field.ErrorList
	if cm.Name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	errs = append(errs, validateFileMode(cm.DefaultMode, fldPath.Child("defaultMode"))...)
	// A configMap validated is the volume's first source of the four whose user fields are
	// dropped, so they are.
	return append(errs, validateKeyToPaths(cm.Items, fldPath.Child("items"), false)...)
}

func validateKeyToPaths(items []v1.KeyToPath, fldPath *field.Path, userKept bool) field.ErrorList {
	var errs field.ErrorList
	for i := range items {
		errs = append(errs, validateKeyToPath(&items[i], fldPath.Index(i), userKept)...)
	}
	return errs
}

// validateKeyToPath is the API server's validateKeyToPath: an item of a secret or configMap
// projected to a file, whose path stays inside the volume. userKept says whether its user field
// reached the API server's validation (see projectionUserKept).
func validateKeyToPath(kp *v1.KeyToPath, fldPath *field.Path, userKept bool) field.ErrorList {
	var errs field.ErrorList
	if kp.Key == "" {
		errs = append(errs, field.Required(fldPath.Child("key"), ""))
	}
	if kp.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(kp.Path, fldPath.Child("path"))...)
	errs = append(errs, validateFileMode(kp.Mode, fldPath.Child("mode"))...)
	if userKept {
		errs = append(errs, validateUserField(kp.User, fldPath.Child("user"))...)
	}
	return errs
}

// validateFileMode refuses a file mode outside 0 to 0777.
func validateFileMode(mode *int32, fldPath *field.Path) field.ErrorList {
	if mode != nil && (*mode < 0 || *mode > 0o777) {
		return field.ErrorList{field.Invalid(fldPath, *mode, fileModeErrorMsg)}
	}
	return nil
}

// validateUserField refuses a file owner that is not a valid user ID.
func validateUserField(user *int64, fldPath *field.Path) field.ErrorList {
	if user == nil {
		return nil
	}
	var errs field.ErrorList
	for _, msg := range validation.IsValidUserID(*user) {
		errs = append(errs, field.Invalid(fldPath, *user, msg))
	}
	return errs
}

// validateLocalNonReservedPath is the API server's ValidateLocalNonReservedPath: a file's path in a
// volume must be relative, without ".." elements, and must not start with ".." (kubelet keeps its
// own "..data" and timestamped directories there).
func validateLocalNonReservedPath(targetPath string, fldPath *field.Path) field.ErrorList {
	errs := validateLocalDescendingPath(targetPath, fldPath)
	// "../x" is already refused as a ".." element.
	if strings.HasPrefix(targetPath, "..") && !strings.HasPrefix(targetPath, "../") {
		errs = append(errs, field.Invalid(fldPath, targetPath, "must not start with '..'"))
	}
	return errs
}

func validatePersistentVolumeClaimVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	if vol.PersistentVolumeClaim.ClaimName == "" {
		return field.ErrorList{field.Required(volPath.Child("persistentVolumeClaim", "claimName"), "")}
	}
	return nil
}

// validateCSIVolume requires a driver name and, when a node publish secret is named, a valid name;
// the API server reports that name's errors at csi.name.
func validateCSIVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("csi")
	errs := validateCSIDriverName(vol.CSI.Driver, fldPath.Child("driver"))
	if ref := vol.CSI.NodePublishSecretRef; ref != nil {
		if ref.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("nodePublishSecretRef", "name"), ""))
		} else {
			for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(ref.Name, false) {
				errs = append(errs, field.Invalid(fldPath.Child("name"), ref.Name, msg))
			}
		}
	}
	return errs
}

// validateCSIDriverName is the API server's ValidateCSIDriverName: at most 63 bytes, and a DNS
// subdomain once lowercased.
func validateCSIDriverName(driver string, fldPath *field.Path) field.ErrorList {
	if driver == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var errs field.ErrorList
	if len(driver) > 63 {
		errs = append(errs, field.TooLong(fldPath, "", 63))
	}
	for _, msg := range validation.IsDNS1123Subdomain(strings.ToLower(driver)) {
		errs = append(errs, field.Invalid(fldPath, driver, msg))
	}
	return errs
}

// supportedImageVolumePullPolicies are the pull policies, as the API server lists them.
var supportedImageVolumePullPolicies = []v1.PullPolicy{v1.PullAlways, v1.PullIfNotPresent, v1.PullNever}

// validateImageVolume requires a reference and a pull policy (defaulting sets one; an empty one
// is refused as missing).
func validateImageVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("image")
	var errs field.ErrorList
	if vol.Image.Reference == "" {
		errs = append(errs, field.Required(fldPath.Child("reference"), ""))
	}
	switch policy := vol.Image.PullPolicy; policy {
	case v1.PullAlways, v1.PullIfNotPresent, v1.PullNever:
	case "":
		errs = append(errs, field.Required(fldPath.Child("pullPolicy"), ""))
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("pullPolicy"), policy, supportedImageVolumePullPolicies))
	}
	return errs
}
