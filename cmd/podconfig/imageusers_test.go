package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const digestA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

// podOfImages is a pod whose containers c0, c1, ... run the images, in order.
func podOfImages(images ...string) string {
	var sb strings.Builder
	sb.WriteString("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n")
	for i, image := range images {
		fmt.Fprintf(&sb, "  - {name: c%d, image: %q}\n", i, image)
	}
	return sb.String()
}

var tableUser = regexp.MustCompile(`(?m)^  CONTAINER (\S+) .*\n +user +(.*)$`)

// tableUsers are the users -o table shows, by container.
func tableUsers(out string) map[string]string {
	users := map[string]string{}
	for _, m := range tableUser.FindAllStringSubmatch(out, -1) {
		users[m[1]] = m[2]
	}
	return users
}

// uid0Hint ends the warning for containers whose image's user no rule gives.
const uid0Hint = "; kubelet runs them as the image's USER: give it with --image-user IMAGE=UID[:GID] (IMAGE a reference, or NAME:* for every tag and digest), --default-image-user UID[:GID], or a RenderContext's imageUsers and defaultImageUser\n"

func TestImageUserMatching(t *testing.T) {
	for _, tc := range []struct {
		name    string
		images  []string
		context string // imageUsers and defaultImageUser of a RenderContext
		args    []string
		users   []string // by container
		stderr  string
	}{
		{
			name:   "an image no rule names runs as uid 0, named normalised in one warning",
			images: []string{"app:1", "web:2", "web:2", "docker.io/library/web:2"},
			users:  []string{"uid 0", "uid 0", "uid 0", "uid 0"},
			stderr: "warning: 4 containers rendered as uid 0: the user of their images is not known offline (docker.io/library/app:1, docker.io/library/web:2)" + uid0Hint,
		},
		{
			name:   "--image-user nginx applies to nginx, nginx:latest and docker.io/library/nginx:latest",
			images: []string{"nginx", "nginx:latest", "docker.io/library/nginx:latest", "index.docker.io/nginx", "library/nginx:latest"},
			args:   []string{"--image-user", "nginx=101"},
			users:  []string{"uid 101", "uid 101", "uid 101", "uid 101", "uid 101"},
		},
		{
			name:   "--image-user with the normalised reference applies to the short one",
			images: []string{"nginx", "nginx:latest"},
			args:   []string{"--image-user", "docker.io/library/nginx:latest=101"},
			users:  []string{"uid 101", "uid 101"},
		},
		{
			name:   "a reference's tag names that tag only",
			images: []string{"nginx:1.27", "nginx:1.26", "nginx"},
			args:   []string{"--image-user", "nginx:1.27=101"},
			users:  []string{"uid 101", "uid 0", "uid 0"},
			stderr: "warning: 2 containers rendered as uid 0: the user of their images is not known offline (docker.io/library/nginx:1.26, docker.io/library/nginx:latest)" + uid0Hint,
		},
		{
			name:   "a digest names the image whatever its tag, and a tag does not name it",
			images: []string{"nginx:1.27@" + digestA, "nginx@" + digestA, "nginx:1.27"},
			args:   []string{"--image-user", "docker.io/library/nginx:9@" + digestA + "=101"},
			users:  []string{"uid 101", "uid 101", "uid 0"},
			stderr: "warning: 1 containers rendered as uid 0: the user of their images is not known offline (docker.io/library/nginx:1.27)" + uid0Hint,
		},
		{
			name:   "NAME:* covers every tag and digest of the repository, stated once",
			images: []string{"nginx", "nginx:1.27", "nginx:1.27@" + digestA, "docker.io/library/nginx:1.26", "quay.io/nginx/nginx:1"},
			args:   []string{"--image-user", "nginx:*=101"},
			users:  []string{"uid 101", "uid 101", "uid 101", "uid 101", "uid 0"},
			stderr: "warning: 4 containers rendered as uid 101, from --image-user nginx:* for every tag and digest of docker.io/library/nginx (docker.io/library/nginx:1.26, docker.io/library/nginx:1.27, docker.io/library/nginx:latest, docker.io/library/nginx@" + digestA + ")\n" +
				"warning: 1 containers rendered as uid 0: the user of their images is not known offline (quay.io/nginx/nginx:1)" + uid0Hint,
		},
		{
			name:   "a registry with a port keeps its repository",
			images: []string{"registry:5000/team/app:1", "registry:5000/team/app:2"},
			args:   []string{"--image-user", "registry:5000/team/app:*=5"},
			users:  []string{"uid 5", "uid 5"},
			stderr: "warning: 2 containers rendered as uid 5, from --image-user registry:5000/team/app:* for every tag and digest of registry:5000/team/app (registry:5000/team/app:1, registry:5000/team/app:2)\n",
		},
		{
			name:   "a reference wins over its repository, which is stated for the others only",
			images: []string{"nginx:1.27", "nginx:1.26"},
			args:   []string{"--image-user", "nginx:*=101", "--image-user", "nginx:1.27=7"},
			users:  []string{"uid 7", "uid 101"},
			stderr: "warning: 1 containers rendered as uid 101, from --image-user nginx:* for every tag and digest of docker.io/library/nginx (docker.io/library/nginx:1.26)\n",
		},
		{
			name:   "the default applies to the rest, stated once, after the repositories",
			images: []string{"nginx:1.27", "redis:7", "quay.io/a/b@" + digestA, "busybox"},
			args:   []string{"--default-image-user", "65532:65532", "--image-user", "redis:*=999", "--image-user", "nginx:1.27=101"},
			users:  []string{"uid 101", "uid 999", "uid 65532", "uid 65532"},
			stderr: "warning: 1 containers rendered as uid 999, from --image-user redis:* for every tag and digest of docker.io/library/redis (docker.io/library/redis:7)\n" +
				"warning: 2 containers rendered as uid 65532, from --default-image-user for every image no --image-user or imageUsers names (docker.io/library/busybox:latest, quay.io/a/b@" + digestA + ")\n",
		},
		{
			name:   "a default user name is a user name",
			images: []string{"busybox"},
			args:   []string{"--default-image-user", "nobody"},
			users:  []string{"user nobody"},
			stderr: "warning: 1 containers rendered as user nobody, from --default-image-user for every image no --image-user or imageUsers names (docker.io/library/busybox:latest)\n",
		},
		{
			name:    "the RenderContext's rules match normalised too",
			images:  []string{"nginx:latest", "redis:7", "busybox"},
			context: "imageUsers: {\"docker.io/library/nginx\": 101, \"redis:*\": 999}\ndefaultImageUser: 65532",
			users:   []string{"uid 101", "uid 999", "uid 65532"},
			stderr: "warning: 1 containers rendered as uid 999, from the RenderContext's imageUsers redis:* for every tag and digest of docker.io/library/redis (docker.io/library/redis:7)\n" +
				"warning: 1 containers rendered as uid 65532, from the RenderContext's defaultImageUser for every image no --image-user or imageUsers names (docker.io/library/busybox:latest)\n",
		},
		{
			name:    "a flag wins over the RenderContext's rule of the same image, however written",
			images:  []string{"nginx", "redis:7"},
			context: "imageUsers: {nginx: 5, \"redis:*\": 6}",
			args:    []string{"--image-user", "docker.io/library/nginx:latest=101", "--image-user", "index.docker.io/library/redis:*=999"},
			users:   []string{"uid 101", "uid 999"},
			stderr:  "warning: 1 containers rendered as uid 999, from --image-user index.docker.io/library/redis:* for every tag and digest of docker.io/library/redis (docker.io/library/redis:7)\n",
		},
		{
			name:    "the RenderContext's reference wins over the flag's repository",
			images:  []string{"nginx:1.27", "nginx:1.26"},
			context: "imageUsers: {\"nginx:1.27\": 7}",
			args:    []string{"--image-user", "nginx:*=101"},
			users:   []string{"uid 7", "uid 101"},
			stderr:  "warning: 1 containers rendered as uid 101, from --image-user nginx:* for every tag and digest of docker.io/library/nginx (docker.io/library/nginx:1.26)\n",
		},
		{
			name:    "the RenderContext's repository wins over the flag's default",
			images:  []string{"nginx:1.27", "busybox"},
			context: "imageUsers: {\"nginx:*\": 101}",
			args:    []string{"--default-image-user", "65532"},
			users:   []string{"uid 101", "uid 65532"},
			stderr: "warning: 1 containers rendered as uid 101, from the RenderContext's imageUsers nginx:* for every tag and digest of docker.io/library/nginx (docker.io/library/nginx:1.27)\n" +
				"warning: 1 containers rendered as uid 65532, from --default-image-user for every image no --image-user or imageUsers names (docker.io/library/busybox:latest)\n",
		},
		{
			name:    "--default-image-user wins over the RenderContext's",
			images:  []string{"busybox"},
			context: "defaultImageUser: 5",
			args:    []string{"--default-image-user", "65532"},
			users:   []string{"uid 65532"},
			stderr:  "warning: 1 containers rendered as uid 65532, from --default-image-user for every image no --image-user or imageUsers names (docker.io/library/busybox:latest)\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := podOfImages(tc.images...)
			if tc.context != "" {
				in += "---\nkind: RenderContext\n" + tc.context + "\n"
			}
			code, out, stderr := cli(t, in, append(append([]string{"render", "-o", "table"}, tc.args...), "-")...)
			require.Equal(t, exitOK, code, stderr)
			want := map[string]string{}
			for i, u := range tc.users {
				want[fmt.Sprintf("c%d", i)] = u
			}
			assert.Equal(t, want, tableUsers(out))
			assert.Equal(t, tc.stderr, stderr)
		})
	}
}

