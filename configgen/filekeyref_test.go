package configgen_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/features"
	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/internal/envfile"
	"github.com/podconfig/podconfig/mounts"
)

func fileEnv(name, volume, path, key string, optional bool) v1.EnvVar {
	return v1.EnvVar{Name: name, ValueFrom: &v1.EnvVarSource{FileKeyRef: &v1.FileKeySelector{
		VolumeName: volume, Path: path, Key: key, Optional: ptr.To(optional)}}}
}

// envFileVolume lays out a volume directory with env files and symlinks, and a file outside it
// that no fileKeyRef may read.
func envFileVolume(t *testing.T) (root, vol string) {
	t.Helper()
	root = t.TempDir()
	vol = filepath.Join(root, "vol")
	write := func(p, content string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write(filepath.Join(vol, "config.env"), "A='alpha'\nEMPTY=''\nBLANK= 'x'\n")
	write(filepath.Join(vol, "bad.env"), "A=unquoted\n")
	write(filepath.Join(root, "outside.env"), "A='secret'\n")
	require.NoError(t, os.MkdirAll(filepath.Join(vol, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(vol, "dir"), 0o755))
	require.NoError(t, os.Symlink("../config.env", filepath.Join(vol, "sub", "link.env")))
	require.NoError(t, os.Symlink(filepath.Join(root, "outside.env"), filepath.Join(vol, "abs.env")))
	require.NoError(t, os.Symlink("../../outside.env", filepath.Join(vol, "sub", "up.env")))
	require.NoError(t, os.Symlink("loop.env", filepath.Join(vol, "loop.env")))
	return root, vol
}

func TestFileKeyRef(t *testing.T) {
	_, vol := envFileVolume(t)
	volumes := mounts.VolumeMap{
		"vol":   {HostPath: vol},
		"img":   {Image: &runtimeapi.ImageSpec{Image: "registry.example/data:1"}},
		"block": {BlockDevicePath: "/dev/loop9"},
		"empty": {MounterType: "*emptydir.emptyDir"},
	}
	const where = `pod ns/web-0 container "app": env var "V": failed to parse env file: `
	tests := []struct {
		name         string
		env          v1.EnvVar
		gateOff      bool
		want         []configgen.EnvVar
		wantErr      string
		wantIs       []error
		wantWarnings []string
		// wantReason is the reason of every warning, when there are any.
		wantReason string
		// warningPrefix is checked instead of wantWarnings where the cause's text comes from
		// the kernel interface in use.
		warningPrefix string
	}{
		{name: "value is read from the file", env: fileEnv("V", "vol", "config.env", "A", false), want: vars("V", "alpha")},
		{name: "relative symlink inside the volume is followed", env: fileEnv("V", "vol", "sub/link.env", "A", false), want: vars("V", "alpha")},
		{
			name: "absolute symlink is resolved inside the volume, never outside", env: fileEnv("V", "vol", "abs.env", "A", false),
			wantErr: "couldn't parse env file", wantIs: []error{configgen.ErrEnvFile},
		},
		{
			name: "relative symlink climbing out is clamped to the volume", env: fileEnv("V", "vol", "sub/up.env", "A", false),
			wantErr: "couldn't parse env file",
		},
		{
			name: "path with .. is clamped to the volume", env: fileEnv("V", "vol", "../outside.env", "A", false),
			wantErr: "couldn't parse env file",
		},
		{
			name: "symlink loop fails the join with its error", env: fileEnv("V", "vol", "loop.env", "A", true),
			wantErr: "SecureJoin " + filepath.Join(vol, "loop.env") + ": too many levels of symbolic links",
			wantIs:  []error{configgen.ErrEnvFile, syscall.ELOOP},
		},
		{
			name: "missing optional key omits the variable with a warning", env: fileEnv("V", "vol", "config.env", "NOPE", true), want: nil,
			wantWarnings: []string{`skipping optional envvar "V": key "NOPE" not found in file "config.env" of volume "vol"`}, wantReason: configgen.ReasonOptionalFileKeyNotFound,
		},
		{
			name: "missing key is an error naming the file", env: fileEnv("V", "vol", "config.env", "NOPE", false),
			wantErr: `environment variable key "NOPE" not found in file "` + filepath.Join(vol, "config.env") + `"`,
			wantIs:  []error{configgen.ErrKeyNotFound},
		},
		{
			name: "empty value counts as missing", env: fileEnv("V", "vol", "config.env", "EMPTY", false),
			wantErr: `environment variable key "EMPTY" not found in file "` + filepath.Join(vol, "config.env") + `"`,
		},
		{
			name: "empty optional value omits the variable with a warning", env: fileEnv("V", "vol", "config.env", "EMPTY", true), want: nil,
			wantWarnings: []string{`skipping optional envvar "V": key "EMPTY" not found in file "config.env" of volume "vol"`}, wantReason: configgen.ReasonOptionalFileKeyNotFound,
		},
		{
			name: "whitespace after = is an empty value", env: fileEnv("V", "vol", "config.env", "BLANK", false),
			wantErr: `environment variable key "BLANK" not found in file "` + filepath.Join(vol, "config.env") + `"`,
		},
		{
			name: "parse error is hidden behind a fixed text and returned as a warning", env: fileEnv("V", "vol", "bad.env", "A", true),
			wantErr:      "couldn't parse env file",
			wantIs:       []error{configgen.ErrEnvFile},
			wantWarnings: []string{where + "invalid environment variable format at line 1: value must be enclosed in single quotes"},
			wantReason:   configgen.ReasonFailedToParseEnvFile,
		},
		{
			name: "missing file is a parse error", env: fileEnv("V", "vol", "none.env", "A", true),
			wantErr:       "couldn't parse env file",
			wantIs:        []error{configgen.ErrEnvFile, fs.ErrNotExist},
			warningPrefix: where + `failed to open environment variable file "` + filepath.Join(vol, "none.env") + `": `,
			wantReason:    configgen.ReasonFailedToParseEnvFile,
		},
		{
			name: "directory is refused", env: fileEnv("V", "vol", "dir", "A", false),
			wantErr:      "couldn't parse env file",
			wantWarnings: []string{where + `failed to open environment variable file "` + filepath.Join(vol, "dir") + `": not a regular file (d---------)`},
			wantReason:   configgen.ReasonFailedToParseEnvFile,
		},
		{
			name: "unknown volume", env: fileEnv("V", "ghost", "config.env", "A", false),
			wantErr: `cannot find the volume "ghost" referenced by FileKeyRef`, wantIs: []error{configgen.ErrEnvFile},
		},
		{
			name: "volume that is not mounted", env: fileEnv("V", "block", "config.env", "A", false),
			wantErr: `cannot find the volume "block" referenced by FileKeyRef`,
		},
		{
			name: "image volume has no host path", env: fileEnv("V", "img", "config.env", "A", false),
			wantErr: `failed to get host path for volume "img": path is empty *image.imagePlugin`, wantIs: []error{configgen.ErrEnvFile},
		},
		{
			name: "a mounted volume with an empty path names its mounter", env: fileEnv("V", "empty", "config.env", "A", false),
			wantErr: `failed to get host path for volume "empty": path is empty *emptydir.emptyDir`, wantIs: []error{configgen.ErrEnvFile, mounts.ErrEmptyVolumePath},
		},
		{name: "EnvFiles gate off sets the variable to empty", env: fileEnv("V", "ghost", "config.env", "A", false), gateOff: true, want: vars("V", "")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := envInput(testPod(tc.env))
			in.Volumes = volumes
			if tc.gateOff {
				in.FeatureGates = gates(func(g *features.Gates) { g.EnvFiles = false })
			}
			got, warnings, err := configgen.MakeEnvironmentVariables(context.Background(), in)
			if tc.wantWarnings != nil {
				assert.Equal(t, tc.wantWarnings, messages(warnings))
			}
			if tc.warningPrefix != "" {
				require.Len(t, warnings, 1)
				assert.True(t, strings.HasPrefix(warnings[0].Message, tc.warningPrefix), "warning %q", warnings[0].Message)
			}
			wantReason := tc.wantReason
			if tc.wantErr == "couldn't parse env file" {
				// The detail behind kubelet's fixed text always comes back as a warning.
				wantReason = configgen.ReasonFailedToParseEnvFile
				assert.Len(t, warnings, 1)
			}
			for _, w := range warnings {
				assert.Equal(t, wantReason, w.Reason, "reason of %q", w.Message)
				assert.Equal(t, "app", w.Container)
			}
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				for _, target := range tc.wantIs {
					assert.ErrorIs(t, err, target)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantWarnings, messages(warnings))
		})
	}
}

func TestFileKeyRefParseErrorUnwraps(t *testing.T) {
	_, vol := envFileVolume(t)
	in := envInput(testPod(fileEnv("V", "vol", "bad.env", "A", false)))
	in.Volumes = mounts.VolumeMap{"vol": {HostPath: vol}}
	_, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	var fe *envfile.FormatError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 1, fe.Line)
}

