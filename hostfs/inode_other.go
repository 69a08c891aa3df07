//go:build !unix

package hostfs

func osInode(any) (uint64, bool) { return 0, false }
