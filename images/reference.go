package images

import (
	"errors"
	"fmt"
	"strings"
)

// Reference is an image reference normalised as kubelet and containerd read a container's image
// (the distribution/reference rules, ParseNormalizedNamed then ParseDockerRef): a name with no
// registry is Docker Hub's, a one-part Docker Hub name is in library/, and a reference with
// neither tag nor digest is :latest. Two references that name the same image the same way have
// the same String.
type Reference struct {
	// Domain is the registry, with its port: docker.io, registry.k8s.io, localhost:5000. It is
	// empty only for a name whose first part the grammar takes as a path but not as a registry
	// (a_b.c/app), as the reference library leaves it.
	Domain string
	// Path is the repository within the registry: library/nginx.
	Path string
	// Tag is the tag as written, "latest" when neither tag nor digest is. Beside a digest it names
	// nothing: the runtime resolves the image by its digest.
	Tag string
	// Digest is the digest as written (sha256:<64 hex>), if any.
	Digest string
}

// Name is the repository's full name: docker.io/library/nginx.
func (r Reference) Name() string {
	if r.Domain == "" {
		return r.Path
	}
	return r.Domain + "/" + r.Path
}

// String is the normalised reference: Name@Digest when there is a digest (the tag is dropped, as
// the runtime drops it), else Name:Tag.
func (r Reference) String() string {
	if r.Digest != "" {
		return r.Name() + "@" + r.Digest
	}
	return r.Name() + ":" + r.Tag
}

// The reference library's defaults (Docker Hub's names, the tag) and limits.
const (
	dockerHub       = "docker.io"
	dockerHubLegacy = "index.docker.io"
	officialPrefix  = "library/"
	defaultTag      = "latest"
	maxPathLength   = 255
	maxTagLength    = 128
)

// The reference library's errors, whose words kubelet passes on.
var (
	errInvalidFormat = errors.New("invalid reference format")
	errUppercase     = errors.New("repository name must be lowercase")
	errNameTooLong   = fmt.Errorf("repository name must not be more than %d characters", maxPathLength)
	errDigestFormat  = errors.New("invalid checksum digest format")
	errDigestLength  = errors.New("invalid checksum digest length")
	errDigestUnsupp  = errors.New("unsupported digest algorithm")
	digestHexLengths = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
)

// ParseReference normalises an image reference as kubelet does before it asks the runtime for the
// image (its ParseImageName, over the reference library's ParseNormalizedNamed) and as containerd
// names the image it resolves (ParseDockerRef). A reference that does not parse is an error
// naming it with kubelet's words: couldn't parse image name "NAME": <the library's reason>.
func ParseReference(s string) (Reference, error) {
	ref, _, err := parseReference(s)
	return ref, err
}

// parseReference is ParseReference, telling also whether the reference wrote a tag.
func parseReference(s string) (Reference, bool, error) {
	ref, tagged, err := normalize(s)
	if err != nil {
		return Reference{}, false, fmt.Errorf("couldn't parse image name %q: %w", s, err)
	}
	return ref, tagged, nil
}

// normalize applies ParseNormalizedNamed's steps: a bare image id is refused, the registry is
// found (Docker Hub by default), the repository must be lowercase, and what results must match
// the reference grammar.
func normalize(s string) (Reference, bool, error) {
	if isImageID(s) {
		return Reference{}, false, fmt.Errorf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s)
	}
	domain, rest := splitRegistry(s)
	// The library checks the case of what precedes the first ':' of the rest, digest included
	// when there is no tag.
	remote, _, _ := strings.Cut(rest, ":")
	if strings.ToLower(remote) != remote {
		return Reference{}, false, fmt.Errorf("invalid reference format: repository name (%s) must be lowercase", remote)
	}
	ref, tagged, err := parseGrammar(domain + "/" + rest)
	if err != nil {
		return Reference{}, false, err
	}
	if ref.Tag == "" && ref.Digest == "" {
		ref.Tag = defaultTag
	}
	return ref, tagged, nil
}

// isImageID tells whether s is 64 lowercase hex digits, an image id rather than a name.
func isImageID(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLowerHex(s[i]) {
			return false
		}
	}
	return true
}

// splitRegistry finds the registry as the reference library does: the first part of a name with
// a '/' is a registry when it has a '.' or a ':', is localhost, or has an uppercase letter (a
// repository cannot); any other name is Docker Hub's, whose one-part names are in library/.
// index.docker.io is Docker Hub's old name.
func splitRegistry(s string) (domain, rest string) {
	first, after, ok := strings.Cut(s, "/")
	switch {
	case !ok:
		return dockerHub, officialPrefix + s
	case first == dockerHubLegacy:
		domain, rest = dockerHub, after
	case first == "localhost", strings.ContainsAny(first, ".:"), strings.ToLower(first) != first:
		domain, rest = first, after
	default:
		domain, rest = dockerHub, s
	}
	if domain == dockerHub && !strings.Contains(rest, "/") {
		rest = officialPrefix + rest
	}
	return domain, rest
}

// parseGrammar reads s by the reference grammar, name [":" tag] ["@" digest], and checks the
// digest as the library's digest package does (sha256, sha384 and sha512, lowercase hex of
// their length).
func parseGrammar(s string) (Reference, bool, error) {
	ref, tagged, ok := splitGrammar(s)
	if !ok {
		if _, _, lower := splitGrammar(strings.ToLower(s)); lower {
			return Reference{}, false, errUppercase
		}
		return Reference{}, false, errInvalidFormat
	}
	if len(ref.Path) > maxPathLength {
		return Reference{}, false, errNameTooLong
	}
	if ref.Digest != "" {
		if err := checkDigest(ref.Digest); err != nil {
			return Reference{}, false, err
		}
	}
	return ref, tagged, nil
}

