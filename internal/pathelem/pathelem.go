package pathelem

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLen is the longest name one path element can have on Linux (NAME_MAX): a longer one fails
// with ENAMETOOLONG, possibly after other directories of the same path were made.
const MaxLen = 255

// Validate returns why name cannot be used as a single host path element, as a message naming
// kind ("container name", "volume name", ...), or "" when it can. A name must not be empty, "."
// or "..", hold "/" or NUL, be longer than MaxLen bytes, or be invalid UTF-8 (host paths are
// strings in CRI messages, which protobuf refuses to carry otherwise).
func Validate(kind, name string) string {
	// Nearly every name is short ASCII: one pass says it is fine.
	if len(name) <= MaxLen && name != "" && name != "." && name != ".." && plainElement(name) {
		return ""
	}
	var why string
	switch {
	case name == "":
		why = "must not be empty"
	case name == "." || name == "..":
		why = "must not be '.' or '..'"
	case strings.IndexByte(name, '/') >= 0:
		why = "must not contain '/'"
	case strings.IndexByte(name, 0) >= 0:
		why = "must not contain a NUL byte"
	case len(name) > MaxLen:
		return "invalid " + kind + " " + strconv.Quote(name[:32]) + "... (" + strconv.Itoa(len(name)) + " bytes): must be at most " + strconv.Itoa(MaxLen) + " bytes long"
	case !utf8.ValidString(name):
		why = "must be valid UTF-8"
	default:
		return ""
	}
	return "invalid " + kind + " " + strconv.Quote(name) + ": " + why
}

// plainElement reports whether s is all ASCII with no NUL and no '/'. False does not mean s is
// refused (it may be valid UTF-8), only that Validate must look closer.
func plainElement(s string) bool { return Plain(s, '/') }

// Plain reports whether every byte of s is ASCII other than NUL and sep: the common case of a
// name that a stricter check (pathelem.Validate with '/', an environment variable name with '=')
// accepts without looking closer. False says only that s needs that closer look.
func Plain(s string, sep byte) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c == sep || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// CheckText returns why s cannot be a host path that also travels in a CRI message: it holds a
// NUL byte (the kernel would end the path there) or is not valid UTF-8. It returns "" when s is
// fine, after one pass over s.
func CheckText(s string) string {
	i := FirstBad(s, true)
	switch {
	case i < 0:
		return ""
	case s[i] == 0:
		return "must not contain a NUL byte"
	}
	return "must be valid UTF-8"
}

// FirstBad returns the offset of the first byte of s that is not part of valid UTF-8, or a NUL
// when noNUL is set, and -1 when there is none.
func FirstBad(s string, noNUL bool) int {
	if utf8.ValidString(s) && (!noNUL || strings.IndexByte(s, 0) < 0) {
		return -1
	}
	return firstBadFrom(s, 0, noNUL)
}

// firstBadFrom is FirstBad's byte-wise walk from offset i, the start of a character.
func firstBadFrom(s string, i int, noNUL bool) int {
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0 && noNUL {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// CheckSubPath returns why subPath cannot be a subPath of a volume, in kubelet's words where
// kubelet has them (makeMounts), or "" when it can: it must be relative, have no ".." element,
// hold no NUL byte and be valid UTF-8. An empty subPath is valid and means the volume's root.
func CheckSubPath(subPath string) string {
	if strings.HasPrefix(subPath, "/") {
		return "error SubPath `" + subPath + "` must not be an absolute path"
	}
	if why := CheckText(subPath); why != "" {
		return "unable to provision SubPath " + strconv.Quote(subPath) + ": " + why
	}
	if HasDotDot(subPath) {
		return "unable to provision SubPath `" + subPath + "`: must not contain '..'"
	}
	return ""
}

// HasDotDot reports whether any "/"-separated element of p is "..", without allocating: the
// check every relative path a pod names (a subPath, a fileKeyRef path, the etc-hosts path's
// parts) passes before it is joined to a host directory.
func HasDotDot(p string) bool {
	for p != "" {
		elem := p
		if i := strings.IndexByte(p, '/'); i >= 0 {
			elem, p = p[:i], p[i+1:]
		} else {
			p = ""
		}
		if elem == ".." {
			return true
		}
	}
	return false
}
