package expansion

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Expand replaces every $(NAME) reference in input with mapping(NAME), in a single pass: the text a
// mapping returns is never expanded again. "$$" is an escape for a literal "$". A "$(" with no ")"
// anywhere after it, a "$" followed by any other rune, and a trailing "$" are kept as written,
// except that a byte right after a "$" that is not valid UTF-8 becomes U+FFFD, as in kubelet. The
// name is everything between "$(" and the first ")", so it may be empty or hold any other character.
// It reproduces kubelet's third_party/forked/golang/expansion.Expand. An input without "$" is
// returned as is, without allocating.
func Expand(input string, mapping func(string) string) string {
	return expand(input, func(name string) (string, bool) { return mapping(name), true })
}

// ExpandLookup is Expand with a lookup that reports whether a name is defined: an undefined
// reference is kept literally as $(NAME), as MappingFuncFor does, without building that string
// first.
func ExpandLookup(input string, lookup func(name string) (string, bool)) string {
	return expand(input, lookup)
}

// MappingFuncFor returns a mapping for Expand that looks a name up in each map in turn and returns
// the first value found; a name found in none is returned as the literal reference $(NAME), so it
// survives expansion unchanged. It reproduces kubelet's expansion.MappingFuncFor.
func MappingFuncFor(context ...map[string]string) func(string) string {
	return func(name string) string {
		for _, vars := range context {
			if v, ok := vars[name]; ok {
				return v
			}
		}
		return "$(" + name + ")"
	}
}

// ExpandStrict expands input against env the way kubelet expands a volumeMount's subPathExpr: a
// reference to a name that is missing from env, or maps to "", becomes "" and its name is reported.
// missing holds those names sorted and de-duplicated, nil when every reference resolved; the
// caller turns it into kubelet's "missing value for A, B" error. "$$" still escapes.
func ExpandStrict(input string, env map[string]string) (expanded string, missing []string) {
	expanded = expand(input, func(name string) (string, bool) {
		v := env[name]
		if v == "" {
			missing = append(missing, name)
		}
		return v, true
	})
	if len(missing) > 1 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
	}
	return expanded, missing
}

// expand is the scanner shared by every entry point. resolve returns the replacement of one
// reference; a name it does not know is kept as the literal reference. The builder stays on the
// stack because resolve never sees it.
func expand(input string, resolve func(name string) (string, bool)) string {
	i := strings.IndexByte(input, '$')
	if i < 0 {
		return input
	}
	var b strings.Builder
	b.Grow(len(input) + 32)
	b.WriteString(input[:i])
	// Once a "$(" has found no ")" after it, no later one can either; remembering that keeps a
	// hostile "$($($(..." linear instead of quadratic.
	unterminated := false
	for {
		// input[i] is '$'.
		switch {
		case i+1 == len(input):
			b.WriteByte('$')
			i++
		case input[i+1] == '$':
			b.WriteByte('$')
			i += 2
		case input[i+1] == '(':
			end := -1
			if !unterminated {
				end = strings.IndexByte(input[i+2:], ')')
			}
			if end < 0 {
				unterminated = true
				b.WriteString("$(")
				i += 2
				break
			}
			name := input[i+2 : i+2+end]
			if v, ok := resolve(name); ok {
				b.WriteString(v)
			} else {
				b.WriteString("$(")
				b.WriteString(name)
				b.WriteByte(')')
			}
			i += 2 + end + 1
		default:
			// Kubelet writes "$" and the rune after it as it decoded it: a valid rune comes out
			// as it went in, but a byte that starts no valid UTF-8 sequence comes out as U+FFFD.
			// No byte of a multi-byte rune is '$' or '(', so for a valid rune copying just the
			// "$" and scanning on gives the same bytes.
			b.WriteByte('$')
			i++
			if c := input[i]; c >= utf8.RuneSelf {
				if r, size := utf8.DecodeRuneInString(input[i:]); r == utf8.RuneError && size == 1 {
					b.WriteString(string(utf8.RuneError))
					i++
				}
			}
		}
		next := strings.IndexByte(input[i:], '$')
		if next < 0 {
			b.WriteString(input[i:])
			return b.String()
		}
		b.WriteString(input[i : i+next])
		i += next
	}
}
