package subpath_test

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/podconfig/podconfig/subpath"
)

// FuzzSafeMakeDir checks that no subdir SafeMakeDir accepts leads outside the base, in a volume
// holding every kind of symlink and special file, and that nothing appears outside it.
func FuzzSafeMakeDir(f *testing.F) {
	root := testRoot(f)
	vol := filepath.Join(root, "vol")
	outside := filepath.Join(root, "outside")
	mkdirs(f, filepath.Join(vol, "real"), outside)
	symlink(f, "real", filepath.Join(vol, "in"))
	symlink(f, filepath.Join(vol, "real"), filepath.Join(vol, "absin"))
	symlink(f, "../outside", filepath.Join(vol, "out"))
	symlink(f, outside, filepath.Join(vol, "absout"))
	symlink(f, "/", filepath.Join(vol, "root"))
	symlink(f, "loop2", filepath.Join(vol, "loop1"))
	symlink(f, "loop1", filepath.Join(vol, "loop2"))
	symlink(f, "missing", filepath.Join(vol, "dangling"))
	symlink(f, "../../vol/real/../../outside", filepath.Join(vol, "real", "sneaky"))
	writeFile(f, filepath.Join(vol, "file"), "x")
	mkfifo(f, filepath.Join(vol, "fifo"))
	hostRoot, err := os.ReadDir("/")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		"a/b", "in/x", "absin/y", "out/z", "absout", "root/tmp/x", "loop1/a", "dangling",
		"real/sneaky/q", "file/a", "fifo", "../outside/a", "/abs/path", "a/../../outside", ".", "",
		"real/./../in/w",
	} {
		f.Add(seed)
	}
	l := subpath.New()
	realVol, err := filepath.EvalSymlinks(vol)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, subdir string) {
		if len(subdir) > 256 {
			t.Skip("long paths only test ENAMETOOLONG")
		}
		if err := l.SafeMakeDir(subdir, vol, 0o755); err == nil {
			got, err := filepath.EvalSymlinks(filepath.Join(vol, subdir))
			if err != nil {
				t.Fatalf("SafeMakeDir(%q) succeeded but the path does not resolve: %v", subdir, err)
			}
			if got != realVol && !strings.HasPrefix(got, realVol+"/") {
				t.Fatalf("SafeMakeDir(%q) accepted a path resolving to %s, outside %s", subdir, got, realVol)
			}
			if fi, err := os.Stat(got); err != nil || !fi.IsDir() {
				t.Fatalf("SafeMakeDir(%q) succeeded but %s is not a directory", subdir, got)
			}
		}
		if entries, _ := os.ReadDir(outside); len(entries) > 0 {
			t.Fatalf("SafeMakeDir(%q) created %s in the sentinel directory", subdir, entries[0].Name())
		}
		now, err := os.ReadDir("/")
		if err != nil {
			t.Fatal(err)
		}
		if len(now) != len(hostRoot) {
			t.Fatalf("SafeMakeDir(%q) changed / (%d entries, was %d)", subdir, len(now), len(hostRoot))
		}
	})
}

// FuzzBindTarget checks that every name BindTarget accepts stays a single path element, so the
// target is exactly three levels below <podDir>/volume-subpaths.
func FuzzBindTarget(f *testing.F) {
	for _, seed := range []struct {
		volume, container string
		index             int
	}{
		{"data", "app", 0}, {"..", "app", 1}, {"a/b", "c", 2}, {"", "x", 3}, {"v", ".", -1}, {"v\x00", "c", 4},
	} {
		f.Add(seed.volume, seed.container, seed.index)
	}
	podDir := "/var/lib/kubelet/pods/uid"
	base := filepath.Join(podDir, "volume-subpaths")
	f.Fuzz(func(t *testing.T, volume, container string, index int) {
		target, err := subpath.BindTarget(podDir, volume, container, index)
		if err != nil {
			return
		}
		rel, err := filepath.Rel(base, target)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{volume, container, strconv.Itoa(index)}
		if !slices.Equal(strings.Split(rel, "/"), want) {
			t.Fatalf("BindTarget(%q, %q, %d) = %s, want %s/%s", volume, container, index, target, base, strings.Join(want, "/"))
		}
	})
}
