package mounts

import (
	"path/filepath"
	"testing"
)

// FuzzJoinPlans checks that the joined full paths, concatenated into one string or not, always
// agree with filepath.Join, whatever the mix of clean and unclean paths.
func FuzzJoinPlans(f *testing.F) {
	for _, seed := range [][4]string{
		{"/vol", "a/b", "/", "a"}, {"/vol/", "a", "/vol", "./a"}, {"/v", "a/../b", "/v", "a//b"},
		{"/v", "", "v", "a"}, {"/v", "/a", "/v/.", "a"}, {"", "", "/v", "a"}, {"/v", "a", "/w", "b/c"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	f.Fuzz(func(t *testing.T, base1, sub1, base2, sub2 string) {
		plans := []subPathPlan{{volumePath: base1, subPath: sub1}, {volumePath: base2, subPath: sub2}, {volumePath: base1, subPath: sub2}}
		joinPlans(plans)
		for _, p := range plans {
			if want := filepath.Join(p.volumePath, p.subPath); p.fullPath != want {
				t.Fatalf("joinPlans(%q, %q) = %q, filepath.Join gives %q", p.volumePath, p.subPath, p.fullPath, want)
			}
		}
	})
}
