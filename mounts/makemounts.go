package mounts

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// Input is what MakeMounts needs for one container. Only Pod, Container and Volumes are always
// required; the host backends are needed only when the container uses them.
type Input struct {
	// Pod is the container's pod; MakeMounts reads Spec.HostNetwork.
	Pod *v1.Pod
	// Container is the container whose volumeMounts are resolved.
	Container *v1.Container
	// PodDir is the pod's directory, <rootDir>/pods/<uid>; subPath bind targets live under it.
	PodDir string
	// PodIPs are the pod's IPs; with none (and no host network) there is no /etc/hosts mount.
	PodIPs []string
	// Volumes are the pod's mounted volumes by name.
	Volumes VolumeMap
	// HostUtils answers whether a subPath exists and the volume root's mode. Needed for subPaths.
	HostUtils HostUtils
	// Subpather creates subPath directories and bind mounts. Needed for subPaths.
	Subpather Subpather
	// Env is the container's environment, used to expand subPathExpr. Built from kubelet's list
	// of env vars, a later duplicate wins (kubelet: envVarsToMap).
	Env map[string]string
	// SupportsRecursiveReadOnly says whether the pod's runtime handler supports recursive
	// read-only mounts (kubelet: runtimeClassSupportsRecursiveReadOnlyMounts).
	SupportsRecursiveReadOnly bool
	// EnsureHostsFile writes the pod's managed hosts file and returns its host path (kubelet:
	// ensureHostsFile and getEtcHostsPath). Needed when the container gets the /etc/hosts mount.
	EnsureHostsFile func() (hostPath string, err error)
}

// subPathPlan is a subPath mount whose host side is prepared once every mount has been checked.
// fullPath is volumePath/subPath.
type subPathPlan struct {
	index      int
	fullPath   string
	mountName  string
	innerName  string
	volumePath string
	subPath    string
}

// MakeMounts resolves a container's volumeMounts to mounts, as kubelet's makeMounts
// (pkg/kubelet/kubelet_pods.go) does: volume lookup, SELinux relabel, subPath and subPathExpr with
// kubelet's checks, subPath directories and bind mounts through the Subpather, image volumes,
// propagation, read-only and recursive read-only, and the managed /etc/hosts mount.
//
// The mounts come in volumeMounts order, with the /etc/hosts mount last when the pod has IPs or
// uses the host network and no volumeMount is at exactly /etc/hosts. When the pod has an image
// volume (in Pod.Spec.Volumes or Volumes), every mount's subPath is also its ImageSubPath, as
// kubelet copies it whenever its image-volume map is set.
//
// Unlike kubelet, every mount is checked before anything touches the host, so an invalid mount
// anywhere leaves the host untouched; container and inner volume names that would be unsafe as
// path elements are rejected; and when a host step fails, MakeMounts undoes the subPath
// preparations it made before returning the error. Directories SafeMakeDir created inside a
// volume for a missing subPath stay, as in kubelet: they are volume content, and a retry needs
// them again. Things kubelet only logs come back as warnings.
//
// The returned cleanup is never nil. It undoes this call's subPath preparations, most recent first,
// and acts only the first time it is called. Call it only when the container will not be created (a
// later step failed, or CreateContainer did); do not call it once the container exists: the runtime
// reads the prepared paths when it starts the container, and they stay until
// Subpather.CleanSubPaths at pod teardown, as in kubelet. After an error it has already run.
func MakeMounts(in Input) (mounts []Mount, cleanup func(), warnings []string, err error) {
	if in.Pod == nil || in.Container == nil {
		return nil, noop, nil, errNilPodOrContainer()
	}
	ms, cleanup, warnings, err := appendMounts(make([]Mount, 0, mountCount(in)), in)
	if err != nil {
		return nil, noop, warnings, err
	}
	return ms, cleanup, warnings, nil
}

func errNilPodOrContainer() error {
	return newError(ErrMissingDependency, "MakeMounts: pod and container must not be nil", nil)
}

// mountCount is how many mounts the container gets at most: its volumeMounts and the hosts mount.
func mountCount(in Input) int {
	n := len(in.Container.VolumeMounts)
	if len(in.PodIPs) > 0 || in.Pod.Spec.HostNetwork {
		n++
	}
	return n
}

