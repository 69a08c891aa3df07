package node

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/defaults"
)

func TestFollowerParsesTheCRILogFormat(t *testing.T) {
	var out strings.Builder
	f := &follower{prefix: "ns/pod/c", out: &out, outMu: new(sync.Mutex)}
	f.consume([]byte("2026-01-01T00:00:00.000000000Z stdout F hello world\n2026-01-01T00:00:00Z stderr P par"))
	f.consume([]byte("t\n2026-01-01T00:00:00Z stderr F ial\n2026-01-01T00:00:00Z stdout F \nshort\n"))
	assert.Equal(t, "hello world\npartial\n\n", f.tailString())
	assert.Equal(t, "[ns/pod/c] hello world\n[ns/pod/c] partial\n[ns/pod/c] \n", out.String())
}

func TestApplyDefaults(t *testing.T) {
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "img"}}}}
	again := pod.DeepCopy()
	applyDefaults(pod, "node-1")
	applyDefaults(again, "node-1")
	assert.Equal(t, "default", pod.Namespace)
	assert.Equal(t, "node-1", pod.Spec.NodeName)
	assert.Equal(t, defaults.RenderUID("default", "web"), pod.UID, "a pod without a UID gets the one podconfig render gives it")
	assert.Equal(t, pod.UID, again.UID, "the same pod has the same UID")
	other := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "given"}}
	applyDefaults(other, "node-2")
	assert.Equal(t, "given", string(other.UID), "a pod's own UID is kept")
	assert.Equal(t, v1.PullAlways, pod.Spec.Containers[0].ImagePullPolicy, "the API server's defaults apply")
	assert.Equal(t, "/dev/termination-log", pod.Spec.Containers[0].TerminationMessagePath)
}

// A container's log lines go to Out behind "[namespace/pod/container]": the names come from an
// unchecked manifest and must not put control characters on the terminal.
func TestLogLinePrefixIsEscaped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "0.log")
	require.NoError(t, os.WriteFile(path, []byte("2026-01-01T00:00:00Z stdout F hello\n"), 0o600))
	var out strings.Builder
	n := &Node{cfg: Config{Out: &out}}
	n.follow(path, "default/web\x1b]0;owned\a/c\r").Stop()
	assert.Equal(t, "[default/web\\x1b]0;owned\\a/c\\r] hello\n", out.String())
}
