package node

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/resources"
	"github.com/podconfig/podconfig/subpath"
)

// The modes kubelet's volume plugins use.
const (
	emptyDirMode      = 0o777 // emptyDir, and the directory of the atomic-writer volumes
	atomicDirMode     = 0o755 // the timestamped directory and directories inside it
	defaultVolumeMode = 0o644 // the API's default defaultMode of configMap, secret, downwardAPI, projected
)

// volumeDir is a directory a volume plugin made under the pod directory; teardown removes it.
type volumeDir struct {
	path  string
	tmpfs bool // mounted: unmount first
}

// setUpVolumes prepares the pod's volumes as kubelet's volume plugins would and returns them as
// podconfig's VolumeMap. Volume plugins are the node's business, not podconfig's: this is what a
// custom kubelet writes itself.
func (r *podRun) setUpVolumes(ctx context.Context) (mounts.VolumeMap, error) {
	vm := mounts.VolumeMap{}
	for i := range r.pod.Spec.Volumes {
		vol := &r.pod.Spec.Volumes[i]
		if err := subpath.ValidateName("volume name", vol.Name); err != nil {
			return nil, fmt.Errorf("pod %s: %w", r.name(), err)
		}
		v, err := r.setUpVolume(ctx, vol)
		if err != nil {
			return nil, fmt.Errorf("pod %s: volume %q: %w", r.name(), vol.Name, err)
		}
		vm[vol.Name] = v
	}
	return vm, nil
}

func (r *podRun) pluginDir(plugin, volume string) string {
	return filepath.Join(r.podDir, "volumes", "kubernetes.io~"+plugin, volume)
}

func (r *podRun) setUpVolume(ctx context.Context, vol *v1.Volume) (mounts.Volume, error) {
	src := vol.VolumeSource
	switch {
	case src.EmptyDir != nil:
		dir, err := r.makeVolumeDir("empty-dir", vol.Name)
		if err != nil {
			return mounts.Volume{}, err
		}
		if src.EmptyDir.Medium == v1.StorageMediumMemory {
			if err := r.mountMemory(dir, src.EmptyDir.SizeLimit); err != nil {
				return mounts.Volume{}, err
			}
		}
		return mounts.Volume{HostPath: dir}, nil
	case src.HostPath != nil:
		if err := checkHostPath(src.HostPath); err != nil {
			return mounts.Volume{}, err
		}
		return mounts.Volume{HostPath: src.HostPath.Path}, nil
	case src.ConfigMap != nil:
		files, err := r.configMapFiles(ctx, src.ConfigMap.LocalObjectReference.Name, src.ConfigMap.Items, src.ConfigMap.Optional, modeOr(src.ConfigMap.DefaultMode))
		if err != nil {
			return mounts.Volume{}, err
		}
		return r.atomicVolume("configmap", vol.Name, files, false)
	case src.Secret != nil:
		files, err := r.secretFiles(ctx, src.Secret.SecretName, src.Secret.Items, src.Secret.Optional, modeOr(src.Secret.DefaultMode))
		if err != nil {
			return mounts.Volume{}, err
		}
		return r.atomicVolume("secret", vol.Name, files, true)
	case src.DownwardAPI != nil:
		files, err := r.downwardAPIFiles(ctx, src.DownwardAPI.Items, modeOr(src.DownwardAPI.DefaultMode))
		if err != nil {
			return mounts.Volume{}, err
		}
		return r.atomicVolume("downward-api", vol.Name, files, true)
	case src.Projected != nil:
		files, err := r.projectedFiles(ctx, src.Projected)
		if err != nil {
			return mounts.Volume{}, err
		}
		return r.atomicVolume("projected", vol.Name, files, true)
	case src.Image != nil:
		// Kubelet's image volumes: the image by its pull policy, mounted by the runtime from the
		// reference it resolved, read-only as kubelet's image plugin reports its volumes.
		ref, err := r.n.ensureImageRef(ctx, src.Image.Reference, src.Image.PullPolicy, nil)
		if err != nil {
			return mounts.Volume{}, err
		}
		return mounts.Volume{Image: &runtimeapi.ImageSpec{Image: ref, UserSpecifiedImage: src.Image.Reference}, ReadOnly: true}, nil
	}
	return mounts.Volume{}, errors.New("volume type not supported by minikubelet (emptyDir, hostPath, configMap, secret, downwardAPI, projected and image are)")
}

