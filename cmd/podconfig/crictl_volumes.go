package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	authenticationv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/internal/terminal"
	"github.com/podconfig/podconfig/mounts"
	"github.com/podconfig/podconfig/volumes"
)

// newCrictlPod is what -o crictl needs of pod, rendered on on, whose volumes are mounted from vm.
func (r *renderer) newCrictlPod(pod *v1.Pod, on *offlineNode, vm mounts.VolumeMap) *crictlPod {
	root := on.node.Options.RootDir
	return &crictlPod{
		files: on.node.Files, paths: on.node.HostUtils, binds: map[string]string{},
		podDir: filepath.Join(root, "pods", string(pod.UID)),
		mounts: vm,
		volumes: volumes.Manager{
			RootDir:                  root,
			Sources:                  crictlSources(r.volumeSources(on), r.cfg.showSecrets),
			DisablePodLevelResources: !r.cfg.featureGates.gates.PodLevelResources,
		},
	}
}

// crictlSources are the sources -o crictl writes volume files from: render's own, but, unless
// --show-secrets, every Secret's values and every token replaced by secretPlaceholder of their
// size, so that the files keep their names, sizes and modes and no secret reaches the disk.
func crictlSources(src volumes.Sources, showSecrets bool) volumes.Sources {
	if !showSecrets {
		src.Secrets = hiddenSecrets{src.Secrets}
		src.Tokens = hiddenTokens{src.Tokens}
	}
	return src
}

// secretPlaceholderText, repeated and cut to the size of the value, is what -o crictl writes for
// a Secret's value or a token without --show-secrets.
const secretPlaceholderText = "secret-hidden-by-podconfig\n"

// secretPlaceholder is n bytes of secretPlaceholderText repeated.
func secretPlaceholder(n int) []byte {
	if n == 0 {
		return []byte{}
	}
	return bytes.Repeat([]byte(secretPlaceholderText), n/len(secretPlaceholderText)+1)[:n]
}

// hiddenSecrets serves its Secrets with each value replaced by a placeholder of its size.
type hiddenSecrets struct{ next volumes.SecretGetter }

func (h hiddenSecrets) GetSecret(ctx context.Context, namespace, name string) (*v1.Secret, error) {
	if h.next == nil {
		return nil, fmt.Errorf("%w: no Secret getter", volumes.ErrMissingDependency)
	}
	s, err := h.next.GetSecret(ctx, namespace, name)
	if err != nil || s == nil {
		return s, err
	}
	s = s.DeepCopy()
	for k, v := range s.Data {
		s.Data[k] = secretPlaceholder(len(v))
	}
	return s, nil
}

// hiddenTokens serves its tokens replaced by a placeholder of their size.
type hiddenTokens struct{ next volumes.TokenGetter }

func (h hiddenTokens) GetServiceAccountToken(ctx context.Context, namespace, name string, tr *authenticationv1.TokenRequest) (*authenticationv1.TokenRequest, error) {
	if h.next == nil {
		return nil, fmt.Errorf("%w: no token getter", volumes.ErrMissingDependency)
	}
	out, err := h.next.GetServiceAccountToken(ctx, namespace, name, tr)
	if err != nil || out == nil {
		return out, err
	}
	out = out.DeepCopy()
	out.Status.Token = string(secretPlaceholder(len(out.Status.Token)))
	return out, nil
}

// crictlSetUp lists the volumes -o crictl sets up with volumes.Manager: every emptyDir, and the
// configMap, secret, downwardAPI and projected volumes whose files render computed (a pod with
// one it could not compute fails before it is written). hostPath volumes are the host's; the
// other types are empty directories.
func crictlSetUp(p *podResult) []*v1.Volume {
	rendered := map[string]bool{}
	for _, v := range p.Volumes {
		rendered[v.Name] = true
	}
	var out []*v1.Volume
	for i := range p.Pod.Spec.Volumes {
		vol := &p.Pod.Spec.Volumes[i]
		if vol.EmptyDir != nil || rendered[vol.Name] {
			out = append(out, vol)
		}
	}
	return out
}

