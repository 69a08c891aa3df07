package podid

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
)

// MaxUIDLength bounds a UID. The API server assigns 36-character UUIDs and kubelet names a static
// pod by a 32-character hash; 128 leaves room for other schemes while keeping the cgroup and
// directory names built from it far below the 255-byte limit of a path element.
const MaxUIDLength = 128

// Problem returns the first part of a pod's identity the node refuses, as its field path
// ("metadata.namespace", "metadata.name" or "metadata.uid"), and a message saying why; both are
// "" when the identity is fine. The namespace must be an RFC 1123 label and the name an RFC 1123
// subdomain, as the API server requires; the UID must be what UIDProblem accepts.
func Problem(namespace, name string, uid types.UID) (field, msg string) {
	if msgs := LabelErrors(namespace); len(msgs) > 0 {
		return "metadata.namespace", invalid("metadata.namespace", namespace, strings.Join(msgs, "; "))
	}
	if msgs := SubdomainErrors(name); len(msgs) > 0 {
		return "metadata.name", invalid("metadata.name", name, strings.Join(msgs, "; "))
	}
	if why := UIDProblem(uid); why != "" {
		return "metadata.uid", invalid("metadata.uid", string(uid), why)
	}
	return "", ""
}

// UIDProblem returns why the node refuses uid, or "": a UID must be 1 to MaxUIDLength ASCII
// letters, digits and '-'. That refuses '_', so that the directory <namespace>_<name>_<uid> names
// one pod only, and keeps the systemd cgroup name, which turns each '-' into '_', one pod's.
func UIDProblem(uid types.UID) string {
	s := string(uid)
	if s == "" {
		return "must not be empty"
	}
	if len(s) > MaxUIDLength {
		return "must be at most " + strconv.Itoa(MaxUIDLength) + " characters"
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-':
		default:
			return "must consist of ASCII letters, digits and '-' (a UUID, as the API server assigns)"
		}
	}
	return ""
}

// invalid formats a refusal as the module's other name checks do.
func invalid(field, value, why string) string {
	if len(value) > 64 {
		value = value[:64] + "..."
	}
	return "invalid " + field + " " + strconv.Quote(value) + ": " + why
}

// LabelErrors is validation.IsDNS1123Label, answering a valid name without its regular
// expressions: every pod's namespace and hostname is checked, and nearly all are valid.
func LabelErrors(s string) []string {
	if len(s) <= validation.DNS1123LabelMaxLength && isLabel(s) {
		return nil
	}
	return validation.IsDNS1123Label(s)
}

// SubdomainErrors is validation.IsDNS1123Subdomain with the same shortcut.
func SubdomainErrors(s string) []string {
	if len(s) <= validation.DNS1123SubdomainMaxLength && isSubdomain(s) {
		return nil
	}
	return validation.IsDNS1123Subdomain(s)
}

// isLabel matches [a-z0-9]([-a-z0-9]*[a-z0-9])?, whatever its length.
func isLabel(s string) bool {
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

// isSubdomain matches labels joined by single dots, whatever its length.
func isSubdomain(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isLabel(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}
