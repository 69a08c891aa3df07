package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// volumeFilesPod has one volume of each type -o crictl sets up, a nested mount point, a file in a
// directory, explicit modes, an empty Secret value, fsGroup and a runAsUser that owns the token.
const volumeFilesPod = `apiVersion: v1
kind: ConfigMap
metadata: {name: files, namespace: vol}
data: {greeting: hello, motd: "be nice\n"}
---
apiVersion: v1
kind: Secret
metadata: {name: keys, namespace: vol}
stringData: {password: s3cr3t, empty: ""}
---
apiVersion: v1
kind: Pod
metadata: {name: files, namespace: vol, uid: 0b7e2c1d-5a4f-4e3b-9c8d-1f2e3d4c5b6a, labels: {app: demo}}
spec:
  serviceAccountName: app
  securityContext: {runAsUser: 1000, fsGroup: 2000}
  volumes:
  - name: cm
    configMap: {name: files, defaultMode: 0440, items: [{key: greeting, path: greeting}, {key: motd, path: etc/motd, mode: 0600}]}
  - name: sec
    secret: {secretName: keys}
  - name: info
    downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
  - name: api
    projected:
      sources:
      - serviceAccountToken: {path: token, expirationSeconds: 3607}
      - configMap: {name: files, items: [{key: greeting, path: greeting}]}
      - downwardAPI: {items: [{path: namespace, fieldRef: {fieldPath: metadata.namespace}}]}
  - name: scratch
    emptyDir: {}
  - name: host
    hostPath: {path: /var/log}
  containers:
  - name: main
    image: busybox
    volumeMounts:
    - {name: cm, mountPath: /etc/app}
    - {name: scratch, mountPath: /etc/app/scratch}
    - {name: sec, mountPath: /sec}
    - {name: info, mountPath: /info}
    - {name: api, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}
    - {name: host, mountPath: /host}
`

// tsDirRE matches the atomic writer's timestamped directory names.
var tsDirRE = regexp.MustCompile(`\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d+`)

// volumeSnapshot is every entry below dir, not following links, as "mode owner content" (a
// link's target, a file's content), the timestamped directories named ..TS; owners are shown
// only when root, the only user who can give files away.
func volumeSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		if os.Geteuid() == 0 {
			st := fi.Sys().(*syscall.Stat_t)
			desc += fmt.Sprintf(" %d:%d", st.Uid, st.Gid)
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(data)
		}
		out[tsDirRE.ReplaceAllString(rel, "..TS")] = tsDirRE.ReplaceAllString(desc, "..TS")
		return nil
	}))
	return out
}

// withOwners is want with the owner after each mode when the test runs as root, from owners by
// path (root:2000 where none is given: the writer's user and the fsGroup).
func withOwners(want map[string]string, owners map[string]string) map[string]string {
	if os.Geteuid() != 0 {
		return want
	}
	out := map[string]string{}
	for p, desc := range want {
		owner, ok := owners[p]
		if !ok {
			owner = "0:2000"
		}
		mode, rest, found := strings.Cut(desc, " ")
		out[p] = mode + " " + owner
		if found {
			out[p] += " " + rest
		}
	}
	return out
}

