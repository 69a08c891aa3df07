package subpath_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/podconfig/podconfig/subpath"
)

// TestCleanSubPathsSymlinkAtEveryLevel puts a symlink to a directory outside the pod at each level
// of <podDir>/volume-subpaths/<volume>/<container>/<target>, with what CleanSubPaths would delete
// or unmount waiting behind it: an empty file, an empty directory and a bind mount. Nothing outside
// may be touched; a symlinked directory level is an error, a symlinked target is removed as a link.
func TestCleanSubPathsSymlinkAtEveryLevel(t *testing.T) {
	levels := []struct {
		name    string
		link    func(f podFixture) string // the level that becomes a symlink
		wantErr bool
	}{
		{"volume-subpaths", func(f podFixture) string { return filepath.Join(f.podDir, "volume-subpaths") }, true},
		{"the volume's directory", func(f podFixture) string { return filepath.Join(f.podDir, "volume-subpaths", "data") }, true},
		{"a container's directory", func(f podFixture) string { return filepath.Join(f.podDir, "volume-subpaths", "data", "app") }, true},
		{"a bind target", func(f podFixture) string { return f.target("0") }, false},
	}
	for _, lv := range levels {
		t.Run("symlink at "+lv.name, func(t *testing.T) {
			f := newPodFixture(t)
			link := lv.link(f)
			// Behind the link, a tree shaped like what CleanSubPaths walks, with a bind mount,
			// an empty file and an empty directory at every depth it could reach.
			bait := filepath.Join(f.root, "bait")
			for _, d := range []string{"data/app/0", "app/0", "0", "x"} {
				mkdirs(t, filepath.Join(bait, d))
			}
			for _, p := range []string{"data/app/1", "app/1", "1", "data/app/e", "app/e", "e"} {
				writeFile(t, filepath.Join(bait, p), "")
			}
			mountTarget := filepath.Join(bait, "data", "app", "m")
			mkdirs(t, mountTarget, filepath.Join(bait, "app", "m"), filepath.Join(bait, "m"))
			bindMount(t, f.vol, mountTarget)
			bindMount(t, f.vol, filepath.Join(bait, "app", "m"))
			bindMount(t, f.vol, filepath.Join(bait, "m"))
			before := listTree(t, bait)

			mkdirs(t, filepath.Dir(link))
			symlink(t, linkTarget(bait, f, link), link)
			err := subpath.New().CleanSubPaths(f.podDir, "data")
			if lv.wantErr {
				require.ErrorIs(t, err, subpath.ErrUnexpectedFile)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, before, listTree(t, bait), "something outside the pod directory was removed")
			for _, m := range []string{mountTarget, filepath.Join(bait, "app", "m"), filepath.Join(bait, "m")} {
				assert.Equal(t, 1, mountCount(t, m), "a mount outside the pod directory was unmounted: %s", m)
			}
			if lv.wantErr {
				_, err := os.Lstat(link)
				assert.NoError(t, err, "the symlink was removed")
			}
		})
	}
}

// linkTarget points the symlink at the level of the bait tree that matches link's depth, so that a
// CleanSubPaths that followed it would find targets to unmount and remove.
func linkTarget(bait string, f podFixture, link string) string {
	rel, _ := filepath.Rel(filepath.Join(f.podDir, "volume-subpaths"), link)
	switch rel {
	case ".":
		return bait
	case "data":
		return filepath.Join(bait, "data")
	case filepath.Join("data", "app"):
		return filepath.Join(bait, "app")
	}
	return filepath.Join(bait, "x")
}

// bindMount bind-mounts src on target until the test ends.
func bindMount(t *testing.T, src, target string) {
	t.Helper()
	require.NoError(t, unix.Mount(src, target, "", unix.MS_BIND, ""))
	t.Cleanup(func() {
		for unix.Unmount(target, unix.MNT_DETACH) == nil {
		}
	})
}