// makeVolumeDir makes a plugin's directory for a volume, mode 0777 whatever the umask, as
// kubelet's emptyDir does, and records it for teardown.
func (r *podRun) makeVolumeDir(plugin, volume string) (string, error) {
	dir := r.pluginDir(plugin, volume)
	if err := os.MkdirAll(filepath.Dir(dir), 0o750); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, emptyDirMode); err != nil {
		return "", err
	}
	r.volumeDirs = append(r.volumeDirs, volumeDir{path: dir})
	return dir, os.Chmod(dir, emptyDirMode)
}

// mountMemory mounts a tmpfs on the volume directory dir, the one makeVolumeDir made last, sized
// as kubelet sizes a memory-backed emptyDir.
func (r *podRun) mountMemory(dir string, sizeLimit *resource.Quantity) error {
	if err := mountTmpfs(dir, emptyDirMemorySize(r.n.allocatableMemory, sizeLimit, r.pod)); err != nil {
		return err
	}
	r.volumeDirs[len(r.volumeDirs)-1].tmpfs = true
	return nil
}

// emptyDirMemorySize is kubelet's calculateEmptyDirMemorySize: a memory-backed volume's size is
// the node's allocatable memory, or the pod's memory limit when every container declares one (or
// the pod does) and it is below that, or the volume's sizeLimit when positive and below both. A
// sizeLimit above the node's memory does not make a tmpfs that could take more than the node
// has.
func emptyDirMemorySize(allocatable int64, sizeLimit *resource.Quantity, pod *v1.Pod) int64 {
	size := allocatable
	declared := true
	for _, cs := range [][]v1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range cs {
			if c.Resources.Limits.Memory().IsZero() {
				declared = false
			}
		}
	}
	if pod.Spec.Resources != nil && !pod.Spec.Resources.Limits.Memory().IsZero() {
		declared = true
	}
	if declared {
		if limit, ok := resources.PodLimits(pod, true)[v1.ResourceMemory]; ok && limit.Value() > 0 && limit.Value() <= size {
			size = limit.Value()
		}
	}
	if sizeLimit != nil && sizeLimit.Sign() > 0 && sizeLimit.Value() <= size {
		size = sizeLimit.Value()
	}
	return size
}

func modeOr(mode *int32) os.FileMode {
	if mode == nil {
		return defaultVolumeMode
	}
	return os.FileMode(*mode) & os.ModePerm
}

// checkHostPath applies the hostPath volume's type, as kubelet's hostPath plugin does.
func checkHostPath(hp *v1.HostPathVolumeSource) error {
	p := hp.Path
	if !filepath.IsAbs(p) {
		return fmt.Errorf("hostPath %q is not absolute", p)
	}
	// Kubelet's hostPath SetUp (validation.ValidatePathNoBacksteps): /tmp/../etc is not /tmp.
	if slices.Contains(strings.Split(p, "/"), "..") {
		return fmt.Errorf("invalid HostPath `%s`: must not contain '..'", p)
	}
	typ := v1.HostPathUnset
	if hp.Type != nil {
		typ = *hp.Type
	}
	fi, statErr := os.Stat(p)
	switch typ {
	case v1.HostPathUnset:
		return nil
	case v1.HostPathDirectoryOrCreate:
		if errors.Is(statErr, os.ErrNotExist) {
			return os.MkdirAll(p, 0o755)
		}
		typ = v1.HostPathDirectory
	case v1.HostPathFileOrCreate:
		if errors.Is(statErr, os.ErrNotExist) {
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			return f.Close()
		}
		typ = v1.HostPathFile
	}
	if statErr != nil {
		return fmt.Errorf("hostPath type check failed: %s does not exist", p)
	}
	ok, what := false, ""
	switch typ {
	case v1.HostPathDirectory:
		ok, what = fi.IsDir(), "a directory"
	case v1.HostPathFile:
		ok, what = fi.Mode().IsRegular(), "a file"
	case v1.HostPathSocket:
		ok, what = fi.Mode()&os.ModeSocket != 0, "a socket file"
	case v1.HostPathCharDev:
		ok, what = fi.Mode()&os.ModeCharDevice != 0, "a character device"
	case v1.HostPathBlockDev:
		ok, what = fi.Mode()&os.ModeDevice != 0 && fi.Mode()&os.ModeCharDevice == 0, "a block device"
	default:
		return fmt.Errorf("hostPath type %q is not supported", typ)
	}
	if !ok {
		return fmt.Errorf("hostPath type check failed: %s is not %s", p, what)
	}
	return nil
}

// fileProjection is one file of an atomic-writer volume.
type fileProjection struct {
	data []byte
	mode os.FileMode
}

