package conformance

import (
	"errors"
	"strings"

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
