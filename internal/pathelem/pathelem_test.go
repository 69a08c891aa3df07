package pathelem

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"an ordinary name is one element", "web-1", ""},
		{"dots inside a name are fine", "a..b", ""},
		{"an empty name is refused", "", `invalid container name "": must not be empty`},
		{"dot is refused", ".", `invalid container name ".": must not be '.' or '..'`},
		{"dot-dot is refused", "..", `invalid container name "..": must not be '.' or '..'`},
		{"a slash is refused", "a/b", `invalid container name "a/b": must not contain '/'`},
		{"a NUL byte is refused", "a\x00b", `invalid container name "a\x00b": must not contain a NUL byte`},
		{"255 bytes is the longest element", strings.Repeat("a", 255), ""},
		{"256 bytes is longer than NAME_MAX", strings.Repeat("a", 256), `invalid container name "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"... (256 bytes): must be at most 255 bytes long`},
		{"invalid UTF-8 is refused", "a\xffb", `invalid container name "a\xffb": must be valid UTF-8`},
		{"valid UTF-8 is fine", "wörk", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Validate("container name", tt.input))
		})
	}
}

func TestHasDotDot(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"", false},
		{"a/b", false},
		{"..", true},
		{"../a", true},
		{"a/..", true},
		{"a/../b", true},
		{"/..", true},
		{"a//..//b", true},
		{"..a/b..", false},
		{"...", false},
		{"a/./b", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, HasDotDot(tc.path), "%q", tc.path)
	}
}

// firstBadReference is FirstBad's rule written plainly, one character at a time.
func firstBadReference(s string, noNUL bool) int {
	for i, r := range s {
		if noNUL && r == 0 {
			return i
		}
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return -1
}

// validateReference is Validate's rule written plainly, without the one-pass shortcut.
func validateReference(kind, name string) string {
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

// plainReference is Plain's rule written plainly.
func plainReference(s string, sep byte) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == 0 || c == sep || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FirstBad finds the first invalid UTF-8 byte (and, with noNUL, the first NUL) wherever it is:
// in a short string, in a full eight-byte word, in the overlapping last word, or after
// multi-byte characters.
func TestFirstBad(t *testing.T) {
	tests := []struct {
		name        string
		s           string
		want, noNUL int
	}{
		{"empty", "", -1, -1},
		{"short ASCII", "web", -1, -1},
		{"seven bytes", "abcdefg", -1, -1},
		{"eight bytes", "abcdefgh", -1, -1},
		{"nine bytes", "abcdefghi", -1, -1},
		{"NUL in a short string", "a\x00b", -1, 1},
		{"NUL as the fifth of six bytes", "abcd\x00f", -1, 4},
		{"NUL in the first word", "ab\x00defghij", -1, 2},
		{"NUL in the overlapping last word", "abcdefghij\x00", -1, 10},
		{"NUL right after a full word", "abcdefgh\x00", -1, 8},
		{"NUL first", "\x00abcdefgh", -1, 0},
		{"0x01 bytes are not NUL", "\x01\x01\x01\x01\x01\x01\x01\x01\x01", -1, -1},
		{"invalid byte in a short string", "a\xff", 1, 1},
		{"invalid byte in the last word", "abcdefghijk\xff", 11, 11},
		{"invalid byte among four to seven bytes", "abc\xffe", 3, 3},
		{"valid UTF-8 after ASCII", "abcdefgh日本語", -1, -1},
		{"valid UTF-8 in a short string", "wörk", -1, -1},
		{"truncated character at the end", "abcdefgh\xe6\x97", 8, 8},
		{"NUL after a multi-byte character", "日本\x00", -1, 6},
		{"invalid byte after NUL", "ab\x00\xff", 3, 2},
		{"surrogate half", "abcdefgh\xed\xa0\x80", 8, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, FirstBad(tc.s, false), "noNUL false")
			assert.Equal(t, tc.noNUL, FirstBad(tc.s, true), "noNUL true")
			assert.Equal(t, firstBadReference(tc.s, false), FirstBad(tc.s, false), "reference, noNUL false")
			assert.Equal(t, firstBadReference(tc.s, true), FirstBad(tc.s, true), "reference, noNUL true")
		})
	}
}

// Every bad byte at every position of strings of every length up to 40 is found where the
// plain rule finds it, and Validate's and Plain's one-pass shortcuts agree with the plain rules.
func TestFirstBadEveryPosition(t *testing.T) {
	for n := 0; n <= 40; n++ {
		for pos := 0; pos < n; pos++ {
			for _, bad := range []string{"\x00", "\xff", "\xc3", "/", "=", "\x01", "\x7f", "\x80", "é", "\xe6\x97\xa5"} {
				b := []byte(strings.Repeat("a", n))
				s := string(b[:pos]) + bad + string(b[pos+1:])
				for _, noNUL := range []bool{false, true} {
					require.Equal(t, firstBadReference(s, noNUL), FirstBad(s, noNUL), "%q noNUL=%v", s, noNUL)
				}
				require.Equal(t, validateReference("name", s), Validate("name", s), "%q", s)
				require.Equal(t, plainReference(s, '='), Plain(s, '='), "Plain(%q, '=')", s)
			}
		}
	}
	for _, n := range []int{254, 255, 256} {
		for _, s := range []string{strings.Repeat("a", n), strings.Repeat("é", n/2), strings.Repeat("a", n-1) + "/"} {
			require.Equal(t, validateReference("name", s), Validate("name", s), "%d bytes", len(s))
		}
	}
}

func FuzzFirstBad(f *testing.F) {
	for _, s := range []string{"", "web", "abcdefgh\x00", "日本語abcdefgh", "a/b", "..", "\xff\xfe", "abcdefghijk\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, noNUL := range []bool{false, true} {
			if got, want := FirstBad(s, noNUL), firstBadReference(s, noNUL); got != want {
				t.Fatalf("FirstBad(%q, %v) = %d, want %d", s, noNUL, got, want)
			}
		}
		for _, sep := range []byte{'/', '='} {
			if got, want := Plain(s, sep), plainReference(s, sep); got != want {
				t.Fatalf("Plain(%q, %q) = %v, want %v", s, sep, got, want)
			}
		}
		if got, want := Validate("name", s), validateReference("name", s); got != want {
			t.Fatalf("Validate(%q) = %q, want %q", s, got, want)
		}
	})
}

// BenchmarkFirstBad checks the strings of a typical pod spec: names, labels, paths, arguments.
func BenchmarkFirstBad(b *testing.B) {
	strs := []string{"web", "shop", "7f3c2a1e-9b8d-4c6f-a5e4-3d2c1b0a9f8e", "app.kubernetes.io/name", "web",
		"registry.example.com/shop/web:1.8.2", "/usr/bin/web", "--listen=$(POD_IP):8080", "/srv/web",
		"/dev/termination-log", "File", "LOG_LEVEL", "info", "APP_", "http", "/etc/web/app.yaml", "app.yaml"}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range strs {
			if FirstBad(s, true) >= 0 {
				b.Fatal(s)
			}
		}
	}
}

// BenchmarkValidate checks the names a pod turns into path elements.
func BenchmarkValidate(b *testing.B) {
	names := []string{"web", "shop", "7f3c2a1e-9b8d-4c6f-a5e4-3d2c1b0a9f8e", "web-7d9f8c6b5-x2k4p"}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range names {
			if Validate("name", s) != "" {
				b.Fatal(s)
			}
		}
	}
}
