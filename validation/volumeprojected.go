package validation

// downwardAPI and projected volumes: the files they write, whose paths must stay inside the volume
// and, in a projected volume, be distinct across its sources.

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func validateDownwardAPIVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	d := vol.DownwardAPI
	fldPath := volPath.Child("downwardAPI")
	// The API server drops the user fields of a volume's first source among secret, configMap,
	// downwardAPI and projected, in that order. A downwardAPI is validated only when the volume
	// has no secret, so it keeps them only beside a configMap.
	userKept := vol.ConfigMap != nil
	errs := validateFileMode(d.DefaultMode, fldPath.Child("defaultMode"))
	if userKept {
		errs = append(errs, validateUserField(d.DefaultUser, fldPath.Child("defaultUser"))...)
	}
	for i := range d.Items {
		// The API server reports an item's errors at the volume's path, without the item's index.
		errs = append(errs, validateDownwardAPIVolumeFile(&d.Items[i], fldPath, userKept)...)
	}
	return errs
}

// validateDownwardAPIVolumeFile is the API server's validateDownwardAPIVolumeFile: a file of a
// downwardAPI volume or projection holds exactly one of a pod field and a container resource.
func validateDownwardAPIVolumeFile(file *v1.DownwardAPIVolumeFile, fldPath *field.Path, userKept bool) field.ErrorList {
	var errs field.ErrorList
	if file.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("path"), ""))
	}
	errs = append(errs, validateLocalNonReservedPath(file.Path, fldPath.Child("path"))...)
	switch {
	case file.FieldRef != nil:
		errs = append(errs, validateObjectFieldSelector(file.FieldRef, &validVolumeDownwardAPIFieldPaths, fldPath.Child("fieldRef"))...)
		if file.ResourceFieldRef != nil {
			errs = append(errs, field.Invalid(fldPath, "resource", "fieldRef and resourceFieldRef can not be specified simultaneously"))
		}
	case file.ResourceFieldRef != nil:
		errs = append(errs, validateContainerResourceFieldSelector(file.ResourceFieldRef, &validContainerResourceFieldPaths,
			&validContainerResourceFieldPathPrefixes, fldPath.Child("resourceFieldRef"), true)...)
	default:
		errs = append(errs, field.Required(fldPath, "one of fieldRef and resourceFieldRef is required"))
	}
	errs = append(errs, validateFileMode(file.Mode, fldPath.Child("mode"))...)
	if userKept {
		errs = append(errs, validateUserField(file.User, fldPath.Child("user"))...)
	}
	return errs
}

// validateProjectedVolume checks the default mode and each source. A validated projected volume
// has no secret, configMap or downwardAPI source beside it, so its defaultUser is dropped by the
// API server before validation.
func validateProjectedVolume(vol *v1.Volume, _ *metav1.ObjectMeta, volPath *field.Path) field.ErrorList {
	fldPath := volPath.Child("projected")
	errs := validateFileMode(vol.Projected.DefaultMode, fldPath.Child("defaultMode"))
	seen := sets.New[string]()
	for i := range vol.Projected.Sources {
		errs = append(errs, validateProjection(&vol.Projected.Sources[i], seen, fldPath, fldPath.Child("sources").Index(i))...)
	}
	return errs
}

// projectionUserKept tells which of a projection's sources keep their user fields up to the API
// server's validation: with AtomicWriteVolumeUserFields off it drops those of the first source set,
// in the order secret, downwardAPI, configMap, serviceAccountToken, clusterTrustBundle,
// podCertificate, and leaves those of any further one.
type projectionUserKept struct {
	secret, downwardAPI, configMap, serviceAccountToken, clusterTrustBundle, podCertificate bool
}

func userKeptIn(src *v1.VolumeProjection) projectionUserKept {
	var kept projectionUserKept
	flags := []struct {
		set  bool
		kept *bool
	}{
		{src.Secret != nil, &kept.secret},
		{src.DownwardAPI != nil, &kept.downwardAPI},
		{src.ConfigMap != nil, &kept.configMap},
		{src.ServiceAccountToken != nil, &kept.serviceAccountToken},
		{src.ClusterTrustBundle != nil, &kept.clusterTrustBundle},
		{src.PodCertificate != nil, &kept.podCertificate},
	}
	dropped := false
	for _, f := range flags {
		if f.set {
			*f.kept = dropped
			dropped = true
		}
	}
	return kept
}

