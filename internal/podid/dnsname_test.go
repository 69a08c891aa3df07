package podid

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation"
)

var dnsNames = []string{
	"", "a", "web", "web-7d9f8", "-a", "a-", "a--b", "A", "a.b", "a..b", ".a", "a.", "a.-b", "a_b", "é",
	"0", "123-abc", "a\n", "a\x00", strings.Repeat("a", 63), strings.Repeat("a", 64),
	strings.Repeat("a.", 126) + "a", strings.Repeat("a.", 126) + "ab", strings.Repeat("a", 70) + ".b",
}

// The shortcuts give validation's own answers, messages included.
func TestDNS1123ShortcutsAreValidation(t *testing.T) {
	for _, s := range dnsNames {
		assert.Equal(t, validation.IsDNS1123Label(s), LabelErrors(s), "label %q", s)
		assert.Equal(t, validation.IsDNS1123Subdomain(s), SubdomainErrors(s), "subdomain %q", s)
	}
}

func FuzzDNS1123Shortcuts(f *testing.F) {
	for _, s := range dnsNames {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := LabelErrors(s), validation.IsDNS1123Label(s); len(got) != len(want) {
			t.Fatalf("label %q: %v, validation gives %v", s, got, want)
		}
		if got, want := SubdomainErrors(s), validation.IsDNS1123Subdomain(s); len(got) != len(want) {
			t.Fatalf("subdomain %q: %v, validation gives %v", s, got, want)
		}
	})
}
