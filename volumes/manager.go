package volumes

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/internal/errkind"
	"github.com/podconfig/podconfig/internal/pathelem"
	"github.com/podconfig/podconfig/internal/podid"
	"github.com/podconfig/podconfig/mounts"
)

// DefaultRootDir is kubelet's default --root-dir.
const DefaultRootDir = "/var/lib/kubelet"

// Plugin directory names (kubelet: the plugin name with "/" escaped as "~").
const (
	emptyDirPlugin    = "kubernetes.io~empty-dir"
	configMapPlugin   = "kubernetes.io~configmap"
	secretPlugin      = "kubernetes.io~secret"
	downwardAPIPlugin = "kubernetes.io~downward-api"
	projectedPlugin   = "kubernetes.io~projected"
)

// Manager sets up and tears down a pod's emptyDir, hostPath, configMap, secret, downwardAPI and
// projected volumes as kubelet's volume plugins do, and returns the mounts.Volume each becomes,
// ready for configgen's ContainerRequest. The zero value works on the real node: the Linux Host,
// /var/lib/kubelet, PodLevelResources on (its v1.37 default). Safe for concurrent use on
// different pods; calls for one pod must not overlap (kubelet's volume manager runs one
// operation per volume at a time).
type Manager struct {
	// RootDir is kubelet's --root-dir; empty means DefaultRootDir. A pod's volumes live in
	// <RootDir>/pods/<uid>/volumes/<plugin>/<name>; the pod directory must exist
	// (configgen's MakePodDataDirs makes it).
	RootDir string
	// Sources serves the payloads (see Sources.Payload) and the node's allocatable memory, the
	// ceiling of memory-backed volumes.
	Sources Sources
	// Host does the host's part; nil is NewLinuxHost().
	Host Host
	// DisablePodLevelResources turns the PodLevelResources feature gate off; it changes the pod
	// memory limit that caps a memory-backed volume.
	DisablePodLevelResources bool
}

func (m *Manager) host() Host {
	if m == nil || m.Host == nil {
		return NewLinuxHost()
	}
	return m.Host
}

// PodDir is the pod's directory, <RootDir>/pods/<uid>.
func (m *Manager) PodDir(pod *v1.Pod) string {
	if m == nil || pod == nil {
		return ""
	}
	root := m.RootDir
	if root == "" {
		root = DefaultRootDir
	}
	return filepath.Join(root, "pods", string(pod.UID))
}

// Supported reports whether the Manager sets up vol's type.
func Supported(vol *v1.Volume) bool {
	if vol == nil {
		return false
	}
	s := &vol.VolumeSource
	return s.EmptyDir != nil || s.HostPath != nil || s.ConfigMap != nil || s.Secret != nil || s.DownwardAPI != nil || s.Projected != nil
}

// SetUp prepares one volume of pod as kubelet's plugin SetUp does and returns what it became. A
// volume already set up is refreshed: the atomic-writer volumes are rewritten when their content
// changed (kubelet remounts them periodically), emptyDir and hostPath are checked again. On error
// nothing this call made is left: a volume it created is torn down; one that existed stays as it
// was, its previous content in place. The error is a *VolumeError with kubelet's text.
func (m *Manager) SetUp(ctx context.Context, pod *v1.Pod, vol *v1.Volume) (mounts.Volume, error) {
	if m == nil || pod == nil || vol == nil {
		return mounts.Volume{}, errors.New("set-up needs a pod and one of its volumes")
	}
	v, err := m.setUp(ctx, pod, vol)
	if err != nil {
		return mounts.Volume{}, &VolumeError{Op: opSetUp, Pod: pod, Volume: vol.Name, Err: err}
	}
	return v, nil
}

func (m *Manager) checkNames(pod *v1.Pod, vol *v1.Volume) error {
	// The pod's directory and the tokens' keys come from its identity: the node's rules apply.
	if _, msg := podid.Problem(pod.Namespace, pod.Name, pod.UID); msg != "" {
		return errkind.New(ErrInvalidName, msg, nil)
	}
	if msg := pathelem.Validate("volume name", vol.Name); msg != "" {
		return errkind.New(ErrInvalidName, msg, nil)
	}
	return nil
}