func TestCrictlOutputWritesTheVolumeFiles(t *testing.T) {
	const volumesDir = "kubelet/pods/0b7e2c1d-5a4f-4e3b-9c8d-1f2e3d4c5b6a/volumes"
	// The files the test pod's volumes hold on disk whatever --show-secrets says: each file
	// in the timestamped directory ..data names, a link per top-level name, the modes after the
	// fsGroup pass (group read added, directories setgid), the nested mount point scratch.
	common := map[string]string{
		"kubernetes.io~configmap/cm":                  "dgrwxrwxrwx",
		"kubernetes.io~configmap/cm/..TS":             "dgrwxr-xr-x",
		"kubernetes.io~configmap/cm/..TS/etc":         "dgrwxr-xr-x",
		"kubernetes.io~configmap/cm/..TS/etc/motd":    "-rw-r----- be nice\n",
		"kubernetes.io~configmap/cm/..TS/greeting":    "-r--r----- hello",
		"kubernetes.io~configmap/cm/..data":           "Lrwxrwxrwx -> ..TS",
		"kubernetes.io~configmap/cm/etc":              "Lrwxrwxrwx -> ..data/etc",
		"kubernetes.io~configmap/cm/greeting":         "Lrwxrwxrwx -> ..data/greeting",
		"kubernetes.io~configmap/cm/scratch":          "dgrwxr-xr-x",
		"kubernetes.io~downward-api/info":             "dgrwxrwxrwx",
		"kubernetes.io~downward-api/info/..TS":        "dgrwxr-xr-x",
		"kubernetes.io~downward-api/info/..TS/labels": "-rw-r--r-- app=\"demo\"",
		"kubernetes.io~downward-api/info/..data":      "Lrwxrwxrwx -> ..TS",
		"kubernetes.io~downward-api/info/labels":      "Lrwxrwxrwx -> ..data/labels",
		"kubernetes.io~empty-dir/scratch":             "dgrwxrwxrwx",
		"kubernetes.io~projected/api":                 "dgrwxrwxrwx",
		"kubernetes.io~projected/api/..TS":            "dgrwxr-xr-x",
		"kubernetes.io~projected/api/..TS/greeting":   "-rw-r--r-- hello",
		"kubernetes.io~projected/api/..TS/namespace":  "-rw-r--r-- vol",
		"kubernetes.io~projected/api/..data":          "Lrwxrwxrwx -> ..TS",
		"kubernetes.io~projected/api/greeting":        "Lrwxrwxrwx -> ..data/greeting",
		"kubernetes.io~projected/api/namespace":       "Lrwxrwxrwx -> ..data/namespace",
		"kubernetes.io~projected/api/token":           "Lrwxrwxrwx -> ..data/token",
		"kubernetes.io~secret/sec":                    "dgrwxrwxrwx",
		"kubernetes.io~secret/sec/..TS":               "dgrwxr-xr-x",
		"kubernetes.io~secret/sec/..TS/empty":         "-rw-r--r-- ",
		"kubernetes.io~secret/sec/..data":             "Lrwxrwxrwx -> ..TS",
		"kubernetes.io~secret/sec/empty":              "Lrwxrwxrwx -> ..data/empty",
		"kubernetes.io~secret/sec/password":           "Lrwxrwxrwx -> ..data/password",
	}
	// The plugin directories are the offline node's; the token is the runAsUser's (FsUserFrom).
	owners := map[string]string{
		".": "0:0", "kubernetes.io~configmap": "0:0", "kubernetes.io~downward-api": "0:0",
		"kubernetes.io~empty-dir": "0:0", "kubernetes.io~projected": "0:0", "kubernetes.io~secret": "0:0",
		"kubernetes.io~projected/api/..TS/token": "1000:2000", "kubernetes.io~projected/api/token": "1000:2000",
	}
	for _, tc := range []struct {
		name  string
		flags []string
		// password and token are the secret files' contents.
		password, token string
	}{
		{"without --show-secrets a Secret's values and the token are placeholders of their size and mode", nil,
			"secret", "secret-hidden-by-podconfig\n"},
		{"with --show-secrets they are the Secret's values and the offline token", []string{"--show-secrets"},
			"s3cr3t", "placeholder-token-not-a-jwt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"render", "--admission=false", "-o", "crictl", "--output-directory", out}, tc.flags...)
			code, stdout, stderr := cli(t, volumeFilesPod, append(args, "-")...)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, "pod vol/files: "+filepath.Join(out, "vol_files")+"\n", stdout)
			assert.Empty(t, stderr)

			want := map[string]string{
				".":                                      "drwxr-x---",
				"kubernetes.io~configmap":                "drwxrwxrwx",
				"kubernetes.io~downward-api":             "drwxrwxrwx",
				"kubernetes.io~empty-dir":                "drwxrwxrwx",
				"kubernetes.io~projected":                "drwxrwxrwx",
				"kubernetes.io~secret":                   "drwxrwxrwx",
				"kubernetes.io~secret/sec/..TS/password": "-rw-r--r-- " + tc.password,
				"kubernetes.io~projected/api/..TS/token": "-rw-r----- " + tc.token,
			}
			for p, desc := range common {
				want[p] = desc
			}
			assert.Equal(t, withOwners(want, owners), volumeSnapshot(t, filepath.Join(out, volumesDir)))
		})
	}
}

