package pathelem

import "strings"

// SlashDotOrSlash reports whether p holds "//" or "/.": every path filepath.Clean would change
// holds one, starts with '.', ends with '/' or is empty, so a path that has none of these is
// clean without walking its elements.
func SlashDotOrSlash(p string) bool {
	return strings.Contains(p, "//") || strings.Contains(p, "/.")
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
	// scan settles the usual path; one with a dot file is walked element by element.
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
