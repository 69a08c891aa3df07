package defaults

import (
	"regexp"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// The image reference grammar of github.com/distribution/reference v0.6.0, which the API server's
// parsers.ParseImageName uses to find an image's tag.
const (
	refAlphanumeric    = `[a-z0-9]+`
	refSeparator       = `(?:[._]|__|[-]+)`
	refPathComponent   = refAlphanumeric + `(?:` + refSeparator + refAlphanumeric + `)*`
	refRemoteName      = refPathComponent + `(?:/` + refPathComponent + `)*`
	refDomainComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	refDomainName      = refDomainComponent + `(?:\.` + refDomainComponent + `)*`
	refIPv6            = `\[(?:[a-fA-F0-9:]+)\]`
	refDomainAndPort   = `(?:` + refDomainName + `|` + refIPv6 + `)(?::[0-9]+)?`
	refTag             = `[\w][\w.-]{0,127}`
	refDigest          = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
	refName            = `(?:` + refDomainAndPort + `/)?` + refRemoteName

	// refMaxPathLength is the longest repository path the grammar accepts.
	refMaxPathLength = 255

	dockerHubDomain       = "docker.io"
	dockerHubLegacyDomain = "index.docker.io"
	dockerHubOfficialRepo = "library/"
	defaultImageTag       = "latest"
)

var (
	refReferenceRE = regexp.MustCompile(`^(` + refName + `)(?::(` + refTag + `))?(?:@(` + refDigest + `))?$`)
	refNameRE      = regexp.MustCompile(`^(?:(` + refDomainAndPort + `)/)?(` + refRemoteName + `)$`)
	refImageIDRE   = regexp.MustCompile(`^[a-f0-9]{64}$`)
)

// pullPolicyForImage mirrors the pull-policy rule of SetDefaults_Container and SetDefaults_Volume:
// Always when the image's tag is "latest", which an image with neither tag nor digest has, and
// IfNotPresent otherwise, including for a reference that does not parse.
func pullPolicyForImage(image string) v1.PullPolicy {
	// Without a digest, a parseable reference's tag is what follows the ':' in its last path
	// element; any other tag, or a reference that does not parse, gives IfNotPresent, so the
	// common "name:version" needs no parse.
	if strings.IndexByte(image, '@') < 0 {
		last := image[strings.LastIndexByte(image, '/')+1:]
		if i := strings.IndexByte(last, ':'); i >= 0 && last[i+1:] != defaultImageTag {
			return v1.PullIfNotPresent
		}
	}
	if tag, ok := imageTag(image); ok && tag == defaultImageTag {
		return v1.PullAlways
	}
	return v1.PullIfNotPresent
}

// imageTag returns the tag parsers.ParseImageName finds in image, "latest" for a reference with
// neither tag nor digest, and false where it returns an error.
func imageTag(image string) (string, bool) {
	// ParseNormalizedNamed refuses what could be an image ID.
	if refImageIDRE.MatchString(image) {
		return "", false
	}
	domain, remainder := splitDockerDomain(image)
	remote := remainder
	if i := strings.IndexByte(remainder, ':'); i >= 0 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return "", false
	}

	m := refReferenceRE.FindStringSubmatch(domain + "/" + remainder)
	if m == nil {
		return "", false
	}
	// The path is the name without its domain, so only a long name can have too long a path.
	if len(m[1]) > refMaxPathLength {
		path := m[1]
		if nm := refNameRE.FindStringSubmatch(m[1]); nm != nil {
			path = nm[2]
		}
		if len(path) > refMaxPathLength {
			return "", false
		}
	}
	tag, digest := m[2], m[3]
	if digest != "" && !validDigest(digest) {
		return "", false
	}
	if tag == "" && digest == "" {
		tag = defaultImageTag
	}
	return tag, true
}

// splitDockerDomain mirrors the reference package's rule for which first path element is a
// registry host: "localhost", or one with a '.' or ':' or an upper-case letter. Anything else is on
// Docker Hub, where a one-element name is an official image under "library/".
func splitDockerDomain(name string) (domain, remainder string) {
	first, rest, found := strings.Cut(name, "/")
	switch {
	case !found:
		return dockerHubDomain, dockerHubOfficialRepo + name
	case first == "localhost":
		domain, remainder = first, rest
	case first == dockerHubLegacyDomain:
		domain, remainder = dockerHubDomain, rest
	case strings.ContainsAny(first, ".:"), strings.ToLower(first) != first:
		domain, remainder = first, rest
	default:
		domain, remainder = dockerHubDomain, name
	}
	if domain == dockerHubDomain && !strings.Contains(remainder, "/") {
		remainder = dockerHubOfficialRepo + remainder
	}
	return domain, remainder
}

// validDigest mirrors go-digest's Validate for the algorithms a Kubernetes binary links: sha256,
// sha384 and sha512 digests in lower-case hex of the hash's length. Any other algorithm is an
// error.
func validDigest(d string) bool {
	alg, encoded, _ := strings.Cut(d, ":")
	var size int
	switch alg {
	case "sha256":
		size = 64
	case "sha384":
		size = 96
	case "sha512":
		size = 128
	default:
		return false
	}
	if len(encoded) != size {
		return false
	}
	for i := 0; i < len(encoded); i++ {
		if c := encoded[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
