package conformance

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podconfig/podconfig/configgen"
)

// Deviation is a known difference between kubelet v1.37 and podconfig. Each has a row in the
// compatibility table (docs/compatibility.md).
type Deviation struct {
	// Name is what scenarios list.
	Name string
	// Why says what differs and why.
	Why string
	// Match reports whether a difference is this deviation.
	Match func(Diff) bool
}

// Deviations are the known differences, by name. The six mismatches and the empty-path case the
// first run found are fixed; what remains differs on purpose.
var Deviations = []Deviation{
	{
		Name: "node-side-validation",
		Why: "podconfig rejects, before any host effect, specs the API server's validation would have " +
			"rejected and kubelet passes on to the runtime (docs/compatibility.md: Node-side validation)",
		Match: func(d Diff) bool {
			return d.KubeletErr == nil && errors.Is(d.PodconfigErr, configgen.ErrInvalidPod)
		},
	},
	{
		Name: "no-hosts-file-on-failure",
		Why: "when a container's config fails, kubelet has already written the pod's etc-hosts file; " +
			"podconfig writes it only once every step that can fail has passed",
		Match: func(d Diff) bool {
			return d.Failed && strings.HasSuffix(d.Path, ".etcHosts") && d.Podconfig == `""`
		},
	},
}

// DeviationByName returns the named deviation.
func DeviationByName(name string) (Deviation, bool) {
	for _, d := range Deviations {
		if d.Name == name {
			return d, true
		}
	}
	return Deviation{}, false
}

// Classify splits diffs into those explained by one of the named deviations (by name) and the
// rest.
func Classify(diffs []Diff, names []string) (explained map[string][]Diff, unexplained []Diff) {
	explained = map[string][]Diff{}
	for _, d := range diffs {
		matched := false
		for _, name := range names {
			dev, ok := DeviationByName(name)
			if ok && dev.Match(d) {
				explained[name] = append(explained[name], d)
				matched = true
				break
			}
		}
		if !matched {
			unexplained = append(unexplained, d)
		}
	}
	return explained, unexplained
}

// AllNames returns every deviation's name.
func AllNames() []string {
	names := make([]string, len(Deviations))
	for i, d := range Deviations {
		names[i] = d.Name
	}
	return names
}

// ValidationDeviation is a known difference between the API server's validation and package
// validation's. Each has a row in the compatibility table (docs/compatibility.md).
type ValidationDeviation struct {
	// Name names the difference in reports.
	Name string
	// Why says what differs and why.
	Why string
	// Match reports whether a mismatch is this deviation.
	Match func(*ValidationMismatch) bool
}

// ValidationDeviations are the differences of package validation from the API server's that
// TestValidation tolerates: package validation gives the API server's errors with its words, and
// in its order where that order is fixed.
var ValidationDeviations = []ValidationDeviation{
	{
		Name: "map-order",
		Why: "the API server gives the errors of a map's entries (labels, annotations, selectors' " +
			"matchLabels, resource lists) in Go's random map order; podconfig gives them in key order",
		Match: func(m *ValidationMismatch) bool {
			return m.OrderOnly && sameErrors(sortMapRuns(m.APIServer), sortMapRuns(m.Podconfig))
		},
	},
}

// sortMapRuns returns errs with each run of consecutive errors on one map (one field, or fields
// that differ only in a final key: spec.resources.requests[cpu], spec.resources.requests[memory])
// sorted by text: the order the API server may give them in.
func sortMapRuns(errs field.ErrorList) field.ErrorList {
	out := slices.Clone(errs)
	for start := 0; start < len(out); {
		end := start + 1
		for end < len(out) && mapOf(out[end].Field) == mapOf(out[start].Field) {
			end++
		}
		slices.SortStableFunc(out[start:end], func(a, b *field.Error) int { return strings.Compare(a.Error(), b.Error()) })
		start = end
	}
	return out
}

// mapOf is a field path without its final key, when it ends in one that is not a list index.
// The fields of one resource requirements (its limits and requests, each list and its keys) are
// one map: walking the requests in map order, the API server also refuses the limits list
// ("Limit must be set for non overcommitable resources"), so those errors interleave.
func mapOf(path string) string {
	for _, list := range [...]string{".resources.limits", ".resources.requests"} {
		if i := strings.LastIndex(path, list); i >= 0 && (len(path) == i+len(list) || path[i+len(list)] == '[' && strings.HasSuffix(path, "]")) {
			return path[:i] + ".resources"
		}
	}
	if !strings.HasSuffix(path, "]") {
		return path
	}
	open := strings.LastIndexByte(path, '[')
	if open < 0 {
		return path
	}
	if _, err := strconv.Atoi(path[open+1 : len(path)-1]); err == nil {
		return path
	}
	return path[:open]
}

// ExplainValidation returns the name of the deviation that explains m, or "" when none does.
func ExplainValidation(m *ValidationMismatch) string {
	for _, d := range ValidationDeviations {
		if d.Match(m) {
			return d.Name
		}
	}
	return ""
}
