package configgen_test

import (
	"context"
	"io/fs"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
	"github.com/podconfig/podconfig/hostfs/hostfstest"
)

// Two containers of a new pod are created at once. The first makes the pod's data directories,
// then fails on its log directory and takes them back. The second must not find those
// directories in between and go on without them: it waits, and then has its pod's volumes and
// plugins directories and its etc-hosts file.
func TestConcurrentCallsKeepThePodDirectoriesTheSucceedingOneNeeds(t *testing.T) {
	node := configgentest.NewNode()
	reachedBad, releaseBad := make(chan struct{}), make(chan struct{})
	reachedGood, releaseGood := make(chan struct{}), make(chan struct{})
	var badOnce, goodOnce sync.Once
	node.Options.Files = hostfstest.Wrap(node.Files, hostfstest.Funcs{
		MkdirAll: func(fsys hostfstest.FS, p string, perm fs.FileMode) error {
			if strings.Contains(p, "/containers/") {
				return fsys.MkdirAll(p, perm)
			}
			switch path.Base(p) {
			case "bad":
				// The failing container's log directory: its pod directories are made by now.
				badOnce.Do(func() { close(reachedBad) })
				<-releaseBad
				return fs.ErrPermission
			case "good":
				// The other container's log directory: it has found or made the pod's directories.
				goodOnce.Do(func() { close(reachedGood) })
				<-releaseGood
			}
			return fsys.MkdirAll(p, perm)
		},
	})
	gen, err := node.Generator()
	require.NoError(t, err)
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "race-uid"},
		Spec: v1.PodSpec{EnableServiceLinks: ptr.To(false), Containers: []v1.Container{
			{Name: "bad", Image: "img"}, {Name: "good", Image: "img"},
		}},
	}
	ctx := context.Background()
	generate := func(i int, result chan<- error) {
		_, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[i],
			PodIPs: []string{"10.244.0.5"}, ImageRef: "sha256:1f2e"})
		if err == nil {
		}
		result <- err
	}

	badErr, goodErr := make(chan error, 1), make(chan error, 1)
	go generate(0, badErr)
	<-reachedBad
	go generate(1, goodErr)
	// Without the pod's lock the good call gets as far as its log directory while the bad
	// one still holds directories it will take back; with it, it waits for the bad call.
	select {
	case <-reachedGood:
	case <-time.After(200 * time.Millisecond):
	}
	close(releaseBad)
	require.ErrorContains(t, <-badErr, "create container log directory for container bad failed")
	close(releaseGood)
	require.NoError(t, <-goodErr)

	podDir, err := gen.PodDir(pod)
	require.NoError(t, err)
	for _, p := range []string{podDir + "/volumes", podDir + "/plugins", podDir + "/etc-hosts"} {
		_, err := node.Files.Lstat(p)
		assert.NoError(t, err, "%s must be there for the container that was created", p)
	}
}
