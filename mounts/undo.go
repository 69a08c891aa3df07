package mounts

import "sync"

// undoList collects the Subpather's undo actions of one MakeMounts call.
type undoList struct {
	u *undoer
}

// undoer runs a call's undo actions at most once. Its small inline buffer keeps a typical call to
// one allocation.
type undoer struct {
	once sync.Once
	fns  []func()
	buf  [4]func()
}

func (l *undoList) add(fn func()) {
	if l.u == nil {
		l.u = &undoer{}
		l.u.fns = l.u.buf[:0]
	}
	l.u.fns = append(l.u.fns, fn)
}

// run undoes now, in reverse order, in case a later preparation depends on an earlier one.
func (l *undoList) run() {
	if l.u != nil {
		l.u.run()
	}
}

// cleanupFunc returns the list as a cleanup that runs at most once, even when called concurrently.
func (l *undoList) cleanupFunc() func() {
	if l.u == nil {
		return noop
	}
	return l.u.run
}

func (u *undoer) run() {
	u.once.Do(func() {
		for i := len(u.fns) - 1; i >= 0; i-- {
			u.fns[i]()
		}
		u.fns = nil
	})
}

func noop() {}
