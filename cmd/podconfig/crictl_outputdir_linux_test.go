package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// hostSnapshot is every file below dir, not following links, with its type, mode and content.
func hostSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(data)
		}
		files[p] = desc
		return nil
	}))
	return files
}

// A pod run from the crictl files has its volumes below the output directory, so its containers
// can put links and special files there; rendering again into the directory must neither follow
// them nor write into them. Each case plants one (after a first render, where the rendered tree
// is needed) and renders again: the render fails naming it, and the files a link points to (a
// host directory and file in a temporary directory) keep their modes and contents.
func TestCrictlOutputWritesNothingOutsideTheOutputDirectory(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("making a device node needs root")
	}
	const uid = "3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11"
	podHost := "kubelet/pods/" + uid
	const rule = ": -o crictl follows no link and writes into no special file below --output-directory"
	symlinkTo := func(target string) func(t *testing.T, path, host string) {
		return func(t *testing.T, path, host string) {
			require.NoError(t, os.Symlink(filepath.Join(host, target), path))
		}
	}
	for _, tc := range []struct {
		name string
		// rendered: render once before planting; at: where the plant goes below the output
		// directory ("" for the directory itself), replacing what is there.
		rendered bool
		at       string
		plant    func(t *testing.T, path, host string)
		// want is the error after "podconfig render: ", with OUT for the output directory and
		// HOST for the host directory.
		want string
	}{
		{"a subPath directory a container replaced with a symlink to a host directory is not chmod'ed through it", true,
			podHost + "/volumes/kubernetes.io~empty-dir/data/web-7d9f8", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/" + podHost + "/volumes/kubernetes.io~empty-dir/data/web-7d9f8 is a symbolic link, not a directory" + rule},
		{"a volume directory replaced with a symlink is not followed", true,
			podHost + "/volumes/kubernetes.io~empty-dir/data", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/" + podHost + "/volumes/kubernetes.io~empty-dir/data is a symbolic link, not a directory" + rule},
		{"a configMap volume's directory replaced with a symlink is not written through", true,
			podHost + "/volumes/kubernetes.io~configmap/config", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/" + podHost + "/volumes/kubernetes.io~configmap/config is a symbolic link, not a directory" + rule},
		{"a projected volume's directory replaced with a symlink is not written through", true,
			podHost + "/volumes/kubernetes.io~projected/kube-api-access-cxjz9", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/" + podHost + "/volumes/kubernetes.io~projected/kube-api-access-cxjz9 is a symbolic link, not a directory" + rule},
		{"a volume's ..data replaced with a symlink to a host directory is neither read nor replaced", true,
			podHost + "/volumes/kubernetes.io~configmap/config/..data", symlinkTo("etc"),
			`pod shop/web-7d9f8: MountVolume.SetUp failed for volume "config" of pod shop/web-7d9f8: ..data links to "HOST/etc", which is not a data directory of the volume`},
		{"a symlink at the volumes' ready markers' directory is not followed", true, podHost + "/plugins", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/" + podHost + "/plugins is a symbolic link, not a directory" + rule},
		{"a symlink in the middle of the pod's directory is not followed", true,
			podHost + "/containers", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/" + podHost + "/containers is a symbolic link, not a directory" + rule},
		{"a symlink at kubelet is not followed", false, "kubelet", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/kubelet is a symbolic link, not a directory" + rule},
		{"a symlink at pods is not followed", false, "pods", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/pods is a symbolic link, not a directory" + rule},
		{"a symlink at the pod's log directory is not followed", true, "pods/shop_web-7d9f8_" + uid, symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/pods/shop_web-7d9f8_" + uid + " is a symbolic link, not a directory" + rule},
		{"a symlink at the pod's crictl directory is not followed", false, "shop_web-7d9f8", symlinkTo("etc"),
			"pod shop/web-7d9f8: OUT/shop_web-7d9f8 is a symbolic link, not a directory" + rule},
		{"a symlink at etc-hosts is not followed", true, podHost + "/etc-hosts", symlinkTo("etc/passwd"),
			"pod shop/web-7d9f8: OUT/" + podHost + "/etc-hosts is a symbolic link, not a regular file" + rule},
		{"a FIFO at etc-hosts is never opened", true, podHost + "/etc-hosts",
			func(t *testing.T, path, _ string) { require.NoError(t, unix.Mkfifo(path, 0o644)) },
			"pod shop/web-7d9f8: OUT/" + podHost + "/etc-hosts is a named pipe, not a regular file" + rule},
		{"a socket at the termination-message file is not written", true, podHost + "/containers/web/0000002a",
			func(t *testing.T, path, host string) {
				// The path is too long for a socket address: bind beside the host files, then move.
				fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
				require.NoError(t, err)
				defer unix.Close(fd)
				sock := filepath.Join(filepath.Dir(host), "s")
				require.NoError(t, unix.Bind(fd, &unix.SockaddrUnix{Name: sock}))
				require.NoError(t, os.Rename(sock, path))
			},
			"pod shop/web-7d9f8: OUT/" + podHost + "/containers/web/0000002a is a socket, not a regular file" + rule},
		{"a device at README.md is not written", true, "shop_web-7d9f8/README.md",
			func(t *testing.T, path, _ string) {
				require.NoError(t, unix.Mknod(path, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))))
			},
			"pod shop/web-7d9f8: OUT/shop_web-7d9f8/README.md is a device, not a regular file" + rule},
		{"a hard link to a host file at pod-config.json is not written through", true, "shop_web-7d9f8/pod-config.json",
			func(t *testing.T, path, host string) {
				require.NoError(t, os.Link(filepath.Join(host, "etc", "passwd"), path))
			},
			"pod shop/web-7d9f8: OUT/shop_web-7d9f8/pod-config.json is a regular file with other hard links, which may be outside --output-directory: -o crictl does not write through it"},
		{"the output directory itself being a symlink is refused, naming the flag", false, "", symlinkTo("etc"),
			"--output-directory OUT is a symbolic link: -o crictl writes only into a directory named as it is; name the directory the link points to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			host, out := filepath.Join(root, "host"), filepath.Join(root, "out")
			require.NoError(t, os.MkdirAll(filepath.Join(host, "etc"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(host, "etc", "passwd"), []byte("root:x:0:0::/root:/bin/sh\n"), 0o644))
			args := []string{"render", "-o", "crictl", "--output-directory", out, "testdata/shop.yaml"}
			if tc.rendered {
				code, _, stderr := cli(t, "", args...)
				require.Equal(t, 0, code, stderr)
			} else if tc.at != "" {
				require.NoError(t, os.Mkdir(out, 0o755))
			}
			at := filepath.Join(out, tc.at)
			if tc.rendered {
				_, err := os.Lstat(at)
				require.NoError(t, err, "the first render made %s", tc.at)
			}
			require.NoError(t, os.RemoveAll(at))
			tc.plant(t, at, host)
			before := hostSnapshot(t, host)

			code, stdout, stderr := cliWithin(t, func() {
				// Only a FIFO opened for writing blocks: a reader lets the stuck call finish.
				if f, err := os.OpenFile(at, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
					defer f.Close()
				}
			}, args...)
			assert.Equal(t, exitError, code)
			assert.Empty(t, stdout)
			assert.Equal(t, fmt.Sprintf("podconfig render: %s\n", strings.NewReplacer("OUT", out, "HOST", host).Replace(tc.want)), stderr)
			assert.Equal(t, before, hostSnapshot(t, host), "nothing outside the output directory changed")
		})
	}
}

func TestCrictlOutputRendersAgainIntoItsOwnDirectory(t *testing.T) {
	// Rendering again into a directory a render made replaces its files in place: etc-hosts,
	// which a running container bind-mounts, keeps its inode.
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"render", "-o", "crictl", "--output-directory", out, "testdata/shop.yaml"}
	code, _, stderr := cli(t, "", args...)
	require.Equal(t, 0, code, stderr)
	hosts := filepath.Join(out, "kubelet", "pods", "3c1f7a52-6f0e-4a8e-9d3b-2b8f1e0c4d11", "etc-hosts")
	var before syscall.Stat_t
	require.NoError(t, syscall.Stat(hosts, &before))
	require.NoError(t, os.WriteFile(hosts, []byte("changed by someone\n"), 0o600))

	code, stdout, stderr := cli(t, "", args...)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "pod shop/web-7d9f8: "+filepath.Join(out, "shop_web-7d9f8")+"\n", stdout)
	var after syscall.Stat_t
	require.NoError(t, syscall.Stat(hosts, &after))
	assert.Equal(t, before.Ino, after.Ino, "etc-hosts is rewritten in place")
	assert.Equal(t, uint32(syscall.S_IFREG|0o644), after.Mode, "with its mode")
	data, err := os.ReadFile(hosts)
	require.NoError(t, err)
	assert.Contains(t, string(data), "web.frontend.shop.svc.cluster.local")
}
