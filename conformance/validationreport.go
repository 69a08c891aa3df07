package conformance

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// ValidationReport gathers the mismatches of a validation run by group (ValidationMismatch.Groups),
// with a count and the first example of each, so that a rule podconfig gets wrong reads as one
// line however many objects show it.
type ValidationReport struct {
	groups map[string]*validationGroup
	// Objects counts the objects compared, Refused those the API server refuses and Mismatched
	// those with a mismatch, by input class.
	Objects, Refused, Mismatched map[string]int
}

type validationGroup struct {
	key     string
	count   int
	example ValidationExample
}

// ValidationExample is one object that shows a mismatch.
type ValidationExample struct {
	// Name names the object's input ("mutated pod 12 (seed 5)", a manifest's document).
	Name string
	// Changes are the mutations made to a valid object, if any.
	Changes []string
	// Object is the object as both sides validated it, as JSON.
	Object []byte
	// Mismatch is how the two validations differ.
	Mismatch *ValidationMismatch
}

// NewValidationReport returns an empty report.
func NewValidationReport() *ValidationReport {
	return &ValidationReport{groups: map[string]*validationGroup{}, Objects: map[string]int{}, Refused: map[string]int{}, Mismatched: map[string]int{}}
}

// Add counts one object of class compared, whether the API server refuses it, and the
// mismatches its checks found.
func (r *ValidationReport) Add(class string, refused bool, ex ValidationExample, mismatches ...*ValidationMismatch) {
	r.Objects[class]++
	if refused {
		r.Refused[class]++
	}
	if len(mismatches) > 0 {
		r.Mismatched[class]++
	}
	for _, m := range mismatches {
		seen := map[string]bool{}
		for _, key := range m.Groups() {
			if seen[key] {
				continue
			}
			seen[key] = true
			g := r.groups[key]
			if g == nil {
				g = &validationGroup{key: key, example: ex}
				g.example.Mismatch = m
				r.groups[key] = g
			}
			g.count++
		}
	}
}

// Counts returns, one line per input class, the objects compared, refused by the API server and
// with a mismatch.
func (r *ValidationReport) Counts() string {
	classes := make([]string, 0, len(r.Objects))
	for c := range r.Objects {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	var b strings.Builder
	for _, c := range classes {
		fmt.Fprintf(&b, "%6d %-28s %6d refused by the API server, %6d with a mismatch\n", r.Objects[c], c, r.Refused[c], r.Mismatched[c])
	}
	return b.String()
}

// Groups returns the number of groups.
func (r *ValidationReport) Groups() int { return len(r.groups) }

// Summary lists the first max groups, most frequent first (order-only differences after the
// others), one line each; with examples, each group's example follows its line.
func (r *ValidationReport) Summary(max int, examples bool) string {
	groups := make([]*validationGroup, 0, len(r.groups))
	for _, g := range r.groups {
		groups = append(groups, g)
	}
	orderOnly := func(g *validationGroup) bool { return strings.HasSuffix(g.key, "another order") }
	sort.Slice(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if orderOnly(a) != orderOnly(b) {
			return !orderOnly(a)
		}
		if a.count != b.count {
			return a.count > b.count
		}
		return a.key < b.key
	})
	var b strings.Builder
	for i, g := range groups {
		if i == max {
			fmt.Fprintf(&b, "... and %d more groups\n", len(groups)-max)
			break
		}
		if i == 0 || orderOnly(g) != orderOnly(groups[i-1]) {
			if orderOnly(g) {
				b.WriteString("order-only differences:\n")
			} else {
				b.WriteString("mismatches (objects, normalised field (check): how):\n")
			}
		}
		fmt.Fprintf(&b, "%6d  %s\n", g.count, g.key)
		if examples {
			b.WriteString(indent(g.example.String(), "        "))
		}
	}
	return b.String()
}

