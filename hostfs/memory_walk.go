package hostfs

import (
	"strings"
	"sync/atomic"
	"syscall"
)

// maxSymlinks is the kernel's limit on symlinks followed in one lookup (MAXSYMLINKS).
const maxSymlinks = 40

type nodeKind uint8

const (
	kindDir nodeKind = iota
	kindFile
	kindSymlink
)

// node is one file of the tree. Directories point to their parent so that ".." is taken physically,
// after symlinks, as the kernel does.
type node struct {
	kind     nodeKind
	ino      uint64
	perm     uint32 // fs.FileMode permission and special bits
	data     []byte
	target   string
	parent   *node
	children map[string]*node
	// fi is the last FileInfo handed out for the node, shared by later lookups under the same
	// name while the node is unchanged. A memInfo is never modified: whatever changes what it
	// shows (perm, data) drops it under the write lock, so infos handed out stay snapshots.
	// Readers, holding only the read lock, swap it atomically.
	fi atomic.Pointer[memInfo]
}

// walkResult is where a lookup ended. dir holds (or would hold) the final name; n is nil when the
// final name does not exist. name is "" when the path ended at a directory without naming it ("/",
// ".", "..", a symlink to "/").
type walkResult struct {
	dir      *node
	name     string
	n        *node
	trailing bool
	// linkedLast is set when the final component was a symlink that was followed: n is then not
	// what a lookup that leaves a final symlink alone finds.
	linkedLast bool
}

// walkMode says what a lookup does with the final component.
type walkMode uint8

const (
	// noFollow leaves a final symlink alone (lstat, readlink), unless the path ends in "/".
	noFollow walkMode = iota
	// follow resolves a final symlink (stat, open, chmod, open with O_CREAT).
	follow
	// openCreate is open with O_CREAT: a final symlink is followed, but a final component that has
	// a trailing "/" (in the path or in the body of the last link) ends the walk, which the caller
	// turns into EISDIR as the kernel does.
	openCreate
	// create is for mkdir and symlink: a final symlink is never followed, even before a trailing
	// "/", and an existing final component of any type is reported as it is (EEXIST to the caller).
	create
)

// walk resolves path in the tree. Symlinks in the middle are always followed. Missing or
// non-directory intermediate components are errors; a missing final component is not (the result's
// n is nil), so creating calls can use it. The caller holds m.mu.
func (m *Memory) walk(path string, mode walkMode) (walkResult, error) {
	return m.walkIn(m.rootLocked(), path, mode)
}

// walkIn is walk with root standing in for "/": absolute paths and symlinks start at root, and
// ".." at root stays there, as openat2's RESOLVE_IN_ROOT resolves. The caller holds m.mu.
func (m *Memory) walkIn(root *node, path string, mode walkMode) (walkResult, error) {
	if path == "" {
		return walkResult{}, syscall.ENOENT
	}
	if strings.IndexByte(path, 0) >= 0 {
		return walkResult{}, syscall.EINVAL
	}
	trailing := strings.HasSuffix(path, "/")
	followLast := mode == follow || mode == openCreate || (mode == noFollow && trailing)
	cur := root
	// rest is what is left to resolve; components are cut from its front without splitting the
	// whole path, and a symlink's body is put in front of it.
	rest := path
	links := 0
	linkedLast := false
	for {
		c, after := nextComponent(rest)
		if c == "" {
			break
		}
		rest = after
		last := onlySlashes(rest)
		var next *node
		switch c {
		case ".":
			next = cur
		case "..":
			next = cur.parent
			if cur == root {
				next = root
			}
		default:
			next = cur.children[c]
		}
		if last && trailing && mode == openCreate {
			return walkResult{dir: cur, name: c, n: next, trailing: true, linkedLast: linkedLast}, nil
		}
		if next == nil {
			if last {
				return walkResult{dir: cur, name: c, trailing: trailing}, nil
			}
			return walkResult{}, syscall.ENOENT
		}
		if next.kind == kindSymlink && (!last || followLast) {
			links++
			if links > maxSymlinks {
				return walkResult{}, syscall.ELOOP
			}
			if next.target == "" {
				return walkResult{}, syscall.ENOENT
			}
			if strings.HasPrefix(next.target, "/") {
				cur = root
			}
			if last && strings.HasSuffix(next.target, "/") {
				// A final link whose body ends in "/" must lead to a directory, as a path would.
				trailing = true
			}
			if last {
				rest = next.target
				linkedLast = true
			} else {
				rest = next.target + "/" + rest
			}
			continue
		}
		if last {
			if trailing && next.kind != kindDir && mode != create {
				return walkResult{}, syscall.ENOTDIR
			}
			if c == "." || c == ".." {
				return walkResult{dir: next, n: next, trailing: trailing, linkedLast: linkedLast}, nil
			}
			return walkResult{dir: cur, name: c, n: next, trailing: trailing, linkedLast: linkedLast}, nil
		}
		if next.kind != kindDir {
			return walkResult{}, syscall.ENOTDIR
		}
		cur = next
	}
	return walkResult{dir: cur, n: cur, trailing: trailing, linkedLast: linkedLast}, nil
}

// nextComponent returns the first non-empty element of the slash-separated path p ("" when there
// is none) and what follows it.
func nextComponent(p string) (elem, rest string) {
	for len(p) > 0 && p[0] == '/' {
		p = p[1:]
	}
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

// onlySlashes reports whether p has no element left.
func onlySlashes(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			return false
		}
	}
	return true
}