// setUpVolumes sets up the volumes crictlSetUp lists below the output directory as kubelet's
// volume manager does (volumes.Manager): the directory of each with kubelet's modes, the ready
// markers, each file with its mode in a timestamped directory that the ..data symlink names,
// the fsGroup pass, and the owners when root (a user who is not cannot give files away). What
// kubelet mounts there (a tmpfs for secret, downwardAPI and projected volumes, a hugetlbfs) is
// not mounted: the files are on the output directory's filesystem. A volume kubelet would fail
// to set up fails the pod, in kubelet's words, as the pod could not run.
func (o *crictlOut) setUpVolumes(p *podResult) error {
	m := p.crictl.volumes
	m.Host = &crictlHost{o: o}
	for _, vol := range crictlSetUp(p) {
		if _, err := m.SetUp(context.Background(), p.Pod, vol); err != nil {
			// A path below the output directory is named by its own error.
			var we *crictlWriteError
			if errors.As(err, &we) {
				return we.err
			}
			return err
		}
	}
	return nil
}

// crictlWriteError is an error of a path below the output directory, as opposed to one of the
// volume itself.
type crictlWriteError struct{ err error }

func (e *crictlWriteError) Error() string { return e.err.Error() }
func (e *crictlWriteError) Unwrap() error { return e.err }

// writeErr marks err, when not nil, as a crictlWriteError.
func writeErr(err error) error {
	if err == nil {
		return nil
	}
	return &crictlWriteError{err}
}

// crictlHost is volumes.Host below the output directory: every path is below it and resolved as
// crictlOut resolves them, without following a link; nothing is mounted.
type crictlHost struct{ o *crictlOut }

var _ volumes.Host = (*crictlHost)(nil)

// MakeDir makes each missing directory of rel below base with exactly perm; base must be a
// directory.
func (h *crictlHost) MakeDir(base, rel string, perm fs.FileMode) error {
	b, err := h.o.rel(base)
	if err != nil {
		return writeErr(err)
	}
	if err := h.o.isDir(b); err != nil {
		return writeErr(err)
	}
	r, err := filepath.Rel(".", rel)
	if err != nil || !filepath.IsLocal(r) {
		return writeErr(fmt.Errorf("%s is not below %s", terminal.Escape(rel), terminal.Escape(base)))
	}
	return writeErr(h.o.dirsBelow(b, filepath.ToSlash(r), perm))
}

// OpenVolume is the directory dir, which must be one.
func (h *crictlHost) OpenVolume(dir string) (volumes.FS, error) {
	r, err := h.o.rel(dir)
	if err != nil {
		return nil, writeErr(err)
	}
	if err := h.o.isDir(r); err != nil {
		return nil, writeErr(err)
	}
	return &crictlVolumeFS{o: h.o, dir: r}, nil
}

// Mount mounts nothing: the volume's files go on the output directory's filesystem.
func (h *crictlHost) Mount(source, dir, fstype string, options []string) error { return nil }

// IsMountPoint says whether dir is a directory: -o crictl mounts nothing, the directory stands
// in for the tmpfs or hugetlbfs kubelet mounts there. So a memory-backed volume a render set up
// is ready, as a mounted one is to kubelet, and is not set up again: no fsGroup pass over what
// the pod's containers wrote in it since (a tree of any depth).
func (h *crictlHost) IsMountPoint(dir string) (bool, error) {
	fi, err := h.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}

// Unmount does nothing: -o crictl mounts nothing, the directory is removed as any other.
func (h *crictlHost) Unmount(dir string) error { return nil }

// RemoveAll removes dir and what is below it, each link as a link.
func (h *crictlHost) RemoveAll(dir string) error {
	r, err := h.o.rel(dir)
	if err != nil {
		return writeErr(err)
	}
	return writeErr(h.o.removeAll(r))
}

