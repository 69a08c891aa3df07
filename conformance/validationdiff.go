package conformance

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The validations of package validation compared with the API server's.
const (
	// CheckCreate is validation.ValidatePodCreate beside the pod strategy's create validation.
	CheckCreate = "create"
	// CheckEphemeral is validation.ValidateEphemeralContainers beside the ephemeralcontainers
	// subresource's validation of the same containers.
	CheckEphemeral = "ephemeral"
	// CheckObject is validation.ValidateObject beside the create validation of the object's
	// kind: the error lists, and the refusal's text (its kind and name).
	CheckObject = "object"
)

// ValidationMismatch is how podconfig's validation of one object differs from the API server's.
type ValidationMismatch struct {
	// Check is the validation compared (CheckCreate, ...).
	Check string
	// APIServer and Podconfig are the two error lists, in the order each gave them.
	APIServer, Podconfig field.ErrorList
	// Missing are errors only the API server gives, Extra errors only podconfig gives, and
	// Changed pairs of errors on one field that read differently (API server's first).
	Missing, Extra field.ErrorList
	Changed        [][2]*field.Error
	// OrderOnly says both give the same errors in another order.
	OrderOnly bool
	// APIServerText and PodconfigText are the refusals' texts when the lists agree and the texts
	// do not (another kind or name).
	APIServerText, PodconfigText string
}

// CompareValidation compares two error lists of one check: the same errors (type, field, detail
// and text) in the same order, or the mismatch.
func CompareValidation(check string, apiServer, podconfig field.ErrorList) *ValidationMismatch {
	if sameErrors(apiServer, podconfig) {
		return nil
	}
	m := &ValidationMismatch{Check: check, APIServer: apiServer, Podconfig: podconfig}
	left := make([]bool, len(podconfig)) // podconfig errors not matched yet
	var unmatched field.ErrorList
	for _, a := range apiServer {
		j := indexOfError(podconfig, left, func(p *field.Error) bool { return sameError(a, p) })
		if j < 0 {
			unmatched = append(unmatched, a)
			continue
		}
		left[j] = true
	}
	for _, a := range unmatched {
		j := indexOfError(podconfig, left, func(p *field.Error) bool { return p.Field == a.Field })
		if j < 0 {
			m.Missing = append(m.Missing, a)
			continue
		}
		left[j] = true
		m.Changed = append(m.Changed, [2]*field.Error{a, podconfig[j]})
	}
	for j, p := range podconfig {
		if !left[j] {
			m.Extra = append(m.Extra, p)
		}
	}
	m.OrderOnly = len(m.Missing) == 0 && len(m.Extra) == 0 && len(m.Changed) == 0
	return m
}

// indexOfError returns the first error of list not yet taken that match accepts, or -1.
func indexOfError(list field.ErrorList, taken []bool, match func(*field.Error) bool) int {
	for j, e := range list {
		if !taken[j] && match(e) {
			return j
		}
	}
	return -1
}

func sameErrors(a, b field.ErrorList) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameError(a[i], b[i]) {
			return false
		}
	}
	return true
}

// sameError compares what a user reads: the type, the field, the detail and the whole text (which
// adds the value).
func sameError(a, b *field.Error) bool {
	return a.Type == b.Type && a.Field == b.Field && a.Detail == b.Detail && a.Error() == b.Error()
}

// Groups returns the keys the mismatch is counted under in a report, one per differing error:
// the check, the field path with its indices and keys replaced by [*], and how it differs.
func (m *ValidationMismatch) Groups() []string {
	var keys []string
	add := func(f, how string) {
		keys = append(keys, fmt.Sprintf("%s (%s): %s", NormaliseFieldPath(f), m.Check, how))
	}
	for _, e := range m.Missing {
		add(e.Field, "only the API server: "+string(e.Type))
	}
	for _, e := range m.Extra {
		add(e.Field, "only podconfig: "+string(e.Type))
	}
	for _, c := range m.Changed {
		if c[0].Type != c[1].Type {
			add(c[0].Field, fmt.Sprintf("both, API server %s, podconfig %s", c[0].Type, c[1].Type))
		} else {
			add(c[0].Field, "both, read differently: "+string(c[0].Type))
		}
	}
	if m.OrderOnly {
		add(m.firstOutOfOrder(), "same errors, another order")
	}
	if m.APIServerText != m.PodconfigText {
		add("", "same errors, the refusal reads differently")
	}
	return keys
}

// Field returns the field of the mismatch's first differing error, the part of the object a
// report shows.
func (m *ValidationMismatch) Field() string {
	switch {
	case len(m.Missing) > 0:
		return m.Missing[0].Field
	case len(m.Extra) > 0:
		return m.Extra[0].Field
	case len(m.Changed) > 0:
		return m.Changed[0][0].Field
	case m.OrderOnly:
		return m.firstOutOfOrder()
	}
	return ""
}

func (m *ValidationMismatch) firstOutOfOrder() string {
	for i := range m.APIServer {
		if i >= len(m.Podconfig) || !sameError(m.APIServer[i], m.Podconfig[i]) {
			return m.APIServer[i].Field
		}
	}
	return ""
}

func (m *ValidationMismatch) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: API server %s, podconfig %s", m.Check, verdict(m.APIServer), verdict(m.Podconfig))
	for _, e := range m.Missing {
		fmt.Fprintf(&b, "\n  only the API server: %v", e)
	}
	for _, e := range m.Extra {
		fmt.Fprintf(&b, "\n  only podconfig:      %v", e)
	}
	for _, c := range m.Changed {
		fmt.Fprintf(&b, "\n  API server: %v\n  podconfig:  %v", c[0], c[1])
	}
	if m.OrderOnly {
		b.WriteString("\n  the same errors in another order")
	}
	if m.APIServerText != m.PodconfigText {
		fmt.Fprintf(&b, "\n  API server: %s\n  podconfig:  %s", m.APIServerText, m.PodconfigText)
	}
	return b.String()
}

func verdict(errs field.ErrorList) string {
	if len(errs) == 0 {
		return "accepts"
	}
	return fmt.Sprintf("refuses (%d errors)", len(errs))
}

// NormaliseFieldPath replaces every index and key of a field path with [*]:
// spec.containers[0].env[3].name becomes spec.containers[*].env[*].name. An empty path is
// "<no field>".
func NormaliseFieldPath(p string) string {
	if p == "" {
		return "<no field>"
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '[' {
			b.WriteByte(p[i])
			continue
		}
		end := strings.IndexByte(p[i:], ']')
		if end < 0 {
			b.WriteString(p[i:])
			break
		}
		b.WriteString("[*]")
		i += end
	}
	return b.String()
}
