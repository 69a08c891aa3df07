package logs_test

import (
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"

	"github.com/podconfig/podconfig/logs"
)

func TestBuildContainerLogsPath(t *testing.T) {
	tests := []struct {
		name      string
		container string
		restarts  int
		want      string
	}{
		{name: "the first run logs to 0.log under the container name", container: "web", restarts: 0, want: "web/0.log"},
		{name: "the restart count names the file", container: "web", restarts: 12, want: "web/12.log"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, logs.BuildContainerLogsPath(tt.container, tt.restarts))
		})
	}
}

func TestBuildLogsDirectories(t *testing.T) {
	tests := []struct {
		name                         string
		dir, ns, pod, uid, container string
		wantPod, wantContainer       string
	}{
		{
			name: "namespace, name and UID are joined with underscores",
			dir:  "/var/log/pods", ns: "shop", pod: "web-0", uid: "8d6f-11", container: "app",
			wantPod: "/var/log/pods/shop_web-0_8d6f-11", wantContainer: "/var/log/pods/shop_web-0_8d6f-11/app",
		},
		{
			name: "underscores inside names are not escaped",
			dir:  "/logs", ns: "a_b", pod: "c_d", uid: "u", container: "x",
			wantPod: "/logs/a_b_c_d_u", wantContainer: "/logs/a_b_c_d_u/x",
		},
		{
			name: "the result is cleaned by filepath.Join",
			dir:  "/var/log//pods/", ns: "ns", pod: "p", uid: "u", container: "c",
			wantPod: "/var/log/pods/ns_p_u", wantContainer: "/var/log/pods/ns_p_u/c",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.wantPod, logs.BuildPodLogsDirectory(tt.dir, tt.ns, tt.pod, types.UID(tt.uid)))
			assert.Equal(t, tt.wantContainer, logs.BuildContainerLogsDirectory(tt.dir, tt.ns, tt.pod, types.UID(tt.uid), tt.container))
		})
	}
}

func TestParsePodUIDFromLogsDirectory(t *testing.T) {
	tests := []struct {
		name, dir string
		want      types.UID
	}{
		{name: "the UID is the last underscore-separated element", dir: "shop_web-0_8d6f-11", want: "8d6f-11"},
		{name: "underscores in names do not confuse it", dir: "a_b_c_d_u", want: "u"},
		{name: "a name without underscores is returned whole", dir: "plain", want: "plain"},
		{name: "a trailing underscore gives an empty UID", dir: "ns_name_", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, logs.ParsePodUIDFromLogsDirectory(tt.dir))
		})
	}
}

func TestValidateLogPathNames(t *testing.T) {
	tests := []struct {
		name, ns, pod, uid, container string
		wantErr                       string
	}{
		{name: "ordinary names are fine", ns: "shop", pod: "web-0", uid: "8d6f", container: "app"},
		{name: "a namespace with a slash is rejected", ns: "../../etc", pod: "p", uid: "u", container: "c",
			wantErr: `invalid pod log directory name "../../etc_p_u": must not contain '/'`},
		{name: "a pod name with NUL is rejected", ns: "ns", pod: "p\x00", uid: "u", container: "c",
			wantErr: `invalid pod log directory name "ns_p\x00_u": must not contain a NUL byte`},
		{name: "a UID with a slash is rejected", ns: "ns", pod: "p", uid: "a/b", container: "c",
			wantErr: `invalid pod log directory name "ns_p_a/b": must not contain '/'`},
		{name: "a container name with a slash is rejected", ns: "ns", pod: "p", uid: "u", container: "../x",
			wantErr: `invalid container name "../x": must not contain '/'`},
		{name: "a container name of .. is rejected", ns: "ns", pod: "p", uid: "u", container: "..",
			wantErr: `invalid container name "..": must not be '.' or '..'`},
		{name: "a container name of . is rejected", ns: "ns", pod: "p", uid: "u", container: ".",
			wantErr: `invalid container name ".": must not be '.' or '..'`},
		{name: "an empty container name is rejected", ns: "ns", pod: "p", uid: "u", container: "",
			wantErr: `invalid container name "": must not be empty`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := logs.ValidateLogPathNames(tt.ns, tt.pod, types.UID(tt.uid), tt.container)
			if tt.wantErr == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tt.wantErr)
			require.ErrorIs(t, err, logs.ErrInvalidName)
		})
	}
}

// The paths are kubelet's filepath.Join of the same parts, whatever the parts hold.
func TestLogPathsAreFilepathJoin(t *testing.T) {
	parts := []string{"", ".", "..", "a", "a/..", "/", "/var/log/pods/", "x//y", "../../etc", "c_1"}
	for _, dir := range parts {
		for _, name := range parts {
			for _, ctr := range parts {
				pod := "ns_" + name + "_uid"
				assert.Equal(t, filepath.Join(dir, pod), logs.BuildPodLogsDirectory(dir, "ns", name, "uid"))
				assert.Equal(t, filepath.Join(dir, pod, ctr), logs.BuildContainerLogsDirectory(dir, "ns", name, "uid", ctr))
			}
		}
		assert.Equal(t, filepath.Join(dir, "3.log"), logs.BuildContainerLogsPath(dir, 3))
	}
}

// FuzzLogPathsAreFilepathJoin: whatever the parts, the paths are kubelet's filepath.Join of them.
func FuzzLogPathsAreFilepathJoin(f *testing.F) {
	f.Add("/var/log/pods", "shop", "web-0", "8d6f-11", "app", 3)
	f.Add("/", ".", "..", "", "a/", 0)
	f.Add("logs/./x", "a//b", "c", "../d", "..", 12)
	f.Fuzz(func(t *testing.T, dir, ns, name, uid, ctr string, restarts int) {
		pod := ns + "_" + name + "_" + uid
		if got, want := logs.BuildPodLogsDirectory(dir, ns, name, types.UID(uid)), filepath.Join(dir, pod); got != want {
			t.Fatalf("BuildPodLogsDirectory(%q, %q, %q, %q) = %q, want %q", dir, ns, name, uid, got, want)
		}
		if got, want := logs.BuildContainerLogsDirectory(dir, ns, name, types.UID(uid), ctr), filepath.Join(dir, pod, ctr); got != want {
			t.Fatalf("BuildContainerLogsDirectory(%q, %q, %q, %q, %q) = %q, want %q", dir, ns, name, uid, ctr, got, want)
		}
		if got, want := logs.BuildContainerLogsPath(ctr, restarts), filepath.Join(ctr, strconv.Itoa(restarts)+".log"); got != want {
			t.Fatalf("BuildContainerLogsPath(%q, %d) = %q, want %q", ctr, restarts, got, want)
		}
	})
}
