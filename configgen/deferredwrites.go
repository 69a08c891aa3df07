package configgen

import (
	"errors"
	"fmt"
	"io/fs"
)

// deferredWrites records file writes instead of making them, so that a Generator can make them
// only once every step that can fail has passed. It stands in for the real files where a package
// below writes through a small writer interface (hosts.FileWriter).
type deferredWrites struct {
	ops []deferredWrite
}

// deferredWrite is one recorded WriteFile (write is true) or Chmod.
type deferredWrite struct {
	path  string
	data  []byte
	perm  fs.FileMode
	write bool
}

func (d *deferredWrites) WriteFile(path string, data []byte, perm fs.FileMode) error {
	d.ops = append(d.ops, deferredWrite{path: path, data: data, perm: perm, write: true})
	return nil
}

func (d *deferredWrites) Chmod(path string, perm fs.FileMode) error {
	d.ops = append(d.ops, deferredWrite{path: path, perm: perm})
	return nil
}

// apply makes the recorded writes on files, in order, stopping at the first error. A write and
// the chmod of the same file to the same mode that follows it (the pair hosts.MakeHostsFile writes) are
// one step, updateFile, which removes a file it created when it fails. The records are dropped
// then, so that they do not keep the data alive with the options they were made for.
func (d *deferredWrites) apply(files HostFiles) error {
	defer func() { *d = deferredWrites{} }()
	for i := 0; i < len(d.ops); i++ {
		op := d.ops[i]
		if !op.write {
			if err := files.Chmod(op.path, op.perm); err != nil {
				return err
			}
			continue
		}
		chmod := i+1 < len(d.ops) && !d.ops[i+1].write && d.ops[i+1].path == op.path && d.ops[i+1].perm == op.perm
		if chmod {
			i++
		}
		if err := updateFile(files, op.path, op.data, op.perm, chmod); err != nil {
			return err
		}
	}
	return nil
}

// updateFile gives path the content data (and, with chmod, the mode perm) in place, keeping its
// inode, since running containers hold the pod's etc-hosts file. It leaves unchanged content to
// the backend (hostfs.OS reads the file and writes nothing when it holds data already, the usual
// case for a pod's later containers, and never leaves the old content destroyed when a write
// fails) and chmods only a file whose mode is not perm. When a step fails on a file this call
// created, the file is removed again, so that a pod's first render leaves none behind.
func updateFile(files HostFiles, path string, data []byte, perm fs.FileMode, chmod bool) error {
	fi, err := files.Lstat(path)
	created := errors.Is(err, fs.ErrNotExist)
	if err != nil && !created {
		return err
	}
	err = files.WriteFile(path, data, perm)
	if err == nil && chmod && (created || fi.Mode() != perm) {
		err = files.Chmod(path, perm)
	}
	if err != nil && created {
		// Nothing holds a file this call created yet: it goes.
		if rerr := files.Remove(path); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, fmt.Errorf("removing the new file: %w", rerr))
		}
	}
	return err
}
