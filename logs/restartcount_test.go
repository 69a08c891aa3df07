package logs_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/logs"
)

// fileTree is a backend the test can fill in the same way on the OS and in memory.
type fileTree interface {
	logs.DirReader
	MkdirAll(path string, perm fs.FileMode) error
	WriteFile(path string, data []byte, perm fs.FileMode) error
	Symlink(oldname, newname string) error
}

var (
	_ logs.DirReader = hostfs.OS{}
	_ logs.DirReader = (*hostfs.Memory)(nil)
)

func TestCalcRestartCountByLogDir(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		dirs  []string
		links map[string]string
		noDir bool
		want  int
	}{
		{name: "a missing directory gives 0 without error", noDir: true, want: 0},
		{name: "an empty directory gives 0", want: 0},
		{name: "the highest log number plus one", files: []string{"0.log", "1.log", "2.log"}, want: 3},
		{
			name:  "rotated and compressed logs count, other files do not",
			files: []string{"0.log", "1.log", "4.log.20240101-000000", "7.log.gz", "junk.log"},
			want:  8,
		},
		{name: "the pattern is not anchored at the end", files: []string{"3.logfoo"}, want: 4},
		{name: "a name must start with the digits", files: []string{"x3.log", "log", ".log"}, want: 0},
		{name: "the digits must be followed by .log", files: []string{"3.lo", "3log", "3.LOG", "3_0.log", "٣.log"}, want: 0},
		{name: "directories are skipped", files: []string{"1.log"}, dirs: []string{"9.log"}, want: 2},
		{name: "numbers too large for an int are skipped", files: []string{"99999999999999999999.log", "5.log"}, want: 6},
		{name: "leading zeros are read as decimal", files: []string{"010.log"}, want: 11},
		{name: "a symlink is counted like a file, as its entry is not a directory", files: []string{"1.log"}, links: map[string]string{"6.log": "1.log"}, want: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(t *testing.T, fsys fileTree, root string) {
				dir := root + "/ns_pod_uid/app"
				if !tt.noDir {
					require.NoError(t, fsys.MkdirAll(dir, 0o755))
				}
				for _, f := range tt.files {
					require.NoError(t, fsys.WriteFile(dir+"/"+f, nil, 0o640))
				}
				for _, d := range tt.dirs {
					require.NoError(t, fsys.MkdirAll(dir+"/"+d, 0o755))
				}
				for name, target := range tt.links {
					require.NoError(t, fsys.Symlink(target, dir+"/"+name))
				}
				got, err := logs.CalcRestartCountByLogDir(fsys, dir)
				require.NoError(t, err)
				assert.Equal(t, tt.want, got)
			}
			t.Run("OS", func(t *testing.T) { run(t, hostfs.OS{}, t.TempDir()) })
			t.Run("Memory", func(t *testing.T) { run(t, hostfs.NewMemory(), "/var/log/pods") })
		})
	}
}

// statOK lists with an error after a successful Stat, which kubelet returns.
type statOK struct {
	logs.DirReader
	err error
}

func (s statOK) ReadDir(string) ([]fs.DirEntry, error) { return nil, s.err }

func TestCalcRestartCountByLogDirErrors(t *testing.T) {
	m := hostfs.NewMemory()
	require.NoError(t, m.MkdirAll("/d", 0o755))
	require.NoError(t, m.WriteFile("/f", nil, 0o644))

	errList := errors.New("getdents: input/output error")
	n, err := logs.CalcRestartCountByLogDir(statOK{DirReader: m, err: errList}, "/d")
	require.ErrorIs(t, err, errList, "a listing error is returned")
	assert.Equal(t, 0, n)

	n, err = logs.CalcRestartCountByLogDir(m, "/f")
	require.Error(t, err, "a regular file stats fine but cannot be listed")
	assert.Equal(t, 0, n)

	n, err = logs.CalcRestartCountByLogDir(m, "/f/below")
	require.NoError(t, err, "any Stat error, not only ErrNotExist, gives 0 and no error")
	assert.Equal(t, 0, n)
}