func TestImageUserOfAContainerWithItsOwnUserIsNotSummarised(t *testing.T) {
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n" +
		"  - {name: a, image: app:1, securityContext: {runAsUser: 5}}\n  - {name: b, image: web:1}\n"
	code, _, stderr := cli(t, in, "render", "-o", "table", "--image-user", "web:*=7", "-")
	require.Equal(t, exitOK, code, stderr)
	assert.Equal(t, "warning: 1 containers rendered as uid 7, from --image-user web:* for every tag and digest of docker.io/library/web (docker.io/library/web:1)\n", stderr)
}

func TestImageUserFlagsRefuse(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"an --image-user without a user", []string{"--image-user", "app:1"},
			`invalid value "app:1" for flag -image-user: "app:1": want IMAGE=UID[:GID] or IMAGE=NAME`},
		{"an --image-user whose image is no reference, with the reason", []string{"--image-user", "Nginx=101"},
			`invalid value "Nginx=101" for flag -image-user: couldn't parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase`},
		{"an --image-user repository with a tag", []string{"--image-user", "nginx:1.27:*=101"},
			`invalid value "nginx:1.27:*=101" for flag -image-user: image pattern "nginx:1.27:*": NAME:* names every tag and digest of a repository, and takes neither`},
		{"a '*' alone, which is --default-image-user's", []string{"--image-user", "*=101"},
			`invalid value "*=101" for flag -image-user: couldn't parse image name "*": invalid reference format`},
		{"two --image-user of one image with different users", []string{"--image-user", "nginx=101", "--image-user", "docker.io/library/nginx:latest=102"},
			`invalid value "docker.io/library/nginx:latest=102" for flag -image-user: "nginx" and "docker.io/library/nginx:latest" both name docker.io/library/nginx:latest, with different users`},
		{"a negative --default-image-user", []string{"--default-image-user", "-1"},
			`invalid value "-1" for flag -default-image-user: image user "-1": a uid is not negative`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, podOfImages("nginx"), append(append([]string{"render"}, tc.args...), "-")...)
			assert.Equal(t, exitUsage, code)
			assert.Equal(t, "podconfig render: "+tc.wantErr+"\nRun \"podconfig render -h\" for usage.\n", stderr)
		})
	}
	t.Run("two --image-user of one image with one user are one", func(t *testing.T) {
		code, out, stderr := cli(t, podOfImages("nginx"), "render", "-o", "table", "--image-user", "nginx=101", "--image-user", "docker.io/library/nginx=101", "-")
		require.Equal(t, exitOK, code, stderr)
		assert.Equal(t, map[string]string{"c0": "uid 101"}, tableUsers(out))
	})
}

