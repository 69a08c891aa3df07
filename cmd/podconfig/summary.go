package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// skippedKind matches manifest's warning for a document of a kind that makes no pod.
var skippedKind = regexp.MustCompile(`^(.*): skipped: kind (\S+) makes no pod and is not read$`)

// summarize folds the warnings for documents skipped for their kind into one line (their count
// and kinds), so that a chart's RBAC and CRDs do not bury the warnings that matter; the others
// are kept as they are, in order. One skipped document keeps its own line.
func summarize(warnings []string) []string {
	var out []string
	kinds := map[string]int{}
	skipped := 0
	first := -1
	for _, w := range warnings {
		m := skippedKind.FindStringSubmatch(w)
		if m == nil {
			out = append(out, w)
			continue
		}
		if first < 0 {
			first = len(out)
			out = append(out, w)
		}
		kinds[m[2]]++
		skipped++
	}
	if skipped > 1 {
		names := make([]string, 0, len(kinds))
		for k := range kinds {
			names = append(names, k)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, k := range names {
			parts[i] = fmt.Sprintf("%s (%d)", k, kinds[k])
		}
		out[first] = fmt.Sprintf("skipped %d documents of kinds that make no pod: %s", skipped, strings.Join(parts, ", "))
	}
	return out
}
