package validation

// A container's volumeMounts and volumeDevices, against the pod's volumes and each other.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The values the API server accepts, each list sorted as it prints them.
var (
	mountsPropagationSet       = sets.New(v1.MountPropagationBidirectional, v1.MountPropagationHostToContainer, v1.MountPropagationNone)
	mountsPropagations         = sets.List(mountsPropagationSet)
	mountsRecursiveReadOnlys   = sets.List(sets.New(v1.RecursiveReadOnlyDisabled, v1.RecursiveReadOnlyIfPossible, v1.RecursiveReadOnlyEnabled))
	mountsBindMountOptionSet   = sets.New(string(v1.BindMountOptionNoExec), string(v1.BindMountOptionNoDev), string(v1.BindMountOptionNoSUID))
	mountsBindMountOptionsList = sets.List(mountsBindMountOptionSet)
)

// validateVolumeMounts is the API server's ValidateVolumeMounts for ctr's mounts: each names a
// volume of the pod and a unique path that no device of the container uses, with well-formed
// subPath, subPathExpr, propagation, recursive read-only and bind options.
//
// The subPath, subPathExpr, mountPropagation and recursiveReadOnly errors name the list
// ("volumeMounts.subPath"), not the entry, as the API server's do.
func validateVolumeMounts(ctr *v1.Container, vols map[string]v1.VolumeSource, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	devices := make(map[string]string, len(ctr.VolumeDevices))
	for _, d := range ctr.VolumeDevices {
		devices[d.Name] = d.DevicePath
	}
	paths := sets.New[string]()
	for i := range ctr.VolumeMounts {
		mnt := &ctr.VolumeMounts[i]
		idxPath := fldPath.Index(i)
		if mnt.Name == "" {
			allErrs = append(allErrs, field.Required(idxPath.Child("name"), ""))
		}
		if _, ok := vols[mnt.Name]; !ok {
			allErrs = append(allErrs, field.NotFound(idxPath.Child("name"), mnt.Name))
		}
		if mnt.MountPath == "" {
			allErrs = append(allErrs, field.Required(idxPath.Child("mountPath"), ""))
		}
		if paths.Has(mnt.MountPath) {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("mountPath"), mnt.MountPath, "must be unique"))
		}
		paths.Insert(mnt.MountPath)
		if _, ok := devices[mnt.Name]; ok {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("name"), mnt.Name, "must not already exist in volumeDevices"))
		}
		if mountsHasPath(devices, mnt.MountPath) {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("mountPath"), mnt.MountPath, "must not already exist as a path in volumeDevices"))
		}
		allErrs = append(allErrs, validateMountSubPaths(mnt, idxPath, fldPath)...)
		if mnt.MountPropagation != nil {
			allErrs = append(allErrs, validateMountPropagation(*mnt.MountPropagation, ctr, fldPath.Child("mountPropagation"))...)
		}
		allErrs = append(allErrs, validateMountRecursiveReadOnly(mnt, fldPath.Child("recursiveReadOnly"))...)
		allErrs = append(allErrs, validateBindMountOptions(mnt.BindMountOptions, idxPath.Child("bindMountOptions"))...)
		if len(mnt.BindMountOptions) > 0 {
			if vs, ok := vols[mnt.Name]; ok && vs.Image != nil {
				allErrs = append(allErrs, field.Invalid(idxPath.Child("bindMountOptions"), mnt.BindMountOptions, "bindMountOptions may not be used with image volumes"))
			}
		}
	}
	return allErrs
}

// mountsHasPath reports whether any value of byName is path.
func mountsHasPath(byName map[string]string, path string) bool {
	for _, p := range byName {
		if p == path {
			return true
		}
	}
	return false
}

// validateMountSubPaths checks a mount's subPath and subPathExpr: relative paths without "..",
// and not both. listPath is the volumeMounts list, which the path errors name.
func validateMountSubPaths(mnt *v1.VolumeMount, idxPath, listPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if mnt.SubPath != "" {
		allErrs = append(allErrs, validateLocalDescendingPath(mnt.SubPath, listPath.Child("subPath"))...)
	}
	if mnt.SubPathExpr != "" {
		if mnt.SubPath != "" {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("subPathExpr"), mnt.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
		}
		allErrs = append(allErrs, validateLocalDescendingPath(mnt.SubPathExpr, listPath.Child("subPathExpr"))...)
	}
	return allErrs
}

