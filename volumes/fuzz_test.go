package volumes

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzWritePayload writes two files at arbitrary paths. Whenever ValidatePayload accepts them,
// every path is relative, clean, free of ".." and of the writer's reserved names, and the writer
// puts exactly those files in the volume; whenever it refuses them, nothing is written.
func FuzzWritePayload(f *testing.F) {
	for _, seed := range [][2]string{{"a", "b"}, {"a/b", "a/c"}, {"./..data", "x"}, {"a", "./a"}, {"..2026_01_01_00_00_00.1/x", "y"}, {"a/../b", "c"}, {"/abs", "d"}, {"a//b", "a/b"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, p1, p2 string) {
		fsys := NewMemoryFS()
		payload := Payload{{Path: p1, Data: []byte("1"), Mode: 0o644}, {Path: p2, Data: []byte("2"), Mode: 0o600}}
		clean, verr := ValidatePayload(payload)
		werr := NewAtomicWriter(fsys).Write(payload, nil)
		if verr != nil {
			if werr == nil {
				t.Fatalf("the writer accepted what ValidatePayload refused: %v", verr)
			}
			entries, _ := fsys.ReadDir(".")
			if len(entries) != 0 {
				t.Fatalf("a refused payload wrote %d entries", len(entries))
			}
			return
		}
		for _, f := range clean {
			if filepath.IsAbs(f.Path) || filepath.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "..") {
				t.Fatalf("accepted path %q", f.Path)
			}
			for _, e := range strings.Split(f.Path, "/") {
				if e == ".." || e == "." || e == "" {
					t.Fatalf("accepted path %q", f.Path)
				}
			}
		}
		if werr != nil {
			// Element and path lengths the memory FS does not limit are the only other failures.
			return
		}
		ts, err := fsys.Readlink(dataDirName)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range clean {
			data, err := fsys.ReadFile(ts + "/" + f.Path)
			if err != nil || string(data) != string(f.Data) {
				t.Fatalf("%s: %q, %v", f.Path, data, err)
			}
		}
	})
}
