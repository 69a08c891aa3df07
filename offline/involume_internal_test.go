package offline

import (
	"path/filepath"
	"testing"
)

// FuzzInVolume checks the shortcut for the usual source against the plain check on cleaned paths.
func FuzzInVolume(f *testing.F) {
	for _, seed := range [][2]string{
		{"/vol/a", "/vol"}, {"/vol//a", "/vol"}, {"/vol/../etc", "/vol"}, {"/vol/.a", "/vol"}, {"/vol/a/", "/vol"},
		{"/vol", "/vol"}, {"/volume/a", "/vol"}, {"/vol/./a", "/vol/"}, {"/v/a", "/v/./"}, {"//a", "/"}, {"a/b", "a"}, {"", ""},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, p, base string) {
		if got, want := inVolume(p, base), within(filepath.Clean(p), filepath.Clean(base)); got != want {
			t.Fatalf("inVolume(%q, %q) = %v, within on the cleaned paths says %v", p, base, got, want)
		}
	})
}
