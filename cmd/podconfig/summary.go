package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/podconfig/podconfig/configgen"
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

// namedInSummary is how many pods or containers a summarised warning names before "and N more".
const namedInSummary = 3

// podWarnings are the rendered pods' and containers' warnings as lines for standard error. One
// message given for several pods or containers (a DaemonSet's replicas, say) is one line: the
// message, how many pods and the first few of them. The ServiceAccounts and RuntimeClasses
// admission assumed are left out: assumedObjects sums them up already.
func podWarnings(pods []podSummary) []string {
	type group struct {
		w          configgen.Warning
		where      []string // "ns/name" or "ns/name container c", in order
		pods       int
		lastPod    int
		containers int
	}
	var groups []*group
	byMessage := map[[2]string]*group{}
	add := func(i int, w configgen.Warning, container string) {
		if w.Reason == reasonAssumedObject {
			return
		}
		key := [2]string{w.Reason, w.Message}
		g := byMessage[key]
		if g == nil {
			g = &group{w: w, lastPod: -1}
			byMessage[key] = g
			groups = append(groups, g)
		}
		where := pods[i].Name
		if container != "" {
			where += " container " + container
		}
		if n := len(g.where); n > 0 && g.where[n-1] == where {
			return
		}
		g.where = append(g.where, where)
		if container != "" {
			g.containers++
		}
		if g.lastPod != i {
			g.pods++
			g.lastPod = i
		}
	}
	for i, p := range pods {
		for _, w := range p.Warnings {
			add(i, w, "")
		}
		for _, c := range p.Containers {
			for _, w := range c.Warnings {
				add(i, w, c.Name)
			}
		}
	}
	out := make([]string, 0, len(groups))
	for _, g := range groups {
		if hint := warningHint(g.w.Reason); hint != "" {
			g.w.Message += "; " + hint
		}
		if len(g.where) == 1 {
			// As a failure names it: "pod ns/name, container c".
			out = append(out, fmt.Sprintf("pod %s: %s", strings.Replace(g.where[0], " container ", ", container ", 1), g.w))
			continue
		}
		count := fmt.Sprintf("%d pods", g.pods)
		if g.containers > 0 {
			count = fmt.Sprintf("%d containers in %s", g.containers, count)
		}
		named := g.where
		more := ""
		if len(named) > namedInSummary {
			more = fmt.Sprintf(" and %d more", len(named)-namedInSummary)
			named = named[:namedInSummary]
		}
		out = append(out, fmt.Sprintf("%s (%s: %s%s)", g.w, count, strings.Join(named, ", "), more))
	}
	return out
}

// warningHint is the remedy render adds to a warning of kubelet's whose cause offline may be
// only that the input lacks what the cluster has.
func warningHint(reason string) string {
	switch reason {
	case configgen.ReasonOptionalConfigMapNotFound, configgen.ReasonOptionalSecretNotFound:
		return "kubelet skips it as well when it is missing, but if the cluster has it, add it to the input"
	}
	return ""
}
