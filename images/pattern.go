package images

import (
	"errors"
	"fmt"
	"strings"
)

// RepositorySuffix ends a pattern that names every tag and digest of a repository: nginx:* is
// docker.io/library/nginx at any tag or digest. '*' is in no tag, so the form is never a tag.
const RepositorySuffix = ":*"

// Pattern names images: one image by its reference (by digest when it has one, else by its tag,
// :latest by default), or every image of a repository (NAME:*).
type Pattern struct {
	// Ref is the normalised reference; a repository pattern's has only its Domain and Path.
	Ref Reference
	// Repository is set for NAME:*.
	Repository bool
}

// ParsePattern reads a reference (nginx, nginx:1.27, quay.io/a/b@sha256:...) or a repository
// (nginx:*), normalised as ParseReference does. A repository pattern with a tag or digest is an
// error, as is a reference that does not parse; both name it.
func ParsePattern(s string) (Pattern, error) {
	name, repository := strings.CutSuffix(s, RepositorySuffix)
	ref, tagged, err := parseReference(name)
	if err != nil {
		return Pattern{}, err
	}
	if !repository {
		return Pattern{Ref: ref}, nil
	}
	if tagged || ref.Digest != "" {
		return Pattern{}, fmt.Errorf("image pattern %q: %w", s, errPatternTagged)
	}
	return Pattern{Ref: Reference{Domain: ref.Domain, Path: ref.Path}, Repository: true}, nil
}

var errPatternTagged = errors.New("NAME" + RepositorySuffix + " names every tag and digest of a repository, and takes neither")

// String is the normalised pattern: docker.io/library/nginx:latest, docker.io/library/nginx:*.
func (p Pattern) String() string {
	if p.Repository {
		return p.Ref.Name() + RepositorySuffix
	}
	return p.Ref.String()
}

// PatternMap holds a value per pattern and finds the one an image takes: its reference's (by
// digest, or by tag), else its repository's. The zero PatternMap is empty and ready.
type PatternMap[V any] struct {
	refs, repositories map[string]V
}

// Set gives p the value v, replacing the value of any pattern of the same String.
func (m *PatternMap[V]) Set(p Pattern, v V) {
	into := &m.refs
	if p.Repository {
		into = &m.repositories
	}
	if *into == nil {
		*into = map[string]V{}
	}
	(*into)[p.String()] = v
}

// Get returns the value of the pattern of p's String, if one was set.
func (m *PatternMap[V]) Get(p Pattern) (V, bool) {
	from := m.refs
	if p.Repository {
		from = m.repositories
	}
	v, ok := from[p.String()]
	return v, ok
}

// Match returns the value ref takes: its own reference's, else its repository's.
func (m *PatternMap[V]) Match(ref Reference) (V, bool) {
	if v, ok := m.refs[ref.String()]; ok {
		return v, true
	}
	v, ok := m.repositories[ref.Name()+RepositorySuffix]
	return v, ok
}
