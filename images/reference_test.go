package images_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/images"
)

var (
	hexA = strings.Repeat("a", 64)
	hexB = strings.Repeat("b", 64)
)

func TestParseReference(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want string
		ref  images.Reference
	}{
		{"a one-part name is Docker Hub's library image at :latest", "nginx", "docker.io/library/nginx:latest",
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "latest"}},
		{"a tag is kept", "nginx:1.27", "docker.io/library/nginx:1.27",
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "1.27"}},
		{"library/ names Docker Hub's official images", "library/nginx", "docker.io/library/nginx:latest",
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "latest"}},
		{"docker.io with a one-part path is in library/", "docker.io/nginx", "docker.io/library/nginx:latest",
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "latest"}},
		{"a normalised reference is itself", "docker.io/library/nginx:latest", "docker.io/library/nginx:latest",
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "latest"}},
		{"index.docker.io is Docker Hub's old name", "index.docker.io/library/nginx", "docker.io/library/nginx:latest",
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "latest"}},
		{"index.docker.io with a one-part path is in library/", "index.docker.io/nginx:1", "docker.io/library/nginx:1",
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "1"}},
		{"a two-part name whose first part is no registry is on Docker Hub", "bitnami/redis:7", "docker.io/bitnami/redis:7",
			images.Reference{Domain: "docker.io", Path: "bitnami/redis", Tag: "7"}},
		{"a first part with a '.' is a registry", "registry.k8s.io/pause:3.10", "registry.k8s.io/pause:3.10",
			images.Reference{Domain: "registry.k8s.io", Path: "pause", Tag: "3.10"}},
		{"a first part with a port is a registry", "localhost:5000/app", "localhost:5000/app:latest",
			images.Reference{Domain: "localhost:5000", Path: "app", Tag: "latest"}},
		{"a registry name with a port and a tag", "registry:5000/team/app:v2", "registry:5000/team/app:v2",
			images.Reference{Domain: "registry:5000", Path: "team/app", Tag: "v2"}},
		{"localhost is a registry without a '.' or port", "localhost/app", "localhost/app:latest",
			images.Reference{Domain: "localhost", Path: "app", Tag: "latest"}},
		{"an IPv6 registry with a port", "[::1]:5000/app:v1", "[::1]:5000/app:v1",
			images.Reference{Domain: "[::1]:5000", Path: "app", Tag: "v1"}},
		{"a first part with an uppercase letter is a registry, kept as written", "Docker.io/nginx", "Docker.io/nginx:latest",
			images.Reference{Domain: "Docker.io", Path: "nginx", Tag: "latest"}},
		{"a digest names the image", "quay.io/a/b@sha256:" + hexA, "quay.io/a/b@sha256:" + hexA,
			images.Reference{Domain: "quay.io", Path: "a/b", Digest: "sha256:" + hexA}},
		{"beside a digest the tag is kept but names nothing", "nginx:1.27@sha256:" + hexA, "docker.io/library/nginx@sha256:" + hexA,
			images.Reference{Domain: "docker.io", Path: "library/nginx", Tag: "1.27", Digest: "sha256:" + hexA}},
		{"sha512 digests are known", "app@sha512:" + strings.Repeat("c", 128), "docker.io/library/app@sha512:" + strings.Repeat("c", 128),
			images.Reference{Domain: "docker.io", Path: "library/app", Digest: "sha512:" + strings.Repeat("c", 128)}},
		{"a tag may hold uppercase letters, '_', '.' and '-'", "a/b:Tag_1.x-y", "docker.io/a/b:Tag_1.x-y",
			images.Reference{Domain: "docker.io", Path: "a/b", Tag: "Tag_1.x-y"}},
		{"path separators are '.', '_', '__' and runs of '-'", "a--b/c__d.e_f", "docker.io/a--b/c__d.e_f:latest",
			images.Reference{Domain: "docker.io", Path: "a--b/c__d.e_f", Tag: "latest"}},
		{"a first part with a '.' that is no host name is a path, with no registry", "a_b.c/x", "a_b.c/x:latest",
			images.Reference{Path: "a_b.c/x", Tag: "latest"}},
		{"sha256:<hex> alone is a name and a tag, as kubelet reads it", "sha256:" + hexA, "docker.io/library/sha256:" + hexA,
			images.Reference{Domain: "docker.io", Path: "library/sha256", Tag: hexA}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := images.ParseReference(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.ref, got)
			assert.Equal(t, tc.want, got.String())
			again, err := images.ParseReference(got.String())
			require.NoError(t, err, "a normalised reference parses")
			assert.Equal(t, tc.want, again.String(), "normalising twice changes nothing")
		})
	}
}