// A runAsNonRoot container whose image no rule names fails as kubelet fails for an image with no
// user; the error says how to give it, and a rule of any kind that names it is enough.
func TestRunAsNonRootHintMatchesNormalised(t *testing.T) {
	pod := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  securityContext: {runAsNonRoot: true}\n  containers: [{name: a, image: app:1}]\n"
	code, _, stderr := cli(t, pod, "render", "-")
	assert.Equal(t, exitError, code)
	assert.Equal(t, `podconfig render: stdin: document 1 (Pod p): pod default/p, container a: container has runAsNonRoot and image will run as root (pod: "p_default(`, stderr[:strings.Index(stderr, "(pod: ")+len(`(pod: "p_default(`)])
	assert.Contains(t, stderr, `; the user of image "app:1" (docker.io/library/app:1) is not known offline: give it with --image-user app:1=UID, --image-user docker.io/library/app:*=UID for every tag and digest, --default-image-user UID, or in a RenderContext's imageUsers`+"\n")
	for _, args := range [][]string{
		{"--image-user", "docker.io/library/app:1=1000"},
		{"--image-user", "app:*=1000"},
		{"--default-image-user", "1000"},
	} {
		code, _, stderr := cli(t, pod, append(append([]string{"render"}, args...), "-")...)
		assert.Equal(t, exitOK, code, "%v: %s", args, stderr)
	}
	code, _, stderr = cli(t, pod, "render", "--image-user", "app:*=0", "-")
	assert.Equal(t, exitError, code)
	assert.NotContains(t, stderr, "not known offline", "an image given as root fails with no hint")
}