// keyFiles is kubelet's MakePayload for configMap and secret volumes: every key under its own
// name, or the listed items; a listed key that is missing is an error unless the source is
// optional.
func keyFiles(data map[string][]byte, items []v1.KeyToPath, optional bool, mode os.FileMode, missing string) (map[string]fileProjection, error) {
	files := map[string]fileProjection{}
	if len(items) == 0 {
		for k, v := range data {
			files[k] = fileProjection{data: v, mode: mode}
		}
		return files, nil
	}
	for _, it := range items {
		v, ok := data[it.Key]
		if !ok {
			if optional {
				continue
			}
			return nil, fmt.Errorf("%s: %v", missing, it.Key)
		}
		m := mode
		if it.Mode != nil {
			m = os.FileMode(*it.Mode) & os.ModePerm
		}
		files[it.Path] = fileProjection{data: v, mode: m}
	}
	return files, nil
}

func (r *podRun) configMapFiles(ctx context.Context, name string, items []v1.KeyToPath, optional *bool, mode os.FileMode) (map[string]fileProjection, error) {
	cm, err := r.n.cfg.Objects.GetConfigMap(ctx, r.pod.Namespace, name)
	if apierrors.IsNotFound(err) && optional != nil && *optional {
		return map[string]fileProjection{}, nil
	}
	if err != nil {
		return nil, err
	}
	data := map[string][]byte{}
	for k, v := range cm.Data {
		data[k] = []byte(v)
	}
	for k, v := range cm.BinaryData {
		data[k] = v
	}
	return keyFiles(data, items, optional != nil && *optional, mode, "configmap references non-existent config key")
}

func (r *podRun) secretFiles(ctx context.Context, name string, items []v1.KeyToPath, optional *bool, mode os.FileMode) (map[string]fileProjection, error) {
	s, err := r.n.cfg.Objects.GetSecret(ctx, r.pod.Namespace, name)
	if apierrors.IsNotFound(err) && optional != nil && *optional {
		return map[string]fileProjection{}, nil
	}
	if err != nil {
		return nil, err
	}
	return keyFiles(s.Data, items, optional != nil && *optional, mode, "references non-existent secret key")
}

// downwardAPIFiles renders downwardAPI items: labels and annotations in kubelet's
// key="value" format, the other fields and resources through podconfig's environment code,
// which resolves them exactly as for env.
func (r *podRun) downwardAPIFiles(ctx context.Context, items []v1.DownwardAPIVolumeFile, mode os.FileMode) (map[string]fileProjection, error) {
	files := map[string]fileProjection{}
	probe := &v1.Container{Name: "downward-api"}
	var paths []string
	for _, it := range items {
		m := mode
		if it.Mode != nil {
			m = os.FileMode(*it.Mode) & os.ModePerm
		}
		switch {
		case it.FieldRef != nil && it.FieldRef.FieldPath == "metadata.labels":
			files[it.Path] = fileProjection{data: []byte(formatMap(r.pod.Labels)), mode: m}
		case it.FieldRef != nil && it.FieldRef.FieldPath == "metadata.annotations":
			files[it.Path] = fileProjection{data: []byte(formatMap(r.pod.Annotations)), mode: m}
		case it.FieldRef != nil || it.ResourceFieldRef != nil:
			files[it.Path] = fileProjection{mode: m}
			fieldRef := it.FieldRef
			if fieldRef != nil && fieldRef.APIVersion == "" {
				// The API server's default.
				fieldRef = &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: fieldRef.FieldPath}
			}
			probe.Env = append(probe.Env, v1.EnvVar{Name: fmt.Sprintf("ITEM_%d", len(paths)),
				ValueFrom: &v1.EnvVarSource{FieldRef: fieldRef, ResourceFieldRef: it.ResourceFieldRef}})
			paths = append(paths, it.Path)
		default:
			return nil, fmt.Errorf("downwardAPI item %q has neither fieldRef nor resourceFieldRef", it.Path)
		}
	}
	if len(paths) == 0 {
		return files, nil
	}
	pod := r.pod.DeepCopy()
	pod.Spec.EnableServiceLinks = new(bool)
	envs, _, err := configgen.MakeEnvironmentVariables(ctx, configgen.EnvInput{
		Pod: pod, Container: probe, NodeIPs: r.n.cfg.NodeIPs, Node: r.n.node,
	})
	if err != nil {
		return nil, err
	}
	for _, e := range envs {
		var i int
		if _, err := fmt.Sscanf(e.Name, "ITEM_%d", &i); err != nil || i >= len(paths) {
			continue
		}
		f := files[paths[i]]
		f.data = []byte(e.Value)
		files[paths[i]] = f
	}
	return files, nil
}

