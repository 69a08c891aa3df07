package volumes

import (
	"io/fs"
)

// Masks of the fsGroup ownership pass: read-only volumes (configMap, secret, downwardAPI,
// projected) get group read; read-write ones (emptyDir) group read and write.
const (
	roMask fs.FileMode = 0o440
	rwMask fs.FileMode = 0o660
)

// ChangeOwnership is kubelet's fsGroup ownership pass over a volume (volume.SetVolumeOwnership,
// NewVolumeOwnership(...).ChangePermissions) with no fsGroupChangePolicy, which is what the
// configMap, secret, downwardAPI, projected and emptyDir plugins pass: a pod's
// fsGroupChangePolicy (OnRootMismatch included) has no effect on them. Every entry, children
// before their directory, gets group fsGroup (lchown, symlinks too); every entry but a symlink
// gets its mode or'ed with the mask (0440 read-only, 0660 read-write), directories also setgid
// and 0110. Bits are only added. As in kubelet, a failing chown or chmod is ignored (kubelet
// logs it) and a failing directory listing is returned. A nil fsGroup does nothing.
func ChangeOwnership(fsys FS, fsGroup *int64, readOnly bool) error {
	if fsGroup == nil {
		return nil
	}
	mask := rwMask
	if readOnly {
		mask = roMask
	}
	return walkDeep(fsys, ".", func(name string, fi fs.FileInfo) {
		_ = fsys.Lchown(name, -1, int(*fsGroup))
		if fi.Mode()&fs.ModeSymlink != 0 {
			return
		}
		mode := fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky) | mask
		if fi.IsDir() {
			mode |= fs.ModeSetgid | 0o110
		}
		_ = fsys.Chmod(name, mode)
	})
}

// walkDeep visits everything below name, then name, never following a symlink.
func walkDeep(fsys FS, name string, visit func(string, fs.FileInfo)) error {
	fi, err := fsys.Lstat(name)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		entries, err := fsys.ReadDir(name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			child := e.Name()
			if name != "." {
				child = name + "/" + child
			}
			if err := walkDeep(fsys, child, visit); err != nil {
				return err
			}
		}
	}
	visit(name, fi)
	return nil
}
