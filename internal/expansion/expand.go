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
	out, _ := expand(input, func(name string) (string, bool) { return mapping(name), true }, -1)
	return out
}

// ExpandLookup is Expand with a lookup that reports whether a name is defined: an undefined
// reference is kept literally as $(NAME), as MappingFuncFor does, without building that string
// first.
func ExpandLookup(input string, lookup func(name string) (string, bool)) string {
	out, _ := expand(input, lookup, -1)
	return out
}

// ExpandLookupLimit is ExpandLookup with a bound on the output: when the expansion of input would
// be longer than limit bytes it stops as soon as it knows, before writing past the bound, and
// returns "", false. So the memory an expansion takes is at most about limit, however its
// references multiply (kubelet has no bound: a chain of variables that each reference the
// previous one twice doubles with every line). An input without "$" is returned as is; a negative
// limit is no bound.
func ExpandLookupLimit(input string, lookup func(name string) (string, bool), limit int) (string, bool) {
	return expand(input, lookup, limit)
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
	expanded, missing, _ = ExpandStrictLimit(input, env, -1)
	return expanded, missing
}

// ExpandStrictLimit is ExpandStrict with ExpandLookupLimit's bound on the output: ok is false,
// and expanded empty, when the expansion would be longer than limit bytes.
func ExpandStrictLimit(input string, env map[string]string, limit int) (expanded string, missing []string, ok bool) {
	expanded, ok = expand(input, func(name string) (string, bool) {
		v := env[name]
		if v == "" {
			missing = append(missing, name)
		}
		return v, true
	}, limit)
	if len(missing) > 1 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
	}
	return expanded, missing, ok
}

// expand is the scanner shared by every entry point. resolve returns the replacement of one
// reference; a name it does not know is kept as the literal reference. The builder stays on the
// stack because resolve never sees it. With a limit of 0 or more, ok is false as soon as the
// output would exceed limit bytes; every write is checked before it is made.
func expand(input string, resolve func(name string) (string, bool), limit int) (out string, ok bool) {
	i := strings.IndexByte(input, '$')
	if i < 0 {
		return input, true
	}
	var b strings.Builder
	// fits reports whether n more bytes stay within the limit.
	fits := func(n int) bool { return limit < 0 || b.Len()+n <= limit }
	if grow := len(input) + 32; limit < 0 || grow <= limit {
		b.Grow(grow)
	} else {
		b.Grow(limit)
	}
	if !fits(i) {
		return "", false
	}
	b.WriteString(input[:i])
	// Once a "$(" has found no ")" after it, no later one can either; remembering that keeps a
	// hostile "$($($(..." linear instead of quadratic.
	unterminated := false
	for {
		// input[i] is '$'.
		switch {
		case i+1 == len(input) || input[i+1] == '$':
			// A trailing "$" is kept, and "$$" is an escaped "$".
			if !fits(1) {
				return "", false
			}
			b.WriteByte('$')
			i = min(i+2, len(input))
		case input[i+1] == '(':
			end := -1
			if !unterminated {
				end = strings.IndexByte(input[i+2:], ')')
			}
			if end < 0 {
				if !fits(2) {
					return "", false
				}
				unterminated = true
				b.WriteString("$(")
				i += 2
				break
			}
			name := input[i+2 : i+2+end]
			if v, ok := resolve(name); ok {
				if !fits(len(v)) {
					return "", false
				}
				b.WriteString(v)
			} else {
				if !fits(len(name) + 3) {
					return "", false
				}
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
			if !fits(1) {
				return "", false
			}
			b.WriteByte('$')
			i++
			if c := input[i]; c >= utf8.RuneSelf {
				if r, size := utf8.DecodeRuneInString(input[i:]); r == utf8.RuneError && size == 1 {
					if !fits(utf8.RuneLen(utf8.RuneError)) {
						return "", false
					}
					b.WriteString(string(utf8.RuneError))
					i++
				}
			}
		}
		next := strings.IndexByte(input[i:], '$')
		if next < 0 {
			if !fits(len(input) - i) {
				return "", false
			}
			b.WriteString(input[i:])
			return b.String(), true
		}
		if !fits(next) {
			return "", false
		}
		b.WriteString(input[i : i+next])
		i += next
	}
}
