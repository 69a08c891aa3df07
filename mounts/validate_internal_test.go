package mounts

import (
	"io/fs"
	"path/filepath"
	"testing"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/internal/expansion"
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

// FuzzExpandSubPathExpr checks that the one-reference shortcut gives what the full expansion
// gives, value and error alike.
func FuzzExpandSubPathExpr(f *testing.F) {
	for _, seed := range [][2]string{{"$(A)", "v"}, {"$(A)", ""}, {"$(B)", "v"}, {"$(A))", "v"}, {"$($(A))", "v"}, {"$()", "v"}, {"$$(A)", "v"}, {"x$(A)", "v"}, {"$(A", "v"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, expr, value string) {
		env := map[string]string{"A": value, "$(A": value, "": value}
		got, gotErr := expandSubPathExpr("m", expr, env)
		want, missing, ok := expansion.ExpandStrictLimit(expr, env, MaxSubPathExprBytes)
		switch {
		case !ok || len(missing) > 0:
			if gotErr == nil {
				t.Fatalf("expandSubPathExpr(%q) with %q = %q, the expansion fails (ok %v, missing %q)", expr, value, got, ok, missing)
			}
		case gotErr != nil || got != want:
			t.Fatalf("expandSubPathExpr(%q) with %q = %q, %v; the expansion gives %q", expr, value, got, gotErr, want)
		}
	})
}

// FuzzTerminationMessageFile checks that the termination-message file is named as
// filepath.Join(dir, name) names it, with or without Clean.
func FuzzTerminationMessageFile(f *testing.F) {
	for _, seed := range []string{"/pod/containers/ctr", "/", "/pod//c/", "rel/dir", "/a/./b", "/a/..", "."} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, dir string) {
		if dir == "" {
			return // no termination file
		}
		var got string
		tm := TerminationMessage{PodContainerDir: dir, Path: "/t", Rand: func() uint32 { return 0xab12 }, Files: recordFiles{&got}}
		if _, warnings := makeTerminationMessageMount(tm, false, new(runtimeapi.Mount)); len(warnings) > 0 {
			t.Fatal(warnings)
		}
		if want := filepath.Join(dir, "0000ab12"); got != want {
			t.Fatalf("file in %q = %q, filepath.Join gives %q", dir, got, want)
		}
	})
}

type recordFiles struct{ created *string }

func (r recordFiles) Create(path string) error      { *r.created = path; return nil }
func (recordFiles) Chmod(string, fs.FileMode) error { return nil }
