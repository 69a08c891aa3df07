package hosts

import "k8s.io/apimachinery/pkg/util/validation"

// dns1123LabelErrors is validation.IsDNS1123Label, answering a valid name without its regular
// expressions: every pod's hostname is checked, and nearly all are valid.
func dns1123LabelErrors(s string) []string {
	if len(s) <= validation.DNS1123LabelMaxLength && isDNS1123Label(s) {
		return nil
	}
	return validation.IsDNS1123Label(s)
}

// dns1123SubdomainErrors is validation.IsDNS1123Subdomain with the same shortcut.
func dns1123SubdomainErrors(s string) []string {
	if len(s) <= validation.DNS1123SubdomainMaxLength && isDNS1123Subdomain(s) {
		return nil
	}
	return validation.IsDNS1123Subdomain(s)
}

// isDNS1123Label matches [a-z0-9]([-a-z0-9]*[a-z0-9])?, whatever its length.
func isDNS1123Label(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && i > 0 && i < len(s)-1:
		default:
			return false
		}
	}
	return true
}

// isDNS1123Subdomain matches labels joined by single dots, whatever its length.
func isDNS1123Subdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isDNS1123Label(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}
