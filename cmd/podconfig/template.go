package main

import (
	"bytes"
	"io"
	"strings"

	"github.com/podconfig/podconfig/manifest"
)

// templateSniffer notes whether what it reads holds "{{", the mark of a Helm or Go template.
type templateSniffer struct {
	r    io.Reader
	last byte
	seen bool
}

func (s *templateSniffer) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if n > 0 && !s.seen {
		s.seen = (s.last == '{' && p[0] == '{') || bytes.Contains(p[:n], []byte("{{"))
		s.last = p[n-1]
	}
	return n, err
}

// templateHint is what to add to an input's error when the input is a template: its "{{ }}"
// actions are not YAML, and render reads manifests as a cluster would receive them.
func templateHint(err error, inputs []manifest.Input) string {
	for _, in := range inputs {
		s, ok := in.Reader.(*templateSniffer)
		if ok && s.seen && strings.HasPrefix(err.Error(), in.Name+":") {
			return "; " + in.Name + " holds {{ }}, as a Helm chart's or Go template does: render it with your chart tool first (helm template ... | podconfig render -)"
		}
	}
	return ""
}