func TestSecretPlaceholderIsTheTextRepeatedToTheSize(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		want string
	}{
		{"an empty value stays empty", 0, ""},
		{"a short value is the text's start", 6, "secret"},
		{"a value the text's size is the text", 27, "secret-hidden-by-podconfig\n"},
		{"a longer value repeats the text", 30, "secret-hidden-by-podconfig\nsec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(secretPlaceholder(tc.n)))
		})
	}
}

// Rendering again into the output directory updates each volume as kubelet's atomic writer
// does: a volume whose files are unchanged is left as it is (its ..data names the same
// directory), one whose files changed gets a new timestamped directory, which ..data names, and
// the old one is removed.
func TestCrictlOutputRendersVolumesAgainAtomically(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	vols := filepath.Join(out, "kubelet/pods/0b7e2c1d-5a4f-4e3b-9c8d-1f2e3d4c5b6a/volumes")
	args := []string{"render", "--admission=false", "-o", "crictl", "--output-directory", out}
	dataDirs := func() (cm, sec string) {
		t.Helper()
		cm, err := os.Readlink(filepath.Join(vols, "kubernetes.io~configmap/cm/..data"))
		require.NoError(t, err)
		sec, err = os.Readlink(filepath.Join(vols, "kubernetes.io~secret/sec/..data"))
		require.NoError(t, err)
		return cm, sec
	}
	code, _, stderr := cli(t, volumeFilesPod, append(args, "-")...)
	require.Equal(t, 0, code, stderr)
	cm, sec := dataDirs()

	code, _, stderr = cli(t, volumeFilesPod, append(args, "--show-secrets", "-")...)
	require.Equal(t, 0, code, stderr)
	cm2, sec2 := dataDirs()
	assert.Equal(t, cm, cm2, "the configMap volume is unchanged")
	assert.NotEqual(t, sec, sec2, "the secret volume has new files")
	assert.NoDirExists(t, filepath.Join(vols, "kubernetes.io~secret/sec", sec), "the old files are removed")
	data, err := os.ReadFile(filepath.Join(vols, "kubernetes.io~secret/sec/password"))
	require.NoError(t, err)
	assert.Equal(t, "s3cr3t", string(data))
}

// Every file render computed for a pod's configMap, secret, downwardAPI and projected volumes
// (what -o json lists) is on disk below the volume's host path, through ..data, with its size,
// and its content unless hidden (then the placeholder of its size): for each input of testdata.
func TestCrictlOutputWritesEveryVolumeFileRenderComputed(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "out")
	cfg, flags := newRenderFlags()
	require.NoError(t, flags.Parse([]string{"-o", "crictl", "--output-directory", out}))
	cfg.files = files
	require.NoError(t, cfg.validate())
	checked := 0
	_, err = render(cfg, nil, func(p *podResult) error {
		require.NoError(t, writeCrictlPod(io.Discard, out, p))
		for _, v := range p.Volumes {
			dir := p.crictl.mounts[v.Name].HostPath
			require.True(t, strings.HasPrefix(dir, out+"/"), "%s: volume %s at %s", p.Source, v.Name, dir)
			for _, f := range v.Files {
				data, err := os.ReadFile(filepath.Join(dir, "..data", f.Path))
				require.NoError(t, err, "%s: volume %s", p.Source, v.Name)
				want := string(secretPlaceholder(f.Size))
				if f.Content != nil {
					want = *f.Content
				}
				assert.Equal(t, want, string(data), "%s: volume %s file %s", p.Source, v.Name, f.Path)
				checked++
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 50, "volume files checked")
}

// Owners are changed only by root: a user who is not cannot give a file away, so the volume's
// files stay theirs instead of failing the render (kubelet always runs as root).
func TestCrictlVolumeFSChangesOwnersOnlyAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	for _, tc := range []struct {
		name string
		root bool
		want uint32
	}{
		{"as root the owner is changed", true, 1234},
		{"as another user it is left", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.MkdirAll(filepath.Join(dir, "vol"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "vol", "f"), nil, 0o644))
			o, err := openCrictlOut(dir)
			require.NoError(t, err)
			defer o.close()
			o.root = tc.root
			v := &crictlVolumeFS{o: o, dir: "vol"}
			require.NoError(t, v.Lchown("f", 1234, -1))
			fi, err := os.Lstat(filepath.Join(dir, "vol", "f"))
			require.NoError(t, err)
			assert.Equal(t, tc.want, fi.Sys().(*syscall.Stat_t).Uid)
		})
	}
}