func (r *podRun) projectedFiles(ctx context.Context, p *v1.ProjectedVolumeSource) (map[string]fileProjection, error) {
	mode := modeOr(p.DefaultMode)
	all := map[string]fileProjection{}
	for _, s := range p.Sources {
		var files map[string]fileProjection
		var err error
		switch {
		case s.ConfigMap != nil:
			files, err = r.configMapFiles(ctx, s.ConfigMap.Name, s.ConfigMap.Items, s.ConfigMap.Optional, mode)
		case s.Secret != nil:
			files, err = r.secretFiles(ctx, s.Secret.Name, s.Secret.Items, s.Secret.Optional, mode)
		case s.DownwardAPI != nil:
			files, err = r.downwardAPIFiles(ctx, s.DownwardAPI.Items, mode)
		default:
			err = errors.New("projected source not supported by minikubelet (configMap, secret and downwardAPI are)")
		}
		if err != nil {
			return nil, err
		}
		for k, v := range files {
			all[k] = v
		}
	}
	return all, nil
}

// formatMap is kubelet's fieldpath.FormatMap: key="value" lines, sorted, Go-quoted.
func formatMap(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%v=%q\n", k, m[k])
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// atomicVolume writes files with kubelet's atomic-writer layout and returns the volume, which
// containers always mount read-only. A memory-backed volume (secret, downwardAPI, projected:
// kubelet wraps them in a memory-backed emptyDir) is written on a tmpfs, so secrets never reach
// the node's disk. Paths are cleaned once valid, as the atomic writer's validatePayload does
// ("./key" is "key"):
//
//	<dir>/..<timestamp>/<path>   the files, with their modes
//	<dir>/..data -> ..<timestamp>
//	<dir>/<first path element> -> ..data/<first path element>
func (r *podRun) atomicVolume(plugin, volume string, files map[string]fileProjection, memory bool) (mounts.Volume, error) {
	cleaned := make(map[string]fileProjection, len(files))
	for p, f := range files {
		if err := validateProjectedPath(p); err != nil {
			return mounts.Volume{}, err
		}
		cleaned[filepath.Clean(p)] = f
	}
	files = cleaned
	dir, err := r.makeVolumeDir(plugin, volume)
	if err != nil {
		return mounts.Volume{}, err
	}
	if memory {
		if err := r.mountMemory(dir, nil); err != nil {
			return mounts.Volume{}, err
		}
	}
	tsDir, err := os.MkdirTemp(dir, time.Now().UTC().Format("..2006_01_02_15_04_05."))
	if err != nil {
		return mounts.Volume{}, err
	}
	if err := os.Chmod(tsDir, atomicDirMode); err != nil {
		return mounts.Volume{}, err
	}
	top := map[string]bool{}
	for p, f := range files {
		full := filepath.Join(tsDir, p)
		if err := os.MkdirAll(filepath.Dir(full), atomicDirMode); err != nil {
			return mounts.Volume{}, err
		}
		if err := os.WriteFile(full, f.data, f.mode); err != nil {
			return mounts.Volume{}, err
		}
		if err := os.Chmod(full, f.mode); err != nil {
			return mounts.Volume{}, err
		}
		top[strings.SplitN(p, "/", 2)[0]] = true
	}
	if err := os.Symlink(filepath.Base(tsDir), filepath.Join(dir, "..data_tmp")); err != nil {
		return mounts.Volume{}, err
	}
	if err := os.Rename(filepath.Join(dir, "..data_tmp"), filepath.Join(dir, "..data")); err != nil {
		return mounts.Volume{}, err
	}
	for name := range top {
		if err := os.Symlink(filepath.Join("..data", name), filepath.Join(dir, name)); err != nil {
			return mounts.Volume{}, err
		}
	}
	return mounts.Volume{HostPath: dir, ReadOnly: true}, nil
}

// validateProjectedPath is the atomic writer's check of a file's path: relative, no "..", and no
// first element starting with "..", which would collide with the writer's own entries.
func validateProjectedPath(p string) error {
	if p == "" || filepath.IsAbs(p) || len(p) > 4096 || strings.ContainsRune(p, 0) {
		return fmt.Errorf("invalid path %q: must be a relative path", p)
	}
	for _, el := range strings.Split(p, "/") {
		if el == ".." {
			return fmt.Errorf("invalid path %q: must not contain '..'", p)
		}
	}
	if strings.HasPrefix(p, "..") {
		return fmt.Errorf("invalid path %q: must not start with '..'", p)
	}
	return nil
}
