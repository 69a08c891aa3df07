//go:build !linux

package volumes

import "testing"

func linuxFS(*testing.T) FS { return nil }

func owner(t *testing.T, fsys FS, name string) (int, int) {
	uid, gid, err := fsys.(*MemoryFS).Owner(name)
	if err != nil {
		t.Fatal(err)
	}
	return uid, gid
}
