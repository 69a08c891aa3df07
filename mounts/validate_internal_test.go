package mounts

import (
	"path/filepath"
	"testing"
)

// FuzzJoinPath checks that the fast join always agrees with filepath.Join.
func FuzzJoinPath(f *testing.F) {
	for _, seed := range [][2]string{{"/vol", "a/b"}, {"/", "a"}, {"/vol/", "a"}, {"/vol", "./a"}, {"/v", "a/../b"}, {"/v", "a//b"}, {"/v", ""}, {"v", "a"}, {"/v", "/a"}, {"/v/.", "a"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, base, sub string) {
		if got, want := joinPath(base, sub), filepath.Join(base, sub); got != want {
			t.Fatalf("joinPath(%q, %q) = %q, filepath.Join gives %q", base, sub, got, want)
		}
	})
}
