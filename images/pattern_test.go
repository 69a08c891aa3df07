package images_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/images"
)

func TestParsePattern(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		want    string
		wantErr string
	}{
		{"a reference is one image, normalised", "nginx", "docker.io/library/nginx:latest", ""},
		{"a digest reference is that digest", "nginx:1.27@sha256:" + hexA, "docker.io/library/nginx@sha256:" + hexA, ""},
		{"NAME:* is a repository, normalised", "nginx:*", "docker.io/library/nginx:*", ""},
		{"a registry with a port before NAME:*", "localhost:5000/app:*", "localhost:5000/app:*", ""},
		{"NAME:* takes no tag", "nginx:1.27:*", "", `image pattern "nginx:1.27:*": NAME:* names every tag and digest of a repository, and takes neither`},
		{"NAME:* takes no digest", "nginx@sha256:" + hexA + ":*", "", `image pattern "nginx@sha256:` + hexA + `:*": NAME:* names every tag and digest of a repository, and takes neither`},
		{"a '*' alone is no pattern", "*", "", `couldn't parse image name "*": invalid reference format`},
		{"an invalid name before :* is named", "Nginx:*", "", `couldn't parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := images.ParsePattern(tc.in)
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.String())
		})
	}
}

func TestPatternMapMatch(t *testing.T) {
	var m images.PatternMap[string]
	for pattern, value := range map[string]string{
		"nginx":                            "nginx:latest",
		"nginx:1.27":                       "nginx:1.27",
		"nginx:*":                          "every nginx",
		"quay.io/a/b@sha256:" + hexA:       "b by digest",
		"registry:5000/app:*":              "every app",
		"registry:5000/app@sha256:" + hexB: "app by digest",
	} {
		p, err := images.ParsePattern(pattern)
		require.NoError(t, err)
		m.Set(p, value)
	}
	for _, tc := range []struct {
		name  string
		image string
		want  string
	}{
		{"a bare name matches its :latest", "docker.io/library/nginx:latest", "nginx:latest"},
		{"a tag matches itself before its repository", "docker.io/library/nginx:1.27", "nginx:1.27"},
		{"another tag takes the repository's", "nginx:1.26", "every nginx"},
		{"a digest takes the repository's when it is not given", "nginx@sha256:" + hexA, "every nginx"},
		{"a digest matches whatever its tag", "quay.io/a/b:v9@sha256:" + hexA, "b by digest"},
		{"a digest of a repository pattern matches before the repository", "registry:5000/app:1@sha256:" + hexB, "app by digest"},
		{"a registry with a port keeps its repository", "registry:5000/app:7", "every app"},
		{"a tag beside a digest names nothing", "nginx:1.27@sha256:" + hexB, "every nginx"},
		{"another registry's nginx is another repository", "quay.io/library/nginx:1.27", ""},
		{"another tag of a repository given by digest only", "quay.io/a/b:v9", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ref, err := images.ParseReference(tc.image)
			require.NoError(t, err)
			got, ok := m.Match(ref)
			assert.Equal(t, tc.want != "", ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPatternMapSetAndGet(t *testing.T) {
	var m images.PatternMap[int]
	short, err := images.ParsePattern("nginx")
	require.NoError(t, err)
	long, err := images.ParsePattern("docker.io/library/nginx:latest")
	require.NoError(t, err)
	repo, err := images.ParsePattern("nginx:*")
	require.NoError(t, err)
	_, ok := m.Get(short)
	assert.False(t, ok, "the zero PatternMap is empty")
	m.Set(short, 1)
	got, ok := m.Get(long)
	assert.True(t, ok, "two spellings of one reference are one pattern")
	assert.Equal(t, 1, got)
	m.Set(long, 2)
	got, _ = m.Get(short)
	assert.Equal(t, 2, got, "setting a pattern again replaces its value")
	_, ok = m.Get(repo)
	assert.False(t, ok, "a repository is not its :latest")
}
