package expansion

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var testVars = map[string]string{
	"A":     "a",
	"B":     "b",
	"C":     "c",
	"EMPTY": "",
	"REF":   "$(A)",
	"":      "empty-name",
}

func TestExpand(t *testing.T) {
	mapping := MappingFuncFor(testVars)
	tests := []struct {
		name, in, want string
	}{
		{"string without $ is unchanged", "plain text", "plain text"},
		{"empty string is unchanged", "", ""},
		{"whole string is a reference", "$(A)", "a"},
		{"reference at the start", "$(A)-1", "a-1"},
		{"reference in the middle", "__$(B)__", "__b__"},
		{"reference at the end", "__$(C)", "__c"},
		{"repeated reference", "$(A)$(A)-$(A)", "aa-a"},
		{"several references", "$(A)_$(B)_$(C)", "a_b_c"},
		{"reference to an empty value becomes empty", "x$(EMPTY)y", "xy"},
		{"undefined reference is kept literally", "$(NOPE)", "$(NOPE)"},
		{"empty name is looked up as the empty string", "<$()>", "<empty-name>"},
		{"$$ escapes a reference", "$$(A)", "$(A)"},
		{"escape then reference", "$$(B)_$(A)", "$(B)_a"},
		{"two escapes", "$$(A)_$$(B)", "$(A)_$(B)"},
		{"$$ before a bare name", "x-$$A", "x-$A"},
		{"even run of $ before an undefined reference", "$$$$$$(NOPE)", "$$$(NOPE)"},
		{"even run of $ before a defined reference", "$$$$$$(A)", "$$$(A)"},
		{"odd run of $ before an undefined reference", "$$$$$$$(NOPE)", "$$$$(NOPE)"},
		{"odd run of $ before a defined reference", "$$$$$$$(A)", "$$$a"},
		{"$ before another rune is kept", "$A", "$A"},
		{"shell special variables pass through", "$?_x_$!", "$?_x_$!"},
		{"shell braces are not syntax", "${A}", "${A}"},
		{"closing paren without opener", "$A)", "$A)"},
		{"parens without $", "f__(A)__", "f__(A)__"},
		{"trailing lone $ is kept", "$(A)end$", "aend$"},
		{"lone $ is kept", "$", "$"},
		{"three $ give two", "$$$", "$$"},
		{"unterminated reference is kept", "x$(Aoops", "x$(Aoops"},
		{"unterminated reference after a reference", "$(B)___$(A", "b___$(A"},
		{"bare $( at the end is kept", "$(C)___$(", "c___$("},
		{"many $( without closer", "--$($($($($--", "--$($($($($--"},
		{"many $( at the start", "$($($($($--x$(", "$($($($($--x$("},
		{"many $( at the end", "x--$($($($(", "x--$($($($("},
		{"escapes after an unterminated reference still apply", "$(x$$y", "$(x$y"},
		{"name runs to the first closing paren", "$(A$(B))", "$(A$(B))"},
		{"nested opener without second closer", "$(A$(B)", "$(A$(B)"},
		{"escape inside a name is not an escape", "$(x$$y)", "$(x$$y)"},
		{"backslash is not an escape", `x\$(C)y`, `x\cy`},
		{"double backslash is not an escape", `x\\$(C)y`, `x\\cy`},
		{"single pass: a value holding a reference is not expanded", "%$(REF)-$(REF)%", "%$(A)-$(A)%"},
		{"multi-byte rune after $ is kept", "$é$(A)", "$éa"},
		{"multi-byte rune inside a name", "$(é)", "$(é)"},
		{"invalid UTF-8 byte after $ becomes U+FFFD", "$\xff$(A)", "$\uFFFDa"},
		{"only the first invalid byte after $ is replaced", "$\xff\xfe", "$\uFFFD\xfe"},
		{"truncated multi-byte rune after $ replaces its first byte", "$\xe2\x82x", "$\uFFFD\x82x"},
		{"encoded surrogate after $ replaces its first byte", "$\xed\xa0\x80", "$\uFFFD\xa0\x80"},
		{"U+FFFD itself after $ is kept", "$\uFFFD", "$\uFFFD"},
		{"invalid UTF-8 elsewhere is kept", "\xff$(A)\xff", "\xffa\xff"},
		{"newline is plain text", "\n", "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Expand(tc.in, mapping))
			assert.Equal(t, tc.want, ExpandLookup(tc.in, func(name string) (string, bool) {
				v, ok := testVars[name]
				return v, ok
			}), "ExpandLookup")
			assert.Equal(t, tc.want, reference(tc.in, mapping), "reference implementation")
		})
	}
}