// appendMounts does MakeMounts' work, appending to mounts, which has room for mountCount(in)
// more zero-valued elements. On error the returned slice is nil.
func appendMounts(mounts []Mount, in Input) ([]Mount, func(), []string, error) {
	ctr := in.Container
	hostsMount := len(in.PodIPs) > 0 || in.Pod.Spec.HostNetwork
	base := len(mounts)
	var warnings []string

	var plansBuf [8]subPathPlan
	plans := plansBuf[:0]
	imageVolumes := false
	for i := range ctr.VolumeMounts {
		if ctr.VolumeMounts[i].SubPath != "" || ctr.VolumeMounts[i].SubPathExpr != "" {
			imageVolumes = hasImageVolume(in)
			break
		}
	}
	for i := range ctr.VolumeMounts {
		vm := &ctr.VolumeMounts[i]
		hostsMount = hostsMount && vm.MountPath != HostsContainerPath
		mounts = mounts[:base+i+1]
		plan, err := resolveMount(in, i, vm, &mounts[base+i], imageVolumes)
		if err != nil {
			return nil, noop, nil, err
		}
		if plan.volumePath != "" {
			plans = append(plans, plan)
		}
	}
	if len(plans) > 0 {
		if in.HostUtils == nil || in.Subpather == nil {
			return nil, noop, nil, newError(ErrMissingDependency, fmt.Sprintf("container %q uses a subPath but MakeMounts has no HostUtils or Subpather", ctr.Name), nil)
		}
		// A relative directory would put bind targets wherever the process happens to run.
		if !filepath.IsAbs(in.PodDir) {
			return nil, noop, nil, newError(ErrInvalidInput, fmt.Sprintf("container %q uses a subPath but the pod directory %q is not an absolute path", ctr.Name, in.PodDir), nil)
		}
	}
	if hostsMount && in.EnsureHostsFile == nil {
		return nil, noop, nil, newError(ErrMissingDependency, fmt.Sprintf("container %q needs the managed /etc/hosts mount but EnsureHostsFile is nil", ctr.Name), nil)
	}

	var undo undoList
	for _, p := range plans {
		hostPath, w, err := prepareSubPath(in, p, &undo)
		warnings = append(warnings, w...)
		if err != nil {
			undo.run()
			return nil, noop, warnings, err
		}
		mounts[base+p.index].HostPath = hostPath
	}

	if hostsMount {
		hostPath, err := in.EnsureHostsFile()
		if err != nil {
			undo.run()
			return nil, noop, warnings, err
		}
		mounts = append(mounts, Mount{Name: HostsMountName, ContainerPath: HostsContainerPath, HostPath: hostPath, SELinuxRelabel: true})
	}
	return mounts, undo.cleanupFunc(), warnings, nil
}

// hasImageVolume reports whether the pod has an image volume, which is when kubelet's
// image-volume map is set: its pod spec declares one, or the volume map holds one.
func hasImageVolume(in Input) bool {
	for i := range in.Pod.Spec.Volumes {
		if in.Pod.Spec.Volumes[i].Image != nil {
			return true
		}
	}
	for _, v := range in.Volumes {
		if v.Image != nil {
			return true
		}
	}
	return false
}

