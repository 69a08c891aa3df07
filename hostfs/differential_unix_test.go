//go:build unix

package hostfs_test

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
)

// TestMemoryMatchesOS runs the same random sequences of operations against the OS, in a temporary
// directory, and against a Memory holding the same directory path, and requires the same results
// and the same error texts from both. The umask is cleared for the duration so that modes compare
// (Memory applies none), which is why this test must not run in parallel.
func TestMemoryMatchesOS(t *testing.T) {
	if os.Geteuid() != 0 {
		// Memory never enforces permission bits (a documented limitation), so the two backends
		// agree only for a caller the kernel does not check either: root.
		t.Skip("skipping: the differential test compares against the OS as root (run the tests as root, as CI does)")
	}
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })

	for seed := range uint64(100) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			root := t.TempDir()
			mem := hostfs.NewMemory()
			require.NoError(t, mem.MkdirAll(root, 0o700))
			require.NoError(t, os.Chmod(root, 0o700))

			rng := rand.New(rand.NewPCG(seed, 42))
			for i := range 150 {
				op := randomOp(rng, root)
				t.Log(op.desc)
				want := op.run(hostfs.OS{})
				got := op.run(mem)
				require.Equal(t, want, got, "step %d: %s", i, op.desc)
			}
		})
	}
}

type randOp struct {
	desc string
	run  func(fsys backend) string
}

var (
	names   = []string{"a", "b", "l", "m"}
	targets = []string{"a", "b/a", "../a", "ROOT/b", ".", "l", "nope", "b/", "m/l", "ROOT"}
)

func randomPath(rng *rand.Rand, root string) string {
	depth := 1 + rng.IntN(3)
	parts := make([]string, depth)
	for i := range parts {
		switch rng.IntN(12) {
		case 0:
			parts[i] = "."
		default:
			parts[i] = names[rng.IntN(len(names))]
		}
	}
	p := root + "/" + strings.Join(parts, "/")
	if rng.IntN(10) == 0 {
		p += "/"
	}
	return p
}

func randomOp(rng *rand.Rand, root string) randOp {
	p := randomPath(rng, root)
	perm := []fs.FileMode{0o700, 0o755, 0o600, 0o640, 0o4755}[rng.IntN(5)]
	data := strings.Repeat("x", rng.IntN(5))
	switch rng.IntN(12) {
	case 0:
		return randOp{"MkdirAll " + p, func(f backend) string { return result("", f.MkdirAll(p, perm)) }}
	case 1:
		return randOp{"WriteFile " + p, func(f backend) string { return result("", f.WriteFile(p, []byte(data), perm)) }}
	case 2:
		return randOp{"Create " + p, func(f backend) string { return result("", f.Create(p)) }}
	case 3:
		return randOp{"Chmod " + p, func(f backend) string { return result("", f.Chmod(p, perm)) }}
	case 4:
		return randOp{"ReadFile " + p, func(f backend) string { b, err := f.ReadFile(p); return result(string(b), err) }}
	case 5:
		return randOp{"Stat " + p, func(f backend) string { fi, err := f.Stat(p); return result(infoString(fi), err) }}
	case 6:
		return randOp{"Lstat " + p, func(f backend) string { fi, err := f.Lstat(p); return result(infoString(fi), err) }}
	case 7:
		return randOp{"Readlink " + p, func(f backend) string { s, err := f.Readlink(p); return result(s, err) }}
	case 8:
		return randOp{"ReadDir " + p, func(f backend) string { e, err := f.ReadDir(p); return result(describeEntries(e), err) }}
	case 9:
		target := strings.Replace(targets[rng.IntN(len(targets))], "ROOT", root, 1)
		return randOp{"Symlink " + target + " " + p, func(f backend) string { return result("", f.Symlink(target, p)) }}
	case 10:
		return randOp{"Remove " + p, func(f backend) string { return result("", f.Remove(p)) }}
	default:
		return randOp{"Open " + p, func(f backend) string {
			file, err := f.Open(p)
			if err != nil {
				return result("", err)
			}
			defer file.Close()
			b, rerr := io.ReadAll(file)
			return result(string(b), errnoOnly(rerr))
		}}
	}
}

func infoString(fi fs.FileInfo) string {
	if fi == nil {
		return ""
	}
	if fi.IsDir() {
		return fmt.Sprintf("%s %s", fi.Name(), fi.Mode())
	}
	return describe(fi)
}

func result(s string, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return s
}

// errnoOnly keeps the errno of a read error: os reports reads of a directory with the path it was
// opened with, which is all the comparison needs.
func errnoOnly(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}
