package pathelem

import "strings"

// SlashDotOrSlash reports whether p holds "//" or "/.": every path filepath.Clean would change
// holds one, starts with '.', ends with '/' or is empty, so a path that has none of these is
// clean without walking its elements. It reads p eight bytes at a time.
func SlashDotOrSlash(p string) bool {
	const (
		lo    = 0x0101010101010101
		hi    = 0x8080808080808080
		seven = 0x7f7f7f7f7f7f7f7f
	)
	// zero has the high bit of each byte of v that is zero set, and no other bit.
	zero := func(v uint64) uint64 { return ^(((v & seven) + seven) | v) & hi }
	afterSlash := false // p[i-1] is '/'
	i := 0
	for ; i+8 <= len(p); i += 8 {
		w := uint64(p[i]) | uint64(p[i+1])<<8 | uint64(p[i+2])<<16 | uint64(p[i+3])<<24 |
			uint64(p[i+4])<<32 | uint64(p[i+5])<<40 | uint64(p[i+6])<<48 | uint64(p[i+7])<<56
		slash := zero(w ^ '/'*lo)
		next := slash | zero(w^'.'*lo)
		// A slash whose next byte is '/' or '.', in this word or across from the last one.
		if slash&(next>>8) != 0 || (afterSlash && next&0x80 != 0) {
			return true
		}
		afterSlash = slash>>63 != 0
	}
	for ; i < len(p); i++ {
		c := p[i]
		if afterSlash && (c == '/' || c == '.') {
			return true
		}
		afterSlash = c == '/'
	}
	return false
}

// IsPlain reports whether p is a non-empty path with no empty, "." or ".." element and no
// trailing slash ("/" itself is plain). filepath.Clean returns a plain path unchanged; a clean
// path that starts with ".." is not plain, which only costs its caller a Clean.
func IsPlain(p string) bool {
	if p == "/" {
		return true
	}
	if p == "" || p[len(p)-1] == '/' {
		return false
	}
	// With no "//" or "/." and no leading '.', no element can be empty, "." or "..": one
	// word-at-a-time scan settles the usual path; one with a dot file is walked element by element.
	if p[0] != '.' && !SlashDotOrSlash(p) {
		return true
	}
	if p[0] == '/' {
		p = p[1:]
	}
	for {
		elem, rest, more := strings.Cut(p, "/")
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
		if !more {
			return true
		}
		p = rest
	}
}