func (m *Manager) setUp(ctx context.Context, pod *v1.Pod, vol *v1.Volume) (mounts.Volume, error) {
	src := &vol.VolumeSource
	if src.HostPath != nil {
		return m.setUpHostPath(src.HostPath)
	}
	if err := m.checkNames(pod, vol); err != nil {
		return mounts.Volume{}, err
	}
	switch {
	case src.EmptyDir != nil:
		return m.setUpEmptyDir(ctx, pod, vol.Name, src.EmptyDir)
	case src.ConfigMap != nil:
		return m.setUpAtomic(ctx, pod, vol, configMapPlugin, v1.StorageMediumDefault, "*configmap.configMapVolumeMounter")
	case src.Secret != nil:
		return m.setUpAtomic(ctx, pod, vol, secretPlugin, v1.StorageMediumMemory, "*secret.secretVolumeMounter")
	case src.DownwardAPI != nil:
		return m.setUpAtomic(ctx, pod, vol, downwardAPIPlugin, v1.StorageMediumMemory, "*downwardapi.downwardAPIVolumeMounter")
	case src.Projected != nil:
		return m.setUpAtomic(ctx, pod, vol, projectedPlugin, v1.StorageMediumMemory, "*projected.projectedVolumeMounter")
	}
	return mounts.Volume{}, fmt.Errorf("%w: %s", ErrNotSupported, volumeType(vol))
}

// setUpAtomic is the SetUpAt shared by the configMap, secret, downwardAPI and projected
// plugins: the payload first, so a failure touches nothing; then the wrapped emptyDir (on disk
// or tmpfs), the nested mount points, and the atomic write with the read-only fsGroup pass.
func (m *Manager) setUpAtomic(ctx context.Context, pod *v1.Pod, vol *v1.Volume, plugin string, medium v1.StorageMedium, mounterType string) (mounts.Volume, error) {
	var size int64
	if medium == v1.StorageMediumMemory {
		var err error
		if size, err = m.memorySize(ctx, pod, nil); err != nil {
			return mounts.Volume{}, err
		}
	}
	proj, err := m.Sources.projection(ctx, pod, vol, &budget{max: m.Sources.MaxPayloadBytes})
	if err != nil {
		return mounts.Volume{}, err
	}
	payload, err := ValidatePayload(proj.payload())
	if err != nil {
		return mounts.Volume{}, err
	}
	nested, err := nestedMountpoints(vol.Name, pod)
	if err != nil {
		return mounts.Volume{}, err
	}
	dir, created, err := m.setUpEmptyDirAt(pod, plugin, vol.Name, "wrapped_"+vol.Name, medium, size)
	if err != nil {
		return mounts.Volume{}, err
	}
	if err := m.writeAtomic(dir, nested, payload, fsGroupOf(pod)); err != nil {
		if created {
			_ = m.tearDownAt(pod, plugin, vol.Name, "wrapped_"+vol.Name)
		}
		return mounts.Volume{}, err
	}
	return mounts.Volume{HostPath: dir, ReadOnly: true, SELinuxRelabel: true, MounterType: mounterType}, nil
}

// writeAtomic makes the nested mount points and writes the payload with the read-only fsGroup
// pass. The volume directory is closed when it returns, so a teardown after a failure can
// unmount it.
func (m *Manager) writeAtomic(dir string, nested []string, payload Payload, fsGroup *int64) error {
	fsys, err := m.host().OpenVolume(dir)
	if err != nil {
		return err
	}
	defer closeFS(fsys)
	for _, n := range nested {
		if err := mkdirAllFS(fsys, n, 0o755); err != nil {
			return fmt.Errorf("unable to create nested volume mountpoints: %v", err)
		}
	}
	return NewAtomicWriter(fsys).Write(payload, func(string) error { return ChangeOwnership(fsys, fsGroup, true) })
}