// validateProjection checks one source of a projected volume at srcPath; seen holds the file paths
// of the sources before it. The API server reports a duplicate path, and a service account
// token's path, at the volume's path (projPath).
func validateProjection(src *v1.VolumeProjection, seen sets.Set[string], projPath, srcPath *field.Path) field.ErrorList {
	kept := userKeptIn(src)
	var errs field.ErrorList
	n := 0
	if src.Secret != nil {
		n++
		errs = append(errs, validateProjectedKeys(src.Secret.Name, src.Secret.Items, seen, kept.secret, projPath, srcPath.Child("secret"))...)
	}
	if src.ConfigMap != nil {
		n++
		errs = append(errs, validateProjectedKeys(src.ConfigMap.Name, src.ConfigMap.Items, seen, kept.configMap, projPath, srcPath.Child("configMap"))...)
	}
	if src.DownwardAPI != nil {
		n++
		for i := range src.DownwardAPI.Items {
			item := &src.DownwardAPI.Items[i]
			errs = append(errs, validateDownwardAPIVolumeFile(item, srcPath.Child("downwardAPI"), kept.downwardAPI)...)
			if item.Path != "" {
				errs = append(errs, claimProjectedPath(item.Path, item.Path, seen, projPath)...)
			}
		}
	}
	if src.ServiceAccountToken != nil {
		n++
		errs = append(errs, validateServiceAccountTokenProjection(src.ServiceAccountToken, kept.serviceAccountToken, projPath, srcPath.Child("serviceAccountToken"))...)
	}
	if src.ClusterTrustBundle != nil {
		n++
		errs = append(errs, validateClusterTrustBundleProjection(src.ClusterTrustBundle, kept.clusterTrustBundle, srcPath.Child("clusterTrustBundle"))...)
		// Even an empty path is claimed.
		errs = append(errs, claimProjectedPath(src.ClusterTrustBundle.Path, src.ClusterTrustBundle.Path, seen, projPath)...)
	}
	if src.PodCertificate != nil {
		n++
		errs = append(errs, validatePodCertificateProjection(src.PodCertificate, kept.podCertificate, seen, projPath, srcPath.Child("podCertificate"))...)
	}
	if n > 1 {
		errs = append(errs, field.Forbidden(srcPath, "may not specify more than 1 volume type per source"))
	}
	return errs
}

// claimProjectedPath records a file path of a projected volume, or refuses it when an earlier
// source or item wrote it; the API server's bad value is the path, or a secret's or configMap's
// name (value).
func claimProjectedPath(p string, value string, seen sets.Set[string], projPath *field.Path) field.ErrorList {
	if seen.Has(p) {
		return field.ErrorList{field.Invalid(projPath, value, "conflicting duplicate paths")}
	}
	seen.Insert(p)
	return nil
}

// validateProjectedKeys checks a secret or configMap source: its name and items, whose paths must
// be new to the volume.
func validateProjectedKeys(name string, items []v1.KeyToPath, seen sets.Set[string], userKept bool, projPath, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if name == "" {
		errs = append(errs, field.Required(fldPath.Child("name"), ""))
	}
	for i := range items {
		errs = append(errs, validateKeyToPath(&items[i], fldPath.Child("items").Index(i), userKept)...)
		if items[i].Path != "" {
			errs = append(errs, claimProjectedPath(items[i].Path, name, seen, projPath)...)
		}
	}
	return errs
}

// validateServiceAccountTokenProjection requires a lifetime from 10 minutes to 2^32 seconds and a
// path inside the volume (a path kubelet writes the token to, not checked against the others).
func validateServiceAccountTokenProjection(sat *v1.ServiceAccountTokenProjection, userKept bool, projPath, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if exp := sat.ExpirationSeconds; exp == nil {
		errs = append(errs, field.Required(fldPath.Child("expirationSeconds"), ""))
	} else {
		if *exp < 10*60 {
			errs = append(errs, field.Invalid(fldPath.Child("expirationSeconds"), *exp, "may not specify a duration less than 10 minutes"))
		}
		if *exp > 1<<32 {
			errs = append(errs, field.Invalid(fldPath.Child("expirationSeconds"), *exp, "may not specify a duration larger than 2^32 seconds"))
		}
	}
	if sat.Path == "" {
		errs = append(errs, field.Required(projPath.Child("path"), ""))
	} else {
		errs = append(errs, validateLocalNonReservedPath(sat.Path, projPath.Child("path"))...)
	}
	if userKept {
		errs = append(errs, validateUserField(sat.User, fldPath.Child("user"))...)
	}
	return errs
}