// resolveMount does every check for one volumeMount that needs no host access and fills m. The
// returned plan has a volumePath when a subPath must be prepared on the host. With imageVolumes,
// the subPath is also the mount's ImageSubPath, image volume or not.
func resolveMount(in Input, i int, vm *v1.VolumeMount, m *Mount, imageVolumes bool) (subPathPlan, error) {
	ctrName := in.Container.Name
	vol, ok := in.Volumes[vm.Name]
	if !ok || !vol.Mountable() {
		return subPathPlan{}, newError(ErrVolumeNotFound, fmt.Sprintf("cannot find volume %q to mount into container %q", vm.Name, ctrName), nil)
	}

	subPath := vm.SubPath
	if vm.SubPathExpr != "" {
		var err error
		if subPath, err = expandSubPathExpr(vm.Name, vm.SubPathExpr, in.Env); err != nil {
			return subPathPlan{}, err
		}
	}
	if subPath != "" {
		if err := ValidateSubPath(subPath); err != nil {
			return subPathPlan{}, err
		}
	}

	// m is a zero value (appendMounts), so setting fields one by one is enough and cheaper than a
	// struct copy.
	m.Name = vm.Name
	m.ContainerPath = vm.MountPath
	m.SELinuxRelabel = vol.SELinuxRelabel
	m.ReadOnly = vm.ReadOnly || vol.ReadOnly
	var plan subPathPlan
	if imageVolumes || vol.Image != nil {
		m.ImageSubPath = subPath
	}
	if vol.Image != nil {
		m.Image = vol.Image
	} else {
		var err error
		if m.HostPath, err = vol.GetPath(); err != nil {
			return subPathPlan{}, err
		}
		if subPath != "" {
			inner := vol.InnerVolumeName
			if inner == "" {
				inner = vm.Name
			}
			err := validateName("container name", ctrName)
			if err == nil {
				err = validateName("inner volume name", inner)
			}
			if err != nil {
				return subPathPlan{}, newError(ErrInvalidName, fmt.Sprintf("subPath of volumeMount %q of container %q: %v", vm.Name, ctrName, err), nil)
			}
			if !filepath.IsAbs(vol.HostPath) {
				return subPathPlan{}, newError(ErrInvalidInput, fmt.Sprintf("volume %q has host path %q, which is not absolute, and cannot hold a subPath", vm.Name, vol.HostPath), nil)
			}
			// m.HostPath becomes the bind target once every mount has been checked.
			plan = subPathPlan{index: i, mountName: vm.Name, innerName: inner, volumePath: vol.HostPath, subPath: subPath,
				fullPath: filepath.Join(vol.HostPath, subPath)}
		}
	}

	if !strings.HasPrefix(m.ContainerPath, "/") {
		m.ContainerPath = filepath.Clean("/" + m.ContainerPath)
	}
	var err error
	if m.Propagation, err = TranslateMountPropagation(vm.MountPropagation); err != nil {
		return subPathPlan{}, err
	}
	if vm.RecursiveReadOnly != nil {
		rro, err := ResolveRecursiveReadOnly(*vm, in.SupportsRecursiveReadOnly)
		if err != nil {
			return subPathPlan{}, fmt.Errorf("failed to resolve recursive read-only mode: %w", err)
		}
		m.RecursiveReadOnly = rro
	}
	if len(vm.BindMountOptions) > 0 {
		m.BindMountOptions = append([]string(nil), vm.BindMountOptions...)
	}
	return plan, nil
}

// prepareSubPath makes the subPath directory if it is missing and binds it into place, adding
// the Subpather's undo to undo. It returns the bind target.
func prepareSubPath(in Input, p subPathPlan, undo *undoList) (string, []string, error) {
	ctrName := in.Container.Name
	fullPath := p.fullPath
	var warnings []string
	exists, err := in.HostUtils.PathExists(fullPath)
	switch {
	case err != nil:
		warnings = append(warnings, fmt.Sprintf("could not determine if subPath %q of volumeMount %q of container %q exists, not creating it: %v", p.subPath, p.mountName, ctrName, err))
	case !exists:
		perm, err := in.HostUtils.GetMode(p.volumePath)
		if err != nil {
			return "", warnings, err
		}
		if err := in.Subpather.SafeMakeDir(p.subPath, p.volumePath, perm); err != nil && !errors.Is(err, os.ErrExist) {
			return "", warnings, newError(ErrSubPathSetup, fmt.Sprintf("failed to create subPath directory for volumeMount %q of container %q", p.mountName, ctrName), err)
		}
	}
	target, cleanup, err := in.Subpather.PrepareSafeSubpath(Subpath{
		VolumeMountIndex: p.index,
		Path:             fullPath,
		VolumeName:       p.innerName,
		VolumePath:       p.volumePath,
		PodDir:           in.PodDir,
		ContainerName:    ctrName,
	})
	if cleanup != nil {
		undo.add(cleanup)
	}
	if err != nil {
		return "", warnings, newError(ErrSubPathSetup, fmt.Sprintf("failed to prepare subPath for volumeMount %q of container %q", p.mountName, ctrName), err)
	}
	return target, warnings, nil
}
