package resources_test

import (
	"io/fs"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/resources"
)

// mapFiles serves absolute paths from an fstest.MapFS.
type mapFiles fstest.MapFS

func rel(p string) string { return strings.TrimPrefix(p, "/") }

func (m mapFiles) ReadFile(p string) ([]byte, error) { return fs.ReadFile(fstest.MapFS(m), rel(p)) }
func (m mapFiles) ReadDir(p string) ([]fs.DirEntry, error) {
	return fs.ReadDir(fstest.MapFS(m), rel(p))
}
func (m mapFiles) Stat(p string) (fs.FileInfo, error) { return fs.Stat(fstest.MapFS(m), rel(p)) }

var _ resources.HostFiles = mapFiles{}

const meminfo = "MemTotal:       32768000 kB\nMemFree:        1000 kB\nSwapTotal:       8388608 kB\n"

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func TestDetectNode(t *testing.T) {
	tests := []struct {
		name    string
		files   mapFiles
		want    resources.Node
		wantErr string
	}{
		{
			name: "cgroup v2 node with swap controller and hugepages in sysfs order",
			files: mapFiles{
				"sys/fs/cgroup/cgroup.controllers":                           file("cpu memory"),
				"sys/fs/cgroup/system.slice/kubelet.service/memory.swap.max": file("max"),
				"proc/self/cgroup": file("0::/system.slice/kubelet.service\n"),
				"proc/meminfo":     file(meminfo),
				"sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages": file("0"),
				"sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages":    file("0"),
			},
			want: resources.Node{CgroupV2: true, MemoryCapacity: 32768000 * 1024, SwapCapacity: 8 << 30,
				SwapControllerAvailable: true, HugePageSizes: []string{"2MB", "1GB"}},
		},
		{
			name: "cgroup v2 without memory.swap.max has no swap controller",
			files: mapFiles{
				"sys/fs/cgroup/cgroup.controllers": file(""),
				"proc/self/cgroup":                 file("0::/\n"),
				"proc/meminfo":                     file(meminfo),
			},
			want: resources.Node{CgroupV2: true, MemoryCapacity: 32768000 * 1024, SwapCapacity: 8 << 30, HugePageSizes: []string{}},
		},
		{
			name: "a cgroup path with .. cannot leave the cgroup tree",
			files: mapFiles{
				"sys/fs/cgroup/cgroup.controllers": file(""),
				"proc/self/cgroup":                 file("0::/../../../etc\n"),
				"etc/memory.swap.max":              file(""),
				"proc/meminfo":                     file(meminfo),
			},
			want: resources.Node{CgroupV2: true, MemoryCapacity: 32768000 * 1024, SwapCapacity: 8 << 30, HugePageSizes: []string{}},
		},
		{
			name: "cgroup v1 node with memsw has a swap controller",
			files: mapFiles{
				"sys/fs/cgroup/memory/memory.memsw.limit_in_bytes": file("9223372036854771712"),
				"proc/meminfo": file("MemTotal: 1024 kB\n"),
				"sys/kernel/mm/hugepages/hugepages-64kB/nr_hugepages":   file("0"),
				"sys/kernel/mm/hugepages/not-a-size/nr_hugepages":       file("0"),
				"sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages": file("0"),
			},
			want: resources.Node{MemoryCapacity: 1 << 20, SwapControllerAvailable: true, HugePageSizes: []string{"2MB", "64KB"}},
		},
		{
			name:    "missing /proc/meminfo is an error",
			files:   mapFiles{},
			wantErr: "reading node memory: open proc/meminfo: file does not exist",
		},
		{
			name:    "a meminfo without MemTotal is an error",
			files:   mapFiles{"proc/meminfo": file("MemFree: 1 kB\n")},
			wantErr: "/proc/meminfo: no valid MemTotal line",
		},
		{
			name:    "a meminfo with a non-numeric MemTotal is an error",
			files:   mapFiles{"proc/meminfo": file("MemTotal: lots kB\n")},
			wantErr: "/proc/meminfo: no valid MemTotal line",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resources.DetectNode(tt.files)
			if tt.wantErr != "" {
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestHugePageSizeKeysFromDirNames(t *testing.T) {
	tests := []struct {
		name  string
		names []string
		want  []string
	}{
		{
			name:  "x86-64 lists 2MB before 1GB, as sysfs does",
			names: []string{"hugepages-1048576kB", "hugepages-2048kB"},
			want:  []string{"2MB", "1GB"},
		},
		{
			name:  "arm64 sizes follow the sysfs listing order, not size order",
			names: []string{"hugepages-64kB", "hugepages-2048kB", "hugepages-32768kB", "hugepages-1048576kB"},
			want:  []string{"2MB", "32MB", "64KB", "1GB"},
		},
		{
			name:  "ppc64 lists 16GB before 16MB, as sysfs does",
			names: []string{"hugepages-16384kB", "hugepages-16777216kB"},
			want:  []string{"16GB", "16MB"},
		},
		{
			name:  "the order does not depend on the order of the input",
			names: []string{"hugepages-2048kB", "hugepages-1048576kB", "hugepages-64kB", "hugepages-32768kB"},
			want:  []string{"2MB", "32MB", "64KB", "1GB"},
		},
		{
			name:  "sizes are named in whole GB, else whole MB, else KB, as runc names them",
			names: []string{"hugepages-1536kB", "hugepages-512kB", "hugepages-0kB"},
			want:  []string{"0KB", "512KB", "1MB"},
		},
		{
			name:  "names without the hugepages- prefix, the kB suffix or a number are skipped",
			names: []string{"junk", "hugepages-2048MB", "hugepages-xkB", "hugepages-2048kB"},
			want:  []string{"2MB"},
		},
		{
			name:  "two names for one size give one key",
			names: []string{"hugepages-2048kB", "hugepages-02048kB"},
			want:  []string{"2MB"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, resources.HugePageSizeKeysFromDirNames(tt.names))
		})
	}
}

func TestHostNode(t *testing.T) {
	if runtime.GOOS != "linux" {
		_, err := resources.HostNode()
		require.Error(t, err)
		return
	}
	n, err := resources.HostNode()
	require.NoError(t, err)
	assert.Positive(t, n.MemoryCapacity)
	assert.Positive(t, n.PageSize)
	for _, size := range n.HugePageSizes {
		assert.Regexp(t, `^[0-9]+[KMGTP]?B$`, size)
	}
	// Kubelet lists page sizes in the order the kernel returns the directory entries.
	if dir, err := os.Open("/sys/kernel/mm/hugepages"); err == nil {
		raw, err := dir.Readdirnames(0)
		require.NoError(t, dir.Close())
		require.NoError(t, err)
		var want []string
		for _, name := range raw {
			want = append(want, resources.HugePageSizeKeysFromDirNames([]string{name})...)
		}
		assert.Equal(t, want, n.HugePageSizes, "page sizes in the host's directory order %v", raw)
	}
	_, err = resources.New(resources.DefaultConfig(n))
	require.NoError(t, err, "the host's facts make a valid config")
}

func TestHugePageUnitSizeFromByteSize(t *testing.T) {
	tests := []struct {
		name    string
		size    int64
		want    string
		wantErr string
	}{
		{name: "64KiB is 64KB", size: 64 << 10, want: "64KB"},
		{name: "2MiB is 2MB", size: 2 << 20, want: "2MB"},
		{name: "1GiB is 1GB", size: 1 << 30, want: "1GB"},
		{name: "512MiB is 512MB", size: 512 << 20, want: "512MB"},
		{name: "a size not divisible into its unit is an error", size: 1025 << 10, wantErr: "size: 1025KB must be guaranteed to divisible into the largest units"},
		{name: "a small byte count stays in bytes", size: 1000, want: "1000B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resources.HugePageUnitSizeFromByteSize(tt.size)
			if tt.wantErr != "" {
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