// splitGrammar splits s into its parts and tells whether each is of its grammar. A name has no
// '@' and no ':' after its last '/' (a port is in the registry, before the first), a tag has no
// '/', ':' or '@', a digest no '@': the first '@' starts the digest, and a ':' after the name's
// last '/' starts the tag.
func splitGrammar(s string) (ref Reference, tagged, ok bool) {
	named, digest, hasDigest := strings.Cut(s, "@")
	if hasDigest && !isDigest(digest) {
		return Reference{}, false, false
	}
	name, tag := named, ""
	if i := strings.LastIndexByte(named, ':'); i > strings.LastIndexByte(named, '/') {
		name, tag, tagged = named[:i], named[i+1:], true
		if !isTag(tag) {
			return Reference{}, false, false
		}
	}
	domain, path, ok := splitName(name)
	if !ok {
		return Reference{}, false, false
	}
	return Reference{Domain: domain, Path: path, Tag: tag, Digest: digest}, tagged, true
}

// splitName splits a name into its registry and path. The grammar's registry is optional: a first
// part that is not a registry may still be the first part of the path, and then the name has no
// registry.
func splitName(name string) (domain, path string, ok bool) {
	if first, rest, found := strings.Cut(name, "/"); found && isRegistry(first) && isPath(rest) {
		return first, rest, true
	}
	if isPath(name) {
		return "", name, true
	}
	return "", "", false
}

// isRegistry tells whether s is host[:port], the host a domain name of components of letters,
// digits and inner '-' joined by '.', or an IPv6 address in brackets.
func isRegistry(s string) bool {
	host := s
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 2 || strings.Trim(s[1:end], "0123456789abcdefABCDEF:") != "" {
			return false
		}
		host = s[:end+1]
	} else if i := strings.IndexByte(s, ':'); i >= 0 {
		host = s[:i]
	}
	if port, hasPort := strings.CutPrefix(s[len(host):], ":"); hasPort {
		if port == "" || strings.Trim(port, "0123456789") != "" {
			return false
		}
	} else if len(host) != len(s) {
		return false
	}
	if strings.HasPrefix(host, "[") {
		return true
	}
	for _, label := range strings.Split(host, ".") {
		if !isDomainComponent(label) {
			return false
		}
	}
	return true
}

// isDomainComponent tells whether s is letters, digits and '-', neither first nor last.
func isDomainComponent(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && !(c >= 'A' && c <= 'Z') && c != '-' {
			return false
		}
	}
	return true
}

// isPath tells whether s is path components joined by '/'.
func isPath(s string) bool {
	for _, c := range strings.Split(s, "/") {
		if !isPathComponent(c) {
			return false
		}
	}
	return true
}

// isPathComponent tells whether s is runs of lowercase letters and digits joined by separators:
// one '.', one '_', two '_', or any number of '-'.
func isPathComponent(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 0; i < len(s); {
		if isAlnum(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && !isAlnum(s[j]) {
			j++
		}
		if sep := s[i:j]; sep != "." && sep != "_" && sep != "__" && strings.Trim(sep, "-") != "" {
			return false
		}
		i = j
	}
	return true
}

// isTag tells whether s is a word character, then up to 127 word characters, '.' and '-'.
func isTag(s string) bool {
	if s == "" || len(s) > maxTagLength || !isWord(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isWord(c) && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

// isDigest tells whether s is of the grammar's digest: an algorithm (components of a letter then
// letters and digits, each two joined by one '-', '_', '+' or '.'), ':', and 32 or more hex
// digits.
func isDigest(s string) bool {
	algorithm, hex, ok := strings.Cut(s, ":")
	if !ok || len(hex) < 32 || strings.Trim(hex, "0123456789abcdefABCDEF") != "" {
		return false
	}
	start := 0
	for i := 0; i <= len(algorithm); i++ {
		if i < len(algorithm) && strings.IndexByte("-_+.", algorithm[i]) < 0 {
			continue
		}
		part := algorithm[start:i]
		if part == "" || !isLetter(part[0]) {
			return false
		}
		for j := 1; j < len(part); j++ {
			if !isLetter(part[j]) && !isDigit(part[j]) {
				return false
			}
		}
		start = i + 1
	}
	return true
}

// checkDigest checks a digest of the grammar as the digest package does: a known algorithm needs
// lowercase hex of its length; an unknown one is unsupported, or malformed when it has an
// uppercase letter.
func checkDigest(d string) error {
	algorithm, hex, _ := strings.Cut(d, ":")
	n, known := digestHexLengths[algorithm]
	switch {
	case !known && strings.ToLower(algorithm) != algorithm:
		return errDigestFormat
	case !known:
		return errDigestUnsupp
	case len(hex) != n:
		return errDigestLength
	case strings.Trim(hex, "0123456789abcdef") != "":
		return errDigestFormat
	}
	return nil
}

func isLetter(c byte) bool   { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool    { return (c >= 'a' && c <= 'z') || isDigit(c) }
func isWord(c byte) bool     { return isLetter(c) || isDigit(c) || c == '_' }
func isLowerHex(c byte) bool { return isDigit(c) || (c >= 'a' && c <= 'f') }