// Stat describes path without following it (only the volumes' own paths are asked).
func (h *crictlHost) Stat(p string) (fs.FileInfo, error) {
	r, err := h.o.rel(p)
	if err != nil {
		return nil, writeErr(err)
	}
	fi, err := h.o.fsys.Lstat(r)
	return fi, writeErr(err)
}

// MkdirAll makes path and its missing parents with perm.
func (h *crictlHost) MkdirAll(p string, perm fs.FileMode) error {
	r, err := h.o.rel(p)
	if err != nil {
		return writeErr(err)
	}
	return writeErr(h.o.dirs(r, perm))
}

// CreateFile makes the empty file path with perm when nothing is there.
func (h *crictlHost) CreateFile(p string, perm fs.FileMode) error {
	r, err := h.o.rel(p)
	if err != nil {
		return writeErr(err)
	}
	_, err = h.o.fsys.Lstat(r)
	if errors.Is(err, fs.ErrNotExist) {
		if err = h.o.fsys.WriteFile(r, nil, perm); err == nil {
			h.o.made = append(h.o.made, r)
		}
	}
	return writeErr(err)
}

// crictlVolumeFS is the volume directory dir, below the output directory, as volumes.FS: each
// name is resolved from the output directory's descriptor, one element at a time without
// following a link. Owners are changed only by root: the files of a user who is not stay theirs.
type crictlVolumeFS struct {
	o   *crictlOut
	dir string
}

var _ volumes.FS = (*crictlVolumeFS)(nil)

// name is n, relative to the volume directory, relative to the output directory.
func (v *crictlVolumeFS) name(n string) string {
	if n == "." {
		return v.dir
	}
	return v.dir + "/" + n
}

func (v *crictlVolumeFS) Lstat(n string) (fs.FileInfo, error) {
	fi, err := v.o.fsys.Lstat(v.name(n))
	return fi, writeErr(err)
}

func (v *crictlVolumeFS) Readlink(n string) (string, error) {
	s, err := v.o.fsys.Readlink(v.name(n))
	return s, writeErr(err)
}

func (v *crictlVolumeFS) ReadFile(n string) ([]byte, error) {
	b, err := v.o.fsys.ReadFile(v.name(n))
	return b, writeErr(err)
}

func (v *crictlVolumeFS) ReadDir(n string) ([]fs.DirEntry, error) {
	e, err := v.o.fsys.ReadDir(v.name(n))
	return e, writeErr(err)
}

func (v *crictlVolumeFS) Mkdir(n string, perm fs.FileMode) error {
	return writeErr(v.o.fsys.Mkdir(v.name(n), perm))
}

func (v *crictlVolumeFS) WriteFile(n string, data []byte, perm fs.FileMode) error {
	return writeErr(v.o.fsys.WriteFile(v.name(n), data, perm))
}

func (v *crictlVolumeFS) Symlink(target, n string) error {
	return writeErr(v.o.fsys.Symlink(target, v.name(n)))
}

func (v *crictlVolumeFS) Rename(oldname, newname string) error {
	return writeErr(v.o.fsys.Rename(v.name(oldname), v.name(newname)))
}

func (v *crictlVolumeFS) Remove(n string) error {
	return writeErr(v.o.fsys.Remove(v.name(n)))
}

func (v *crictlVolumeFS) Lchown(n string, uid, gid int) error {
	if !v.o.root {
		return nil
	}
	return writeErr(v.o.fsys.Lchown(v.name(n), uid, gid))
}

func (v *crictlVolumeFS) Chmod(n string, mode fs.FileMode) error {
	return writeErr(v.o.fsys.Chmod(v.name(n), mode))
}

// removeAll removes rel and what is below it, never following a link.
func (o *crictlOut) removeAll(rel string) error {
	fi, err := o.fsys.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.IsDir():
		entries, err := o.fsys.ReadDir(rel)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := o.removeAll(path.Join(rel, e.Name())); err != nil {
				return err
			}
		}
	}
	return o.fsys.Remove(rel)
}