func (ex ValidationExample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "example: %s\n", ex.Name)
	for _, c := range ex.Changes {
		fmt.Fprintf(&b, "  changed: %s\n", c)
	}
	if ex.Mismatch != nil {
		path := ex.Mismatch.Field()
		fmt.Fprintf(&b, "  at %s:\n", describeAt(ex.Object, path))
		b.WriteString(indent(TrimmedYAML(ex.Object, path, 30), "    "))
		fmt.Fprintf(&b, "  API server (%d):\n", len(ex.Mismatch.APIServer))
		for _, e := range ex.Mismatch.APIServer {
			fmt.Fprintf(&b, "    %s\n", shorten(e.Error()))
		}
		fmt.Fprintf(&b, "  podconfig (%d):\n", len(ex.Mismatch.Podconfig))
		for _, e := range ex.Mismatch.Podconfig {
			fmt.Fprintf(&b, "    %s\n", shorten(e.Error()))
		}
		if ex.Mismatch.APIServerText != ex.Mismatch.PodconfigText {
			fmt.Fprintf(&b, "  API server: %s\n  podconfig:  %s\n", shorten(ex.Mismatch.APIServerText), shorten(ex.Mismatch.PodconfigText))
		}
	}
	return b.String()
}

// TrimmedYAML returns the part of the object (JSON) that a field path points into, as YAML of at
// most maxLines lines: the deepest object or list on the path, or the object holding the field
// when the path ends at a scalar. Long lines are cut.
func TrimmedYAML(object []byte, path string, maxLines int) string {
	node, _ := nodeAt(object, path)
	out, err := yaml.Marshal(node)
	if err != nil {
		return fmt.Sprintf("(%v)\n", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) > maxLines {
		lines = append(lines[:maxLines], fmt.Sprintf("... (%d more lines)", len(lines)-maxLines))
	}
	for i, l := range lines {
		lines[i] = shorten(l)
	}
	return strings.Join(lines, "\n") + "\n"
}

// describeAt names the part TrimmedYAML shows.
func describeAt(object []byte, path string) string {
	_, at := nodeAt(object, path)
	if at == "" {
		return "the object"
	}
	return at
}

// nodeAt walks a field path through the object's JSON as far as it exists and returns the
// deepest object or list reached, and its path.
func nodeAt(object []byte, path string) (any, string) {
	var root any
	if err := json.Unmarshal(object, &root); err != nil {
		return nil, ""
	}
	node, at := root, ""
	reachedPath := ""
	for _, step := range splitFieldPath(path) {
		var next any
		switch n := node.(type) {
		case map[string]any:
			next = n[strings.Trim(step, "[]")]
		case []any:
			if i, err := strconv.Atoi(strings.Trim(step, "[]")); err == nil && i >= 0 && i < len(n) {
				next = n[i]
			}
		}
		if next == nil {
			break
		}
		if strings.HasPrefix(step, "[") || reachedPath == "" {
			reachedPath += step
		} else {
			reachedPath += "." + step
		}
		switch next.(type) {
		case map[string]any, []any:
			node, at = next, reachedPath
		default:
			return node, at
		}
	}
	return node, at
}

// splitFieldPath splits a.b[0].c[key.x] into a, b, [0], c, [key.x].
func splitFieldPath(p string) []string {
	var out []string
	for len(p) > 0 {
		switch {
		case p[0] == '.':
			p = p[1:]
		case p[0] == '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return append(out, p)
			}
			out = append(out, p[:end+1])
			p = p[end+1:]
		default:
			end := strings.IndexAny(p, ".[")
			if end < 0 {
				return append(out, p)
			}
			out = append(out, p[:end])
			p = p[end:]
		}
	}
	return out
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}

// shorten cuts a line longer than 300 bytes, which a mutation to a huge value makes.
func shorten(s string) string {
	if len(s) <= 300 {
		return s
	}
	return s[:300] + fmt.Sprintf("... (%d bytes)", len(s))
}
