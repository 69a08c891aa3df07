package mounts_test

import (
	"errors"
	"io/fs"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/hostfs"
	"github.com/podconfig/podconfig/mounts"
)

var (
	_ mounts.FileCreator = hostfs.OS{}
	_ mounts.FileCreator = (*hostfs.Memory)(nil)
)

func fixedRand() uint32 { return 0xab12 }

// failingFiles fails Create or Chmod as configured.
type failingFiles struct{ create, chmod error }

func (f failingFiles) Create(string) error             { return f.create }
func (f failingFiles) Chmod(string, fs.FileMode) error { return f.chmod }

func TestToCRIMounts(t *testing.T) {
	img := &runtimeapi.ImageSpec{Image: "img"}
	ms := []mounts.Mount{
		{Name: "a", ContainerPath: "/a", HostPath: "/h/a", ReadOnly: true, RecursiveReadOnly: true, SELinuxRelabel: true,
			Propagation: hostToCtr, BindMountOptions: []string{"noexec"}},
		{Name: "img", ContainerPath: "/img", Image: img, ImageSubPath: "sub"},
	}
	cases := []struct {
		name    string
		selinux bool
		want    []*runtimeapi.Mount
	}{
		{"SELinux relabel is requested when the host has SELinux enabled", true, []*runtimeapi.Mount{
			{HostPath: "/h/a", ContainerPath: "/a", Readonly: true, RecursiveReadOnly: true, SelinuxRelabel: true, Propagation: hostToCtr, MountOptions: []string{"noexec"}},
			{ContainerPath: "/img", Image: img, ImageSubPath: "sub"},
		}},
		{"SELinux relabel is dropped when the host has SELinux disabled", false, []*runtimeapi.Mount{
			{HostPath: "/h/a", ContainerPath: "/a", Readonly: true, RecursiveReadOnly: true, Propagation: hostToCtr, MountOptions: []string{"noexec"}},
			{ContainerPath: "/img", Image: img, ImageSubPath: "sub"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, mounts.ToCRIMounts(ms, tc.selinux))
		})
	}
}

func TestMakeCRIMountsTerminationMessage(t *testing.T) {
	plain := []mounts.Mount{{Name: "a", ContainerPath: "/a", HostPath: "/h/a"}}
	plainCRI := &runtimeapi.Mount{HostPath: "/h/a", ContainerPath: "/a"}
	const ctrDir = "/pod/containers/ctr"
	cases := []struct {
		name         string
		tm           mounts.TerminationMessage
		selinux      bool
		want         []*runtimeapi.Mount
		wantWarnings []string
		wantMode     fs.FileMode
	}{
		{
			name:     "termination message file is named by 8 hex digits, made 0666 and mounted last",
			tm:       mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "/dev/termination-log", Rand: fixedRand},
			want:     []*runtimeapi.Mount{plainCRI, {HostPath: ctrDir + "/0000ab12", ContainerPath: "/dev/termination-log"}},
			wantMode: 0o666,
		},
		{
			name:     "termination message mount is relabelled when SELinux is enabled and its path made absolute",
			tm:       mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "tmp/../msg", Rand: fixedRand},
			selinux:  true,
			want:     []*runtimeapi.Mount{plainCRI, {HostPath: ctrDir + "/0000ab12", ContainerPath: "/msg", SelinuxRelabel: true}},
			wantMode: 0o666,
		},
		{
			name:     "an absolute termination message path that is not clean is cleaned",
			tm:       mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "/dev//tmp/./../log/", Rand: fixedRand},
			want:     []*runtimeapi.Mount{plainCRI, {HostPath: ctrDir + "/0000ab12", ContainerPath: "/dev/log"}},
			wantMode: 0o666,
		},
		{
			name:     "a termination message path that escapes upwards stays under the container's root",
			tm:       mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "../../msg", Rand: fixedRand},
			want:     []*runtimeapi.Mount{plainCRI, {HostPath: ctrDir + "/0000ab12", ContainerPath: "/msg"}},
			wantMode: 0o666,
		},
		{
			name:     "a pod container directory that is not clean names a clean file",
			tm:       mounts.TerminationMessage{PodContainerDir: "/pod//containers/./ctr/", Path: "/dev/termination-log", Rand: fixedRand},
			want:     []*runtimeapi.Mount{plainCRI, {HostPath: ctrDir + "/0000ab12", ContainerPath: "/dev/termination-log"}},
			wantMode: 0o666,
		},
		{
			name: "no termination message path means no file",
			tm:   mounts.TerminationMessage{PodContainerDir: ctrDir, Rand: fixedRand},
			want: []*runtimeapi.Mount{plainCRI},
		},
		{
			name: "no pod container dir means no file",
			tm:   mounts.TerminationMessage{Path: "/dev/termination-log", Rand: fixedRand},
			want: []*runtimeapi.Mount{plainCRI},
		},
		{
			name:         "termination file that cannot be created is a warning and no mount",
			tm:           mounts.TerminationMessage{PodContainerDir: "/missing", Path: "/dev/termination-log", Rand: fixedRand},
			want:         []*runtimeapi.Mount{plainCRI},
			wantWarnings: []string{`error on creating termination-log file "/missing/0000ab12": open /missing/0000ab12: no such file or directory`},
		},
		{
			name: "termination file that cannot be chmodded is a warning and keeps its mount",
			tm: mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "/dev/termination-log", Rand: fixedRand,
				Files: failingFiles{chmod: errors.New("read-only file system")}},
			want:         []*runtimeapi.Mount{plainCRI, {HostPath: ctrDir + "/0000ab12", ContainerPath: "/dev/termination-log"}},
			wantWarnings: []string{`unable to set termination-log file permissions "/pod/containers/ctr/0000ab12": read-only file system`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mem := hostfs.NewMemory()
			require.NoError(t, mem.MkdirAll(ctrDir, 0o750))
			if tc.tm.Files == nil {
				tc.tm.Files = mem
			}
			got, warnings := mounts.MakeCRIMounts(plain, tc.tm, tc.selinux)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantWarnings, warnings)
			// MakeTerminationMessageMount alone gives the same mount and warnings.
			tm, tmWarnings := mounts.MakeTerminationMessageMount(tc.tm, tc.selinux)
			if len(tc.want) > len(plain) {
				assert.Equal(t, tc.want[len(plain)], tm)
			} else {
				assert.Nil(t, tm)
			}
			assert.Equal(t, tc.wantWarnings, tmWarnings)
			if tc.wantMode != 0 {
				fi, err := mem.Stat(got[len(got)-1].HostPath)
				require.NoError(t, err)
				assert.Equal(t, tc.wantMode, fi.Mode().Perm())
			}
		})
	}

	t.Run("termination file without a FileCreator is a warning", func(t *testing.T) {
		got, warnings := mounts.MakeCRIMounts(nil, mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "/t"}, false)
		assert.Empty(t, got)
		assert.Equal(t, []string{`error on creating termination-log file in "/pod/containers/ctr": no FileCreator`}, warnings)
	})
	t.Run("default random source names the file with 8 lowercase hex digits", func(t *testing.T) {
		mem := hostfs.NewMemory()
		require.NoError(t, mem.MkdirAll(ctrDir, 0o750))
		m, warnings := mounts.MakeTerminationMessageMount(mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "/t", Files: mem}, false)
		require.Empty(t, warnings)
		assert.Regexp(t, `^/pod/containers/ctr/[0-9a-f]{8}$`, m.HostPath)
	})
}

