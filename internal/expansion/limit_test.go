package expansion

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExpandLookupLimit(t *testing.T) {
	vars := map[string]string{"A": "aaaa", "BIG": strings.Repeat("x", 1<<20)}
	lookup := func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
	tests := []struct {
		name, in string
		limit    int
		want     string
		wantOK   bool
	}{
		{"output at the limit is kept", "$(A)$(A)", 8, "aaaaaaaa", true},
		{"one byte over the limit fails", "$(A)$(A)!", 8, "", false},
		{"a literal over the limit fails too", "$(A)" + strings.Repeat("l", 10), 8, "", false},
		{"an undefined reference kept literally counts", "$(NOPE)", 6, "", false},
		{"input without $ is returned as is whatever its length", strings.Repeat("l", 10), 8, strings.Repeat("l", 10), true},
		{"a negative limit is no bound", "$(A)$(A)", -1, "aaaaaaaa", true},
		{"a huge value fails as soon as it is written", "$(BIG)", 1 << 10, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ExpandLookupLimit(tc.in, lookup, tc.limit)
			require.Equal(t, tc.wantOK, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestExpandLookupLimitBoundsMemory: a doubling chain of variables (each $(prev)$(prev)) stops at
// the bound, and what it allocated stays a small multiple of the bound.
func TestExpandLookupLimitBoundsMemory(t *testing.T) {
	const limit = 1 << 16
	vars := map[string]string{"V0": "a"}
	lookup := func(name string) (string, bool) { v, ok := vars[name]; return v, ok }
	prev := "V0"
	failedAt := -1
	for i := 1; i < 64; i++ {
		v, ok := ExpandLookupLimit("$("+prev+")$("+prev+")", lookup, limit)
		if !ok {
			failedAt = i
			break
		}
		name := "V" + string(rune('0'+i%10)) + strings.Repeat("_", i)
		vars[name] = v
		prev = name
	}
	assert.Equal(t, 17, failedAt, "2^16 bytes fit, 2^17 do not")
	allocs := testing.AllocsPerRun(10, func() { _, _ = ExpandLookupLimit("$("+prev+")$("+prev+")", lookup, limit) })
	assert.LessOrEqual(t, allocs, 3.0)
}

// FuzzExpandLookupLimit: the bounded expansion gives the unbounded one's result when that fits the
// limit, and fails exactly when it does not.
func FuzzExpandLookupLimit(f *testing.F) {
	f.Add("$(A)$(A)", "xyz", 5)
	f.Add("$$(A)$", "", 0)
	f.Add("a$(\xff)$\xff$(", "é", 3)
	f.Add("$(A)$(NOPE)$(", "12345678", 12)
	f.Fuzz(func(t *testing.T, in, value string, limit int) {
		if limit < 0 {
			limit = -limit
		}
		lookup := func(name string) (string, bool) { return value, name == "A" }
		full := ExpandLookup(in, lookup)
		got, ok := ExpandLookupLimit(in, lookup, limit)
		switch {
		case !strings.Contains(in, "$"):
			require.True(t, ok)
			require.Equal(t, in, got)
		case len(full) <= limit:
			require.True(t, ok, "%q expands to %d bytes, within %d", in, len(full), limit)
			require.Equal(t, full, got)
		default:
			require.False(t, ok, "%q expands to %d bytes, over %d", in, len(full), limit)
			require.Empty(t, got)
		}
	})
}