func TestParseReferenceRefuses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		wantErr string
	}{
		{"an empty reference", "", `couldn't parse image name "": invalid reference format`},
		{"an uppercase repository", "Nginx", `couldn't parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase`},
		{"an uppercase repository after a registry", "localhost:5000/App", `couldn't parse image name "localhost:5000/App": invalid reference format: repository name (App) must be lowercase`},
		{"an uppercase path after a lowercase first part", "team/App:1", `couldn't parse image name "team/App:1": invalid reference format: repository name (team/App) must be lowercase`},
		{"a bare image id", hexA, `couldn't parse image name "` + hexA + `": invalid repository name (` + hexA + `), cannot specify 64-byte hexadecimal strings`},
		{"an empty tag", "nginx:", `couldn't parse image name "nginx:": invalid reference format`},
		{"a tag of 129 characters", "nginx:" + strings.Repeat("t", 129), `couldn't parse image name "nginx:` + strings.Repeat("t", 129) + `": invalid reference format`},
		{"a tag starting with '.'", "nginx:.1", `couldn't parse image name "nginx:.1": invalid reference format`},
		{"three '_' in a row", "a___b", `couldn't parse image name "a___b": invalid reference format`},
		{"a path component ending in a separator", "team-/app", `couldn't parse image name "team-/app": invalid reference format`},
		{"an empty path component", "quay.io/a//b", `couldn't parse image name "quay.io/a//b": invalid reference format`},
		{"a space", "nginx :1", `couldn't parse image name "nginx :1": invalid reference format`},
		{"a '*' tag is no tag", "nginx:1.*", `couldn't parse image name "nginx:1.*": invalid reference format`},
		{"a digest of too few hex digits for the grammar", "app@sha256:abc", `couldn't parse image name "app@sha256:abc": invalid reference format`},
		{"a sha256 digest of 32 hex digits", "app@sha256:" + strings.Repeat("0", 32), `couldn't parse image name "app@sha256:` + strings.Repeat("0", 32) + `": invalid checksum digest length`},
		{"a sha256 digest in uppercase hex", "app@sha256:" + strings.Repeat("A", 64), `couldn't parse image name "app@sha256:` + strings.Repeat("A", 64) + `": invalid checksum digest format`},
		{"an unknown digest algorithm", "app@md5:" + strings.Repeat("0", 32), `couldn't parse image name "app@md5:` + strings.Repeat("0", 32) + `": unsupported digest algorithm`},
		{"two digests", "app@sha256:" + hexA + "@sha256:" + hexB, `couldn't parse image name "app@sha256:` + hexA + "@sha256:" + hexB + `": invalid reference format`},
		{"a repository of 256 characters", "my.reg/" + strings.Repeat("a", 256), `couldn't parse image name "my.reg/` + strings.Repeat("a", 256) + `": repository name must not be more than 255 characters`},
		{"a registry port that is not a number", "reg:50a/app", `couldn't parse image name "reg:50a/app": invalid reference format`},
		{"an empty IPv6 registry", "[]:5000/app", `couldn't parse image name "[]:5000/app": invalid reference format`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := images.ParseReference(tc.in)
			assert.EqualError(t, err, tc.wantErr)
		})
	}
}

// A pod's image is the input of a hostile spec: ParseReference never panics, and what it
// normalises normalises to itself.
func FuzzParseReference(f *testing.F) {
	for _, s := range []string{"nginx", "nginx:1.27@sha256:" + hexA, "[::1]:5000/app:v1", "a_b.c/x", "Nginx", "localhost:5000/a/b:*", "app@md5:" + hexA[:32]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ref, err := images.ParseReference(s)
		if err != nil {
			assert.Contains(t, err.Error(), "couldn't parse image name")
			return
		}
		again, err := images.ParseReference(ref.String())
		require.NoError(t, err)
		assert.Equal(t, ref.String(), again.String())
	})
}