func TestFileKeyRefInMemory(t *testing.T) {
	fsys := hostfs.NewMemory()
	require.NoError(t, fsys.MkdirAll("/pods/p/volumes/cfg/sub", 0o755))
	require.NoError(t, fsys.MkdirAll("/etc", 0o755))
	require.NoError(t, fsys.WriteFile("/pods/p/volumes/cfg/app.env", []byte("# generated\nMODE='fast'\n"), 0o644))
	require.NoError(t, fsys.WriteFile("/etc/shadow.env", []byte("MODE='stolen'\n"), 0o600))
	require.NoError(t, fsys.Symlink("/etc/shadow.env", "/pods/p/volumes/cfg/sub/evil.env"))
	require.NoError(t, fsys.Symlink("../app.env", "/pods/p/volumes/cfg/sub/good.env"))

	tests := []struct {
		name, path, want, wantErr string
	}{
		{name: "reads through the in-memory backend", path: "app.env", want: "fast"},
		{name: "relative symlink inside the volume", path: "sub/good.env", want: "fast"},
		{name: "absolute symlink cannot leave the volume", path: "sub/evil.env", wantErr: "couldn't parse env file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := envInput(testPod(fileEnv("MODE", "cfg", tc.path, "MODE", false)))
			in.Volumes = mounts.VolumeMap{"cfg": {HostPath: "/pods/p/volumes/cfg"}}
			in.Files = fsys
			got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, vars("MODE", tc.want), got)
		})
	}
}