func TestDockerBindStrings(t *testing.T) {
	cases := []struct {
		name         string
		in           []*runtimeapi.Mount
		want         []string
		wantWarnings []string
	}{
		{
			name: "plain private mount has no options",
			in:   []*runtimeapi.Mount{{HostPath: "/h", ContainerPath: "/c"}},
			want: []string{"/h:/c"},
		},
		{
			name: "options come in the order ro, Z, propagation",
			in: []*runtimeapi.Mount{
				{HostPath: "/h1", ContainerPath: "/c1", Readonly: true, SelinuxRelabel: true, Propagation: bidi},
				{HostPath: "/h2", ContainerPath: "/c2", Readonly: true},
				{HostPath: "/h3", ContainerPath: "/c3", SelinuxRelabel: true},
				{HostPath: "/h4", ContainerPath: "/c4", Propagation: hostToCtr},
				{HostPath: "/h5", ContainerPath: "/c5", Readonly: true, Propagation: hostToCtr},
			},
			want: []string{"/h1:/c1:ro,Z,rshared", "/h2:/c2:ro", "/h3:/c3:Z", "/h4:/c4:rslave", "/h5:/c5:ro,rslave"},
		},
		{
			name:         "unknown propagation falls back to private with a warning",
			in:           []*runtimeapi.Mount{{HostPath: "/h", ContainerPath: "/c", Readonly: true, Propagation: 42}},
			want:         []string{"/h:/c:ro"},
			wantWarnings: []string{`unknown propagation mode for hostPath "/h"`},
		},
		{
			name: "a path with a colon cannot inject options and is skipped",
			in: []*runtimeapi.Mount{
				{HostPath: "/h", ContainerPath: "/c:rshared"},
				{HostPath: "/ok", ContainerPath: "/ok"},
			},
			want:         []string{"/ok:/ok"},
			wantWarnings: []string{`mount 0 from "/h" to "/c:rshared" has a path with ':' or NUL, which a bind string cannot hold; skipped`},
		},
		{
			name:         "image and nil mounts are skipped",
			in:           []*runtimeapi.Mount{nil, {ContainerPath: "/img", Image: &runtimeapi.ImageSpec{Image: "img"}}},
			want:         []string{},
			wantWarnings: []string{"mount 0 is nil; skipped", `mount 1 at "/img" has no host path (image volume?); Docker cannot bind it; skipped`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, warnings := mounts.DockerBindStrings(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantWarnings, warnings)
		})
	}
}

// Whatever the number of mounts, MakeCRIMounts gives ToCRIMounts' mounts followed by the
// termination message's, each message its own.
func TestMakeCRIMountsAnyCount(t *testing.T) {
	const ctrDir = "/pod/containers/ctr"
	for n := 0; n <= 14; n++ {
		ms := make([]mounts.Mount, n)
		for i := range ms {
			ms[i] = mounts.Mount{Name: "v", HostPath: "/h/" + strconv.Itoa(i), ContainerPath: "/c/" + strconv.Itoa(i), ReadOnly: i%2 == 0, SELinuxRelabel: true}
		}
		mem := hostfs.NewMemory()
		require.NoError(t, mem.MkdirAll(ctrDir, 0o750))
		tm := mounts.TerminationMessage{PodContainerDir: ctrDir, Path: "/dev/termination-log", Files: mem, Rand: fixedRand}
		got, warnings := mounts.MakeCRIMounts(ms, tm, true)
		require.Empty(t, warnings)
		tmMount, _ := mounts.MakeTerminationMessageMount(tm, true)
		assert.Equal(t, append(mounts.ToCRIMounts(ms, true), tmMount), got, "%d mounts", n)
		for i := range got {
			for j := range i {
				assert.NotSame(t, got[i], got[j], "%d mounts: each message is its own", n)
			}
		}
	}
}
