package defaults

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
)

// The expected policies are those the v1.37 API server gives (parsers.ParseImageName, then
// Always only for the tag "latest").
func TestImagePullPolicy(t *testing.T) {
	sha := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name  string
		image string
		want  v1.PullPolicy
	}{
		{"no tag is latest", "nginx", v1.PullAlways},
		{"tag latest", "nginx:latest", v1.PullAlways},
		{"a version tag", "nginx:1.25", v1.PullIfNotPresent},
		{"tags are case sensitive", "nginx:Latest", v1.PullIfNotPresent},
		{"no tag in a Docker Hub namespace", "library/nginx", v1.PullAlways},
		{"no tag with the docker.io domain", "docker.io/library/nginx", v1.PullAlways},
		{"latest on the legacy Docker Hub domain", "index.docker.io/nginx:latest", v1.PullAlways},
		{"a registry port is not a tag", "registry.example.com:5000/team/app", v1.PullAlways},
		{"a version after a registry port", "registry.example.com:5000/team/app:v2", v1.PullIfNotPresent},
		{"localhost is a registry", "localhost/app", v1.PullAlways},
		{"latest on localhost with a port", "localhost:5000/app:latest", v1.PullAlways},
		{"an IPv6 registry", "[::1]:5000/app", v1.PullAlways},
		{"an upper-case first element is a registry", "REGISTRY.example.com/app", v1.PullAlways},
		{"an upper-case first element with no dot is a registry", "Registry/app", v1.PullAlways},
		{"a deep path with latest", "a/b/c/d:latest", v1.PullAlways},
		{"a named version tag", "gcr.io/distroless/static:nonroot", v1.PullIfNotPresent},
		{"a digest alone is not latest", "nginx@sha256:" + sha(64), v1.PullIfNotPresent},
		{"latest with a digest is latest", "nginx:latest@sha256:" + sha(64), v1.PullAlways},
		{"latest with a sha512 digest", "nginx:latest@sha512:" + strings.Repeat("b", 128), v1.PullAlways},
		{"a version with a digest", "nginx:1.25@sha256:" + sha(64), v1.PullIfNotPresent},
		{"latest with an unsupported digest algorithm does not parse", "nginx:latest@md5:" + sha(32), v1.PullIfNotPresent},
		{"latest with a short digest does not parse", "nginx:latest@sha256:" + sha(63), v1.PullIfNotPresent},
		{"an upper-case digest does not parse", "nginx@sha256:" + strings.ToUpper(sha(64)), v1.PullIfNotPresent},
		{"an empty image does not parse", "", v1.PullIfNotPresent},
		{"an upper-case repository does not parse", "Nginx", v1.PullIfNotPresent},
		{"an upper-case repository with latest does not parse", "Nginx:latest", v1.PullIfNotPresent},
		{"upper case after a registry does not parse", "x.y/Upper/app", v1.PullIfNotPresent},
		{"an image ID does not parse", sha(64), v1.PullIfNotPresent},
		{"an image ID-like name with latest parses", sha(64) + ":latest", v1.PullAlways},
		{"an empty tag does not parse", "nginx:", v1.PullIfNotPresent},
		{"no repository does not parse", ":latest", v1.PullIfNotPresent},
		{"two colons do not parse", "nginx::latest", v1.PullIfNotPresent},
		{"a space does not parse", "app name", v1.PullIfNotPresent},
		{"a 128-character tag parses", "nginx:" + strings.Repeat("x", 128), v1.PullIfNotPresent},
		{"a repository path of 255 characters parses", "a/" + strings.Repeat("b", 252), v1.PullAlways},
		{"a repository path over 255 characters does not parse", "a/" + strings.Repeat("b", 254), v1.PullIfNotPresent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, pullPolicyForImage(tt.image))
		})
	}
}

// slowPullPolicy is pullPolicyForImage without its shortcut for "name:tag".
func slowPullPolicy(image string) v1.PullPolicy {
	if tag, ok := imageTag(image); ok && tag == defaultImageTag {
		return v1.PullAlways
	}
	return v1.PullIfNotPresent
}

// FuzzPullPolicyForImage checks that the shortcut for "name:tag" never changes the policy the full
// parse gives, and that no input makes the parse fail to return.
func FuzzPullPolicyForImage(f *testing.F) {
	for _, seed := range []string{"nginx", "nginx:latest", "nginx:1.25", "a/b:c/d:latest", "localhost:5000", "localhost:5000/app",
		"x:latest/y", "nginx:latest@sha256:" + strings.Repeat("a", 64), "Nginx:v1", "[::1]:5000/app:v1", ":", "/", "a/:latest"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, image string) {
		if got, want := pullPolicyForImage(image), slowPullPolicy(image); got != want {
			t.Fatalf("%q: shortcut gives %s, parse gives %s", image, got, want)
		}
	})
}
