package configgen

import (
	"regexp"
	"strings"
	"testing"
)

// sysctlNamePattern is the API server's IsValidSysctlName pattern (pkg/apis/core/validation).
const sysctlNamePattern = `^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`

// sysctlNameReference is IsValidSysctlName: at most 253 bytes, matching the pattern.
func sysctlNameReference(re *regexp.Regexp, name string) bool {
	return len(name) <= 253 && re.MatchString(name)
}

// validSysctlName accepts exactly the names the API server's pattern matches, up to 253 bytes.
func TestValidSysctlName(t *testing.T) {
	re := regexp.MustCompile(sysctlNamePattern)
	tests := []struct {
		name string
		want bool
	}{
		{"kernel.shm_rmid_forced", true},
		{"net.ipv4.ip_unprivileged_port_start", true},
		{"net/ipv4/ip_forward", true},
		{"net.ipv4.conf.eth0/1.forwarding", true},
		{"a", true},
		{"a--b", true},
		{"", false},
		{".a", false},
		{"a.", false},
		{"a..b", false},
		{"a./b", false},
		{"-a", false},
		{"a-", false},
		{"a-.b", false},
		{"a._b", false},
		{"Kernel.x", false},
		{"../../kernel/core_pattern", false},
		{"a b", false},
		{strings.Repeat("a", 253), true},
		{strings.Repeat("a", 254), false},
	}
	for _, tc := range tests {
		if got := validSysctlName(tc.name); got != tc.want {
			t.Errorf("validSysctlName(%q) = %v, want %v", tc.name, got, tc.want)
		}
		if ref := sysctlNameReference(re, tc.name); ref != tc.want {
			t.Errorf("reference(%q) = %v, want %v", tc.name, ref, tc.want)
		}
	}
	// Every name of up to five bytes over an alphabet with each class of byte.
	const alphabet = "a0-_./A!"
	var walk func(prefix string)
	walk = func(prefix string) {
		if got, want := validSysctlName(prefix), sysctlNameReference(re, prefix); got != want {
			t.Fatalf("validSysctlName(%q) = %v, pattern says %v", prefix, got, want)
		}
		if len(prefix) == 5 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			walk(prefix + alphabet[i:i+1])
		}
	}
	walk("")
}

func FuzzValidSysctlName(f *testing.F) {
	for _, s := range []string{"kernel.shm_rmid_forced", "net/ipv4/ip_forward", "a-.b", "../x", ""} {
		f.Add(s)
	}
	re := regexp.MustCompile(sysctlNamePattern)
	f.Fuzz(func(t *testing.T, name string) {
		if got, want := validSysctlName(name), sysctlNameReference(re, name); got != want {
			t.Fatalf("validSysctlName(%q) = %v, pattern says %v", name, got, want)
		}
	})
}

func BenchmarkValidSysctlName(b *testing.B) {
	for b.Loop() {
		if !validSysctlName("net.ipv4.ip_unprivileged_port_start") {
			b.Fatal("refused")
		}
	}
}
