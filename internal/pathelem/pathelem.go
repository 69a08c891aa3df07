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

// Plain reports whether every byte of s is ASCII other than NUL and sep (which must be ASCII and
// not NUL or 0x01), in one pass over eight-byte words: the common case of a name that a
// stricter check (pathelem.Validate with '/', an environment variable name with '=') accepts
// without looking closer. False says only that s needs that closer look.
func Plain(s string, sep byte) bool {
	seps := lo * uint64(sep)
	n := len(s)
	switch {
	case n >= 8:
		for i := 0; i+8 <= n; i += 8 {
			if !plainWord(load64(s[i:i+8]), seps) {
				return false
			}
		}
		return plainWord(load64(s[n-8:]), seps)
	case n >= 4:
		return plainWord(load32(s[:4])|load32(s[n-4:])<<32, seps)
	case n > 0:
		// The first, middle and last bytes are all the bytes of one to three; the rest is 0x01.
		return plainWord(uint64(s[0])|uint64(s[n/2])<<8|uint64(s[n-1])<<16|lo&^0xffffff, seps)
	}
	return true
}

// plainWord reports whether the eight bytes of w are ASCII and none is 0 or sep (seps is sep in
// every byte). A byte of w-lo has its top bit set only if the byte is 0 or above 0x80, or a lower
// byte was 0; the same of w^seps finds sep.
func plainWord(w, seps uint64) bool {
	return (w|(w-lo)|((w^seps)-lo))&hi == 0
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

// hi has each byte's top bit, lo each byte's lowest bit.
const (
	hi = 0x8080808080808080
	lo = 0x0101010101010101
)

// load64 reads the eight bytes of b (len(b) == 8) as a little-endian word: one load once the
// single bounds check has passed.
func load64(b string) uint64 {
	_ = b[7]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// load32 reads the four bytes of b (len(b) == 4) as a little-endian word.
func load32(b string) uint64 {
	_ = b[3]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24
}

// suspect reports whether the word w, eight bytes of a string, holds a byte outside ASCII or,
// with noNUL, a zero byte. It never misses one; which byte it is, the byte-wise walk finds.
func suspect(w uint64, noNUL bool) bool {
	if noNUL {
		// A byte of w-lo has its top bit set only if the byte is 0 or above 0x80, or a lower
		// byte was 0; a byte of w has it when above 0x7f.
		return (w|(w-lo))&hi != 0
	}
	return w&hi != 0
}

// FirstBad returns the offset of the first byte of s that is not part of valid UTF-8, or a NUL
// when noNUL is set, and -1 when there is none. ASCII is checked eight bytes at a time, the end
// of the string with a last word that overlaps the one before, a string of four to seven bytes
// with two overlapping four-byte words, and a shorter one in one word; only a word that holds a
// suspect byte is decoded.
func FirstBad(s string, noNUL bool) int {
	n := len(s)
	i := 0
	switch {
	case n >= 8:
		for ; i+8 <= n; i += 8 {
			if suspect(load64(s[i:i+8]), noNUL) {
				return firstBadFrom(s, i, noNUL)
			}
		}
		// Bytes before i are ASCII, so the last word may start among them.
		if i < n && suspect(load64(s[n-8:]), noNUL) {
			return firstBadFrom(s, i, noNUL)
		}
		return -1
	case n >= 4:
		if suspect(load32(s[:4])|load32(s[n-4:])<<32, noNUL) {
			return firstBadFrom(s, 0, noNUL)
		}
		return -1
	case n > 0:
		// The first, middle and last bytes are all the bytes of one to three.
		if suspect(uint64(s[0])|uint64(s[n/2])<<8|uint64(s[n-1])<<16|lo&^0xffffff, noNUL) {
			return firstBadFrom(s, 0, noNUL)
		}
	}
	return -1
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
