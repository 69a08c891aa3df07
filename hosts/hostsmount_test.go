package hosts_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
	"github.com/podconfig/podconfig/hosts"
)

func TestEtcHostsPath(t *testing.T) {
	tests := []struct {
		name, podDir, want string
	}{
		{name: "the file sits in the pod directory", podDir: "/var/lib/kubelet/pods/uid", want: "/var/lib/kubelet/pods/uid/etc-hosts"},
		{name: "a relative pod directory is made absolute", podDir: "pods/uid", want: "/pods/uid/etc-hosts"},
		{name: "the path is cleaned", podDir: "/var//lib/kubelet/./pods/uid/", want: "/var/lib/kubelet/pods/uid/etc-hosts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, hosts.EtcHostsPath(tt.podDir))
		})
	}
}

func inodeOf(t *testing.T, fsys interface {
	Stat(string) (fs.FileInfo, error)
}, p string) (uint64, fs.FileMode) {
	t.Helper()
	fi, err := fsys.Stat(p)
	require.NoError(t, err)
	ino, ok := hostfs.Inode(fi)
	require.True(t, ok)
	return ino, fi.Mode()
}

func TestEnsureHostsFileErrors(t *testing.T) {
	errWrite := errors.New("disk full")
	errChmod := errors.New("read-only file system")
	tests := []struct {
		name      string
		funcs     hostfstest.Funcs
		path      string
		wantErr   error
		wantCalls int
	}{
		{
			name:    "a write error is returned as is and nothing else is tried",
			funcs:   hostfstest.Funcs{WriteFile: func(hostfstest.FS, string, []byte, fs.FileMode) error { return errWrite }},
			path:    "/pod/etc-hosts",
			wantErr: errWrite, wantCalls: 1,
		},
		{
			name:    "a chmod error is returned as is",
			funcs:   hostfstest.Funcs{Chmod: func(hostfstest.FS, string, fs.FileMode) error { return errChmod }},
			path:    "/pod/etc-hosts",
			wantErr: errChmod, wantCalls: 2,
		},
		{
			name:    "a missing pod directory is ErrNotExist",
			path:    "/nope/etc-hosts",
			wantErr: fs.ErrNotExist, wantCalls: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := hostfs.NewMemory()
			require.NoError(t, m.MkdirAll("/pod", 0o750))
			w := hostfstest.Wrap(m, tt.funcs)
			err := hosts.EnsureHostsFile(w, tt.path, []byte("x"))
			require.ErrorIs(t, err, tt.wantErr)
			assert.Equal(t, tt.wantCalls, w.Calls())
		})
	}
}

func TestMakeHostsFile(t *testing.T) {
	const podDir = "/var/lib/kubelet/pods/uid"
	nodeHosts := func() ([]byte, error) { return []byte("127.0.0.1\tlocalhost\n"), nil }
	errRead := errors.New("open /etc/hosts: permission denied")
	tests := []struct {
		name     string
		opts     hosts.HostsFileOptions
		want     string
		wantErr  string
		wantKind error
	}{
		{
			name: "a pod-network pod gets the managed file",
			opts: hosts.HostsFileOptions{PodDir: podDir, PodIPs: []string{"10.0.0.5"}, HostName: "web", HostDomainName: "sub.ns.svc.cluster.local", NodeHosts: nodeHosts},
			want: managedPrefix + "10.0.0.5\tweb.sub.ns.svc.cluster.local\tweb\n",
		},
		{
			name: "a host-network pod gets the node's file and ignores pod IPs",
			opts: hosts.HostsFileOptions{
				PodDir: podDir, PodIPs: []string{"10.0.0.5"}, HostName: "web", HostNetwork: true, NodeHosts: nodeHosts,
				HostAliases: []v1.HostAlias{{IP: "10.9.9.9", Hostnames: []string{"db"}}},
			},
			want: "# Kubernetes-managed hosts file (host network).\n127.0.0.1\tlocalhost\n\n# Entries added by HostAliases.\n10.9.9.9\tdb\n",
		},
		{
			name:    "an error reading the node's file is returned as is",
			opts:    hosts.HostsFileOptions{PodDir: podDir, HostNetwork: true, NodeHosts: func() ([]byte, error) { return nil, errRead }},
			wantErr: errRead.Error(), wantKind: errRead,
		},
		{
			name: "an invalid alias writes nothing",
			opts: hosts.HostsFileOptions{
				PodDir: podDir, PodIPs: []string{"10.0.0.5"}, HostName: "web",
				HostAliases: []v1.HostAlias{{IP: "10.9.9.9", Hostnames: []string{"db\n1.1.1.1 evil"}}},
			},
			wantErr:  `spec.hostAliases[0].hostnames[0]: Invalid value: "db\n1.1.1.1 evil": ` + subdomainRule,
			wantKind: hosts.ErrInvalidHostsEntry,
		},
		{
			name:     "a pod directory with .. is rejected before anything is written",
			opts:     hosts.HostsFileOptions{PodDir: "/var/lib/kubelet/pods/../../../etc", PodIPs: []string{"10.0.0.5"}, HostName: "web"},
			wantErr:  `pod directory "/var/lib/kubelet/pods/../../../etc" must be an absolute path without '..'`,
			wantKind: hosts.ErrInvalidPodDir,
		},
		{
			name:     "a relative pod directory is rejected",
			opts:     hosts.HostsFileOptions{PodDir: "pods/uid", PodIPs: []string{"10.0.0.5"}, HostName: "web"},
			wantErr:  `pod directory "pods/uid" must be an absolute path without '..'`,
			wantKind: hosts.ErrInvalidPodDir,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := hostfs.NewMemory()
			require.NoError(t, m.MkdirAll(podDir, 0o750))
			require.NoError(t, m.MkdirAll("/etc", 0o755))
			// HostsFileContent is the content MakeHostsFile writes, or its error; it does not
			// look at the pod directory.
			content, err := hosts.HostsFileContent(tt.opts)
			switch {
			case tt.wantKind == hosts.ErrInvalidPodDir:
				require.NoError(t, err)
			case tt.wantErr != "":
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, tt.wantKind)
				assert.Nil(t, content)
			default:
				require.NoError(t, err)
				assert.Equal(t, tt.want, string(content))
			}
			path, err := hosts.MakeHostsFile(m, tt.opts)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				require.ErrorIs(t, err, tt.wantKind)
				assert.Empty(t, path)
				for _, dir := range []string{podDir, "/etc"} {
					entries, rerr := m.ReadDir(dir)
					require.NoError(t, rerr)
					assert.Empty(t, entries, "nothing written in %s", dir)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, podDir+"/etc-hosts", path)
			got, err := m.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			fi, err := m.Stat(path)
			require.NoError(t, err)
			assert.Equal(t, hosts.FileMode, fi.Mode())
		})
	}
}

func TestMakeHostsFileRewritesInPlace(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.MkdirAll("/pods/uid", 0o750))
	opts := hosts.HostsFileOptions{PodDir: "/pods/uid", PodIPs: []string{"10.0.0.5"}, HostName: "web"}
	path, err := hosts.MakeHostsFile(m, opts)
	require.NoError(t, err)
	ino, _ := inodeOf(t, m, path)

	opts.PodIPs = []string{"10.0.0.6", "fd00::6"}
	_, err = hosts.MakeHostsFile(m, opts)
	require.NoError(t, err)
	ino2, _ := inodeOf(t, m, path)
	assert.Equal(t, ino, ino2)
	got, err := m.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, managedPrefix+"10.0.0.6\tweb\nfd00::6\tweb\n", string(got))
}