// TearDown undoes SetUp for one volume (kubelet: the plugin's TearDownAt): a memory-backed
// volume is unmounted, then the volume directory is removed without crossing a mount or
// following a symlink, and the ready marker with it; hostPath volumes are left alone. For a
// projected volume every cached token bound to the pod is dropped when Sources.Tokens can
// (DeleteServiceAccountToken). A volume that is not there is not an error.
func (m *Manager) TearDown(pod *v1.Pod, vol *v1.Volume) error {
	if m == nil || pod == nil || vol == nil {
		return errors.New("teardown needs a pod and one of its volumes")
	}
	src := &vol.VolumeSource
	if src.HostPath != nil {
		return nil
	}
	if err := m.checkNames(pod, vol); err != nil {
		return &VolumeError{Op: opTearDown, Pod: pod, Volume: vol.Name, Err: err}
	}
	var err error
	switch {
	case src.EmptyDir != nil:
		err = m.tearDownAt(pod, emptyDirPlugin, vol.Name, vol.Name)
	case src.ConfigMap != nil:
		err = m.tearDownAt(pod, configMapPlugin, vol.Name, "wrapped_"+vol.Name)
	case src.Secret != nil:
		err = m.tearDownAt(pod, secretPlugin, vol.Name, "wrapped_"+vol.Name)
	case src.DownwardAPI != nil:
		err = m.tearDownAt(pod, downwardAPIPlugin, vol.Name, "wrapped_"+vol.Name)
	case src.Projected != nil:
		err = m.tearDownAt(pod, projectedPlugin, vol.Name, "wrapped_"+vol.Name)
		if d, ok := m.Sources.Tokens.(interface{ DeleteServiceAccountToken(types.UID) }); ok && err == nil {
			d.DeleteServiceAccountToken(pod.UID)
		}
	default:
		err = fmt.Errorf("%w: %s", ErrNotSupported, volumeType(vol))
	}
	if err != nil {
		return &VolumeError{Op: opTearDown, Pod: pod, Volume: vol.Name, Err: err}
	}
	return nil
}

// SetUpPod sets up every volume of pod whose type the Manager supports, in spec order, and
// returns them by name; the others are left to the caller. On error the volumes this call
// created are torn down again.
func (m *Manager) SetUpPod(ctx context.Context, pod *v1.Pod) (mounts.VolumeMap, error) {
	if m == nil || pod == nil {
		return nil, errors.New("set-up needs a pod")
	}
	out := mounts.VolumeMap{}
	var made []*v1.Volume
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		if !Supported(vol) {
			continue
		}
		existed := m.exists(pod, vol)
		v, err := m.SetUp(ctx, pod, vol)
		if err != nil {
			for j := len(made) - 1; j >= 0; j-- {
				_ = m.TearDown(pod, made[j])
			}
			return nil, err
		}
		if !existed {
			made = append(made, vol)
		}
		out[vol.Name] = v
	}
	return out, nil
}

// TearDownPod tears down every supported volume of pod, going on after an error and returning
// the first.
func (m *Manager) TearDownPod(pod *v1.Pod) error {
	if m == nil || pod == nil {
		return errors.New("teardown needs a pod")
	}
	var first error
	for i := range pod.Spec.Volumes {
		vol := &pod.Spec.Volumes[i]
		if !Supported(vol) {
			continue
		}
		if err := m.TearDown(pod, vol); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// exists reports whether vol's directory is there already.
func (m *Manager) exists(pod *v1.Pod, vol *v1.Volume) bool {
	plugin := ""
	src := &vol.VolumeSource
	switch {
	case src.EmptyDir != nil:
		plugin = emptyDirPlugin
	case src.ConfigMap != nil:
		plugin = configMapPlugin
	case src.Secret != nil:
		plugin = secretPlugin
	case src.DownwardAPI != nil:
		plugin = downwardAPIPlugin
	case src.Projected != nil:
		plugin = projectedPlugin
	default:
		return true
	}
	if m.checkNames(pod, vol) != nil {
		return false
	}
	_, err := m.host().Stat(filepath.Join(m.PodDir(pod), "volumes", plugin, vol.Name))
	return err == nil
}

// mkdirAllFS creates rel and its missing parents below the FS's root with perm.
func mkdirAllFS(fsys FS, rel string, perm fs.FileMode) error {
	parts, err := elems(rel)
	if err != nil {
		return err
	}
	cur := ""
	for _, p := range parts {
		if cur != "" {
			cur += "/"
		}
		cur += p
		if err := fsys.Mkdir(cur, perm); err != nil && !isExist(err) {
			return err
		}
	}
	return nil
}