// validateMountPropagation refuses an unknown propagation, and Bidirectional in a container that
// is not privileged: it lets the container's mounts reach the host.
func validateMountPropagation(mode v1.MountPropagationMode, ctr *v1.Container, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if !mountsPropagationSet.Has(mode) {
		allErrs = append(allErrs, field.NotSupported(fldPath, mode, mountsPropagations))
	}
	sc := ctr.SecurityContext
	privileged := sc != nil && sc.Privileged != nil && *sc.Privileged
	if mode == v1.MountPropagationBidirectional && !privileged {
		allErrs = append(allErrs, field.Forbidden(fldPath, "Bidirectional mount propagation is available only to privileged containers"))
	}
	return allErrs
}

// validateMountRecursiveReadOnly checks recursiveReadOnly: a known value, and Enabled or
// IfPossible only on a read-only mount without propagation (a recursive read-only mount cannot
// receive mounts from the host).
func validateMountRecursiveReadOnly(mnt *v1.VolumeMount, fldPath *field.Path) field.ErrorList {
	if mnt.RecursiveReadOnly == nil {
		return nil
	}
	var allErrs field.ErrorList
	switch *mnt.RecursiveReadOnly {
	case v1.RecursiveReadOnlyDisabled:
	case v1.RecursiveReadOnlyEnabled, v1.RecursiveReadOnlyIfPossible:
		if !mnt.ReadOnly {
			allErrs = append(allErrs, field.Forbidden(fldPath, "may only be specified when readOnly is true"))
		}
		if mnt.MountPropagation != nil && *mnt.MountPropagation != v1.MountPropagationNone {
			allErrs = append(allErrs, field.Forbidden(fldPath, "may only be specified when mountPropagation is None or not specified"))
		}
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath, *mnt.RecursiveReadOnly, mountsRecursiveReadOnlys))
	}
	return allErrs
}

// validateBindMountOptions refuses an unknown or repeated bind mount option.
func validateBindMountOptions(opts []string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := sets.New[string]()
	for i, opt := range opts {
		if !mountsBindMountOptionSet.Has(opt) {
			allErrs = append(allErrs, field.NotSupported(fldPath.Index(i), opt, mountsBindMountOptionsList))
		}
		if seen.Has(opt) {
			allErrs = append(allErrs, field.Duplicate(fldPath.Index(i), opt))
		}
		seen.Insert(opt)
	}
	return allErrs
}

// validateVolumeDevices is the API server's ValidateVolumeDevices for ctr's devices: each names
// a persistentVolumeClaim or ephemeral volume of the pod, once, at a unique path with no ".."
// that no mount of the container uses.
func validateVolumeDevices(ctr *v1.Container, vols map[string]v1.VolumeSource, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	mounts := make(map[string]string, len(ctr.VolumeMounts))
	for _, m := range ctr.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	paths, names := sets.New[string](), sets.New[string]()
	for i, dev := range ctr.VolumeDevices {
		idxPath := fldPath.Index(i)
		src, found := vols[dev.Name]
		if dev.Name == "" {
			allErrs = append(allErrs, field.Required(idxPath.Child("name"), ""))
		}
		if names.Has(dev.Name) {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("name"), dev.Name, "must be unique"))
		}
		if found && src.PersistentVolumeClaim == nil && src.Ephemeral == nil {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("name"), dev.Name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
		}
		if !found {
			allErrs = append(allErrs, field.NotFound(idxPath.Child("name"), dev.Name))
		}
		if dev.DevicePath == "" {
			allErrs = append(allErrs, field.Required(idxPath.Child("devicePath"), ""))
		}
		if paths.Has(dev.DevicePath) {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("devicePath"), dev.DevicePath, "must be unique"))
		}
		// A path with ".." is refused and, as in the API server, not recorded for uniqueness.
		if dev.DevicePath != "" && len(validatePathNoBacksteps(dev.DevicePath, fldPath.Child("devicePath"))) > 0 {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("devicePath"), dev.DevicePath, "can not contain backsteps ('..')"))
		} else {
			paths.Insert(dev.DevicePath)
		}
		if _, ok := mounts[dev.Name]; ok {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("name"), dev.Name, "must not already exist in volumeMounts"))
		}
		if mountsHasPath(mounts, dev.DevicePath) {
			allErrs = append(allErrs, field.Invalid(idxPath.Child("devicePath"), dev.DevicePath, "must not already exist as a path in volumeMounts"))
		}
		if dev.Name != "" {
			names.Insert(dev.Name)
		}
	}
	return allErrs
}
