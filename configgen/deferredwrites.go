package configgen

import "io/fs"

// deferredWrites records file writes instead of making them, so that a Generator can make them
// only once every step that can fail has passed. It stands in for the real files where a package
// below writes through a small writer interface (hosts.FileWriter).
type deferredWrites struct {
	ops []deferredWrite
	// buf holds the hosts file's write and chmod, so recording them allocates nothing more.
	buf [2]deferredWrite
}

// deferredWrite is one recorded WriteFile (write is true) or Chmod.
type deferredWrite struct {
	path  string
	data  []byte
	perm  fs.FileMode
	write bool
}

func (d *deferredWrites) WriteFile(path string, data []byte, perm fs.FileMode) error {
	if d.ops == nil {
		d.ops = d.buf[:0]
	}
	d.ops = append(d.ops, deferredWrite{path: path, data: data, perm: perm, write: true})
	return nil
}

func (d *deferredWrites) Chmod(path string, perm fs.FileMode) error {
	if d.ops == nil {
		d.ops = d.buf[:0]
	}
	d.ops = append(d.ops, deferredWrite{path: path, perm: perm})
	return nil
}

// apply makes the recorded writes on files, in order, stopping at the first error. The records
// are dropped then, so that they do not keep the data alive with the options they were made for.
func (d *deferredWrites) apply(files HostFiles) error {
	defer func() { *d = deferredWrites{} }()
	for _, op := range d.ops {
		var err error
		if op.write {
			err = files.WriteFile(op.path, op.data, op.perm)
		} else {
			err = files.Chmod(op.path, op.perm)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
