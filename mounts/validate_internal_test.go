package mounts

import (
	"testing"

	"github.com/podconfig/podconfig/internal/expansion"
)

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
