package node

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/subpath"
	"github.com/podconfig/podconfig/volumes"
)

// setUpVolumes prepares the pod's volumes and returns them as podconfig's VolumeMap, as kubelet's
// volume manager does before the runtime manager runs the pod: every supported type with
// volumes.Manager, which writes
// configMap, secret, downwardAPI and projected volumes as kubelet's plugins do (secret-bearing
// ones on a tmpfs), sizes memory-backed emptyDirs as kubelet does and refuses hostPath
// backsteps. Image volumes are left to podruntime's SyncPod, which pulls them by their pull
// policy as kubelet's runtime manager does. Each volume set up is recorded for teardown; on error
// the caller's teardown undoes them.
func (r *podRun) setUpVolumes(ctx context.Context) (mounts.VolumeMap, error) {
	r.volMu.Lock()
	defer r.volMu.Unlock()
	vm := mounts.VolumeMap{}
	for i := range r.pod.Spec.Volumes {
		vol := &r.pod.Spec.Volumes[i]
		if err := subpath.ValidateName("volume name", vol.Name); err != nil {
			return nil, fmt.Errorf("pod %s: %w", r.name(), err)
		}
		if vol.Image != nil {
			continue
		}
		v, err := r.setUpVolume(ctx, vol)
		if err != nil {
			return nil, fmt.Errorf("pod %s: volume %q: %w", r.name(), vol.Name, err)
		}
		vm[vol.Name] = v
	}
	return vm, nil
}

func (r *podRun) setUpVolume(ctx context.Context, vol *v1.Volume) (mounts.Volume, error) {
	src := &vol.VolumeSource
	switch {
	case src.HostPath != nil && !filepath.IsAbs(src.HostPath.Path):
		// The API server lets a relative hostPath through, and kubelet would resolve it against
		// its own working directory, and the runtime against its own: refused here instead.
		return mounts.Volume{}, fmt.Errorf("hostPath %q is not absolute", src.HostPath.Path)
	case volumes.Supported(vol):
		v, err := r.n.vols.SetUp(ctx, r.pod, vol)
		if err != nil {
			return mounts.Volume{}, err
		}
		r.setUp = append(r.setUp, vol)
		return v, nil
	}
	return mounts.Volume{}, errors.New("volume type not supported by minikubelet (emptyDir, hostPath, configMap, secret, downwardAPI, projected and image are)")
}

// tearDownVolumes undoes setUpVolumes in reverse with volumes.Manager.TearDown: a memory-backed
// volume is unmounted, then its directory is removed with subpath.RemoveAllOneFilesystem,
// without crossing a mount or following a symlink the pod's containers may have planted.
func (r *podRun) tearDownVolumes() []error {
	r.volMu.Lock()
	defer r.volMu.Unlock()
	r.volumesDown = true
	var errs []error
	for i := len(r.setUp) - 1; i >= 0; i-- {
		if err := r.n.vols.TearDown(r.pod, r.setUp[i]); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// UpdateObjects puts in's ConfigMaps and Secrets in Config.Objects, each replacing the one of
// its namespace and name, then refreshes the configMap, secret, downwardAPI and projected
// volumes of every running pod, as kubelet's periodic remount of these volumes does after an
// update through the API server: a volume whose content changed is written anew (a new
// timestamped directory, the ..data symlink swapped by rename), so a container reading through
// ..data sees either the old files or the new ones, never a mix; an unchanged volume is not
// written. Kubelet resyncs every sync period; minikubelet has no API server to watch and
// updates when asked (on SIGHUP). in's Pods and Services are not used. It carries on past a
// failing volume, which keeps its previous content, and returns every error.
func (n *Node) UpdateObjects(ctx context.Context, in *Input) error {
	for _, obj := range in.volumeObjects {
		n.cfg.Objects.Add(obj)
	}
	n.runningMu.Lock()
	runs := make([]*podRun, 0, len(n.runs))
	for _, r := range n.runs {
		runs = append(runs, r)
	}
	n.runningMu.Unlock()
	var errs []error
	for _, r := range runs {
		errs = append(errs, r.resyncVolumes(ctx)...)
	}
	return errors.Join(errs...)
}

func (r *podRun) resyncVolumes(ctx context.Context) []error {
	r.volMu.Lock()
	defer r.volMu.Unlock()
	if r.volumesDown {
		return nil
	}
	var errs []error
	for _, vol := range r.setUp {
		src := &vol.VolumeSource
		if src.ConfigMap == nil && src.Secret == nil && src.DownwardAPI == nil && src.Projected == nil {
			continue
		}
		if _, err := r.n.vols.SetUp(ctx, r.pod, vol); err != nil {
			errs = append(errs, fmt.Errorf("pod %s: %w", r.name(), err))
		}
	}
	return errs
}
