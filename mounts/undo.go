package mounts

import "sync"

// undoList collects the Subpather's undo actions of one MakeMounts call.
type undoList struct {
	u *undoer
}

// undoer runs a call's undo actions at most once.
type undoer struct {
	once sync.Once
	fns  []func()
}

func (l *undoList) add(fn func()) {
	if l.u == nil {
		l.u = &undoer{}
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
