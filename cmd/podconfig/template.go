package main

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/manifest"
)

// A manifest may be a template that a tool fills in before it is applied: Helm and Go templates
// ({{ }}), envsubst and shell (${VAR}), sed-style markers (__PILLAR__DNS__SERVER__), kustomize
// vars and operators' placeholders (NUM_NODES, CLUSTER_DNS_IP). render reads manifests as a
// cluster receives them, so it says when what it reads looks like one.
var (
	shellPlaceholder  = regexp.MustCompile(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`)
	markerPlaceholder = regexp.MustCompile(`__[A-Z][A-Z0-9_]*__`)
	// capsValue is a mapping's value that is one ALL_CAPS word with an underscore, the form of
	// kustomize vars and operators' placeholders; an env var's name has the same form and is
	// not one (its key is "name").
	capsValue = regexp.MustCompile(`^\s*(?:-\s+)?([A-Za-z][A-Za-z0-9_.-]*):\s+["']?([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)["']?\s*$`)
	// wholeCaps is an env var's value that is one such word and nothing else.
	wholeCaps = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
)

// maxPlaceholders bounds what a sniffer keeps, and maxSniffedLine the line it looks into: the
// placeholders name examples for a hint, and the input's size is bounded elsewhere.
const (
	maxPlaceholders = 5
	maxSniffedLine  = 4096
)

// templateSniffer notes, in what it reads, the marks of a template: "{{" (Helm or Go templates)
// and the first placeholders of the other forms.
type templateSniffer struct {
	r            io.Reader
	last         byte
	seen         bool
	line         []byte
	placeholders []string
}

func (s *templateSniffer) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 && !s.seen {
		s.seen = (s.last == '{' && p[0] == '{') || bytes.Contains(p[:n], []byte("{{"))
		s.last = p[n-1]
	}
	for b := p[:n]; len(b) > 0 && len(s.placeholders) < maxPlaceholders; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			s.keep(b)
			break
		}
		s.keep(b[:i])
		s.scanLine()
		b = b[i+1:]
	}
	if err == io.EOF {
		s.scanLine()
	}
	return n, err
}

// keep adds b to the line being read, up to maxSniffedLine bytes.
func (s *templateSniffer) keep(b []byte) {
	if room := maxSniffedLine - len(s.line); room > 0 {
		s.line = append(s.line, b[:min(len(b), room)]...)
	}
}

// scanLine notes the placeholders of the line read, then starts the next.
func (s *templateSniffer) scanLine() {
	line := string(s.line)
	s.line = s.line[:0]
	found := append(shellPlaceholder.FindAllString(line, -1), markerPlaceholder.FindAllString(line, -1)...)
	if m := capsValue.FindStringSubmatch(line); m != nil && m[1] != "name" && m[1] != "key" {
		found = append(found, m[2])
	}
	for _, f := range found {
		if len(s.placeholders) < maxPlaceholders && !slices.Contains(s.placeholders, f) {
			s.placeholders = append(s.placeholders, f)
		}
	}
}

// templateHint is what to add to an input's error when the input is a template: its "{{ }}"
// actions are not YAML, and its placeholders are not the values its fields need (a string where
// an integer or a boolean goes). render reads manifests as a cluster would receive them.
func templateHint(err error, inputs []manifest.Input) string {
	for _, in := range inputs {
		s, ok := in.Reader.(*templateSniffer)
		if !ok || !strings.HasPrefix(err.Error(), in.Name+":") {
			continue
		}
		if s.seen {
			return "; " + in.Name + " holds {{ }}, as a Helm chart's or Go template does: render it with your chart tool first (helm template ... | podconfig render -)"
		}
		if len(s.placeholders) > 0 && strings.Contains(err.Error(), "cannot unmarshal string into Go struct field") {
			return fmt.Sprintf("; %s holds %s, which %s like a template's placeholders (kustomize vars, envsubst, sed): fill them in first (kustomize build, envsubst < FILE, ...)",
				in.Name, strings.Join(s.placeholders, ", "), plural(len(s.placeholders), "looks", "look"))
		}
	}
	return ""
}

// reasonTemplatePlaceholder is the warning reason of a pod whose strings look like a template's
// placeholders that were never filled in.
const reasonTemplatePlaceholder = "TemplatePlaceholder"

// placeholderWarning is one warning naming the strings of a container that look like a
// template's placeholders (${VAR}, __MARKER__, an env var's value that is one ALL_CAPS word with
// an underscore): kubelet passes them on as written, which is rarely what was meant. Nil when
// there are none.
func placeholderWarning(c *v1.Container) *configgen.Warning {
	var found []string
	note := func(where, s string) {
		for _, p := range append(shellPlaceholder.FindAllString(s, -1), markerPlaceholder.FindAllString(s, -1)...) {
			found = append(found, fmt.Sprintf("%s %q", where, p))
		}
	}
	note("image", c.Image)
	for i, s := range c.Command {
		note(fmt.Sprintf("command[%d]", i), s)
	}
	for i, s := range c.Args {
		note(fmt.Sprintf("args[%d]", i), s)
	}
	for _, e := range c.Env {
		if wholeCaps.MatchString(e.Value) {
			found = append(found, fmt.Sprintf("env %s %q", e.Name, e.Value))
			continue
		}
		note("env "+e.Name, e.Value)
	}
	if len(found) == 0 {
		return nil
	}
	more := ""
	if len(found) > maxPlaceholders {
		more = fmt.Sprintf(" and %d more", len(found)-maxPlaceholders)
		found = found[:maxPlaceholders]
	}
	return &configgen.Warning{Reason: reasonTemplatePlaceholder, Container: c.Name, Message: fmt.Sprintf(
		"%s%s %s like a template's placeholders (envsubst, sed, kustomize vars, an operator's) that were never filled in; kubelet passes them on as written: if the manifest is a template, render it first",
		strings.Join(found, ", "), more, plural(len(found), "looks", "look"))}
}
