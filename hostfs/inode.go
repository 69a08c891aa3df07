package hostfs

import "io/fs"

// MemoryStat is what FileInfo.Sys returns for files of a [Memory].
type MemoryStat struct {
	// Ino identifies the file for as long as the Memory lives; it never changes when the file is
	// rewritten, and is never reused.
	Ino uint64
}

// Inode returns the identity of the file fi describes, from either backend: the inode number for
// the OS backend (on Unix), MemoryStat.Ino for Memory. ok is false when fi carries neither.
func Inode(fi fs.FileInfo) (ino uint64, ok bool) {
	if fi == nil {
		return 0, false
	}
	if st, isMem := fi.Sys().(*MemoryStat); isMem {
		return st.Ino, true
	}
	return osInode(fi.Sys())
}
