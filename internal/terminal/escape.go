package terminal

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every character a terminal would act on instead of showing written as a
// Go escape (`\x1b`, `\r`, `\n`, `\u009b`, `\u202e`): C0 and C1 control characters, DEL, the
// Unicode formatting characters that reorder or hide text (bidirectional overrides and isolates,
// zero-width marks) and bytes that are not UTF-8. Like kubectl's escaping of what it prints, the
// result is for reading, not for parsing back: a backslash is left as it is.
func Escape(s string) string {
	if isSafe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteString(hex2(s[i]))
		case needsEscape(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return utf8.ValidString(s) && !strings.ContainsFunc(s, needsEscape)
		}
	}
	return true
}

// needsEscape reports a control character (C0, DEL, C1) or a formatting character (category
// Cf: bidirectional controls, zero-width characters, the byte order mark).
func needsEscape(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

func escapeRune(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if r < 0x80 {
		return `\x` + hex2(byte(r))
	}
	q := strconv.QuoteRuneToASCII(r) // '\u009b'
	return q[1 : len(q)-1]
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}