func TestMappingFuncFor(t *testing.T) {
	first := map[string]string{"A": "first", "ONLY1": "1"}
	second := map[string]string{"A": "second", "ONLY2": "2"}
	mapping := MappingFuncFor(first, second)
	tests := []struct{ name, key, want string }{
		{"first map wins", "A", "first"},
		{"found in first map only", "ONLY1", "1"},
		{"falls through to second map", "ONLY2", "2"},
		{"missing name returns the reference", "NOPE", "$(NOPE)"},
		{"missing empty name returns $()", "", "$()"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, mapping(tc.key))
		})
	}
	t.Run("no maps at all keeps every reference", func(t *testing.T) {
		assert.Equal(t, "$(X)", MappingFuncFor()("X"))
	})
}

func TestExpandStrict(t *testing.T) {
	env := map[string]string{"POD": "web-0", "NS": "prod", "EMPTY": ""}
	tests := []struct {
		name, in, want string
		missing        []string
	}{
		{"no reference", "logs", "logs", nil},
		{"all references resolve", "$(NS)/$(POD)", "prod/web-0", nil},
		{"missing name is reported and expands to empty", "$(NS)/$(NOPE)", "prod/", []string{"NOPE"}},
		{"empty value counts as missing", "x$(EMPTY)", "x", []string{"EMPTY"}},
		{"missing names are sorted and de-duplicated", "$(Z)$(A)$(Z)$(EMPTY)", "", []string{"A", "EMPTY", "Z"}},
		{"$$ still escapes", "$$(POD)", "$(POD)", nil},
		{"empty name is missing", "$()", "", []string{""}},
		{"unterminated reference is kept and not missing", "$(POD", "$(POD", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, missing := ExpandStrict(tc.in, env)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.missing, missing)
		})
	}
}

func TestExpandWithoutDollarDoesNotAllocate(t *testing.T) {
	in := strings.Repeat("no references here ", 10)
	mapping := MappingFuncFor(testVars)
	allocs := testing.AllocsPerRun(100, func() {
		_ = Expand(in, mapping)
		_, _ = ExpandStrict(in, testVars)
	})
	require.Zero(t, allocs)
}

// reference is a literal reading of kubelet's expansion rules, written independently of expand, rune by rune.
func reference(in string, mapping func(string) string) string {
	var out strings.Builder
	for i := 0; i < len(in); {
		if in[i] != '$' || i+1 >= len(in) {
			out.WriteByte(in[i])
			i++
			continue
		}
		rest := in[i+1:]
		switch rest[0] {
		case '$':
			out.WriteByte('$')
			i += 2
		case '(':
			if end := strings.IndexByte(rest, ')'); end >= 0 {
				out.WriteString(mapping(rest[1:end]))
				i += 1 + end + 1
			} else {
				out.WriteString("$(")
				i += 2
			}
		default:
			// Kubelet writes "$" and the decoded rune, so an invalid byte comes out as U+FFFD.
			r, size := utf8.DecodeRuneInString(rest)
			out.WriteByte('$')
			out.WriteRune(r)
			i += 1 + size
		}
	}
	return out.String()
}

func FuzzExpand(f *testing.F) {
	for _, seed := range []string{
		"", "plain", "$", "$$", "$$$", "$(A)", "$()", "$(", "$(A", "$(A$(B))", "$$(A)", "$é", "$\xff",
		"--$($($($($--", "$(REF)", "a$(EMPTY)b", "$(NOPE)", "${A}", "$(x$$y", "\x00$(A)\x00",
	} {
		f.Add(seed)
	}
	mapping := MappingFuncFor(testVars)
	f.Fuzz(func(t *testing.T, in string) {
		got := Expand(in, mapping)
		if !strings.Contains(in, "$") && got != in {
			t.Fatalf("Expand(%q) = %q, want the input unchanged", in, got)
		}
		if want := reference(in, mapping); got != want {
			t.Fatalf("Expand(%q) = %q, reference gives %q", in, got, want)
		}
		strict, missing := ExpandStrict(in, testVars)
		if !strings.Contains(in, "$") && (strict != in || missing != nil) {
			t.Fatalf("ExpandStrict(%q) = %q, %q; want the input unchanged", in, strict, missing)
		}
	})
}
