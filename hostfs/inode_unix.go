//go:build unix

package hostfs

import "syscall"

func osInode(sys any) (uint64, bool) {
	st, ok := sys.(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Ino), true
}
