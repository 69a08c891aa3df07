package hostfs

import (
	"errors"
	"testing"
)

// FuzzMemoryCacheMatchesWalk runs a program of operations on a Memory; after each one, every path
// of a fixed set is resolved through the lookup cache and by a fresh walk in every mode the cache
// answers: both must find the same file or fail alike.
func FuzzMemoryCacheMatchesWalk(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add([]byte{3, 17, 40, 2, 9, 33, 7, 1, 60, 5})
	paths := []string{"/a", "/a/b", "/a/b/c", "/l", "/l/b", "/l/b/c", "/a/l2", "/a/l2/x", "/a/../a/b", "/l/..", "/l/../a", "/a/b/", "/l/", "/x", "/x/y", "/a/b/c/..", "/m", "/m/b"}
	targets := []string{"/a", "a", "b", "..", "../a", "/a/b", "/x", "l", "m", "/l/b"}
	f.Fuzz(func(t *testing.T, prog []byte) {
		m := NewMemory()
		for i := 0; i+1 < len(prog); i += 2 {
			op, arg := prog[i]%6, int(prog[i+1])
			p := paths[arg%len(paths)]
			switch op {
			case 0:
				_ = m.MkdirAll(p, 0o755)
			case 1:
				_ = m.WriteFile(p, []byte("x"), 0o644)
			case 2:
				_ = m.Symlink(targets[arg%len(targets)], p)
			case 3:
				_ = m.Remove(p)
			case 4:
				_ = m.Chmod(p, 0o700)
			case 5:
				_, _ = m.Stat(p)
			}
			m.mu.Lock()
			for _, q := range paths {
				for _, mode := range []walkMode{noFollow, follow, openCreate} {
					for range 2 { // the second resolve is answered from the cache
						got, gerr := m.resolve(q, mode)
						want, werr := m.walk(q, mode)
						if (gerr == nil) != (werr == nil) || gerr != nil && !errors.Is(gerr, werr) {
							t.Fatalf("after op %d %q: %q mode %d: cache %v, walk %v", op, p, q, mode, gerr, werr)
						}
						if gerr == nil && (got.n != want.n || mode == openCreate && got.trailing != want.trailing) {
							t.Fatalf("after op %d %q: %q mode %d: cache found %p, walk %p", op, p, q, mode, got.n, want.n)
						}
					}
				}
			}
			m.mu.Unlock()
		}
	})
}
