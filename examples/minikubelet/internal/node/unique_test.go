package node

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/manifest"
)

func TestLoadRefusesTwoPodsWithOneUIDOrName(t *testing.T) {
	// Finding: the same Pod twice, or a Pod naming another's UID, ran as two pods sharing one pod
	// directory: the second rewrote the first's etc-hosts and its teardown removed the first's
	// sandbox and volumes.
	pod := func(name, uid string) string {
		s := "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n"
		if uid != "" {
			s += "  uid: " + uid + "\n"
		}
		return s + "spec:\n  containers:\n  - name: c\n    image: busybox\n"
	}
	for _, tc := range []struct {
		name, input, err string
	}{
		{"the same pod twice", pod("web", "") + "---\n" + pod("web", ""),
			"pods.yaml: document 1 (Pod web) and pods.yaml: document 2 (Pod web): two pods named default/web"},
		{"a pod naming another's UID", pod("victim", "u-1111") + "---\n" + pod("attacker", "u-1111"),
			"pods.yaml: document 1 (Pod victim) and pods.yaml: document 2 (Pod attacker): two pods with UID u-1111"},
		{"one name in the default namespace, spelled two ways", pod("web", "") + "---\n" + strings.Replace(pod("web", ""), "  name: web\n", "  name: web\n  namespace: default\n", 1),
			"two pods named default/web"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(manifest.Options{NodeName: "n"}, manifest.Input{Name: "pods.yaml", Reader: strings.NewReader(tc.input)})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
	in, err := Load(manifest.Options{NodeName: "n"}, manifest.Input{Name: "pods.yaml", Reader: strings.NewReader(pod("a", "u-1") + "---\n" + pod("b", "u-2"))})
	require.NoError(t, err)
	assert.Len(t, in.Pods, 2)
}

// callCounter is a CRI runtime that counts the calls made to it and fails each.
type callCounter struct {
	runtimeapi.RuntimeServiceClient
	mu    sync.Mutex
	calls int
}

func (c *callCounter) count() {
	c.mu.Lock()
	c.calls++
	c.mu.Unlock()
}

func (c *callCounter) ListPodSandbox(context.Context, *runtimeapi.ListPodSandboxRequest, ...grpc.CallOption) (*runtimeapi.ListPodSandboxResponse, error) {
	c.count()
	return &runtimeapi.ListPodSandboxResponse{}, nil
}

func (c *callCounter) StopPodSandbox(context.Context, *runtimeapi.StopPodSandboxRequest, ...grpc.CallOption) (*runtimeapi.StopPodSandboxResponse, error) {
	c.count()
	return &runtimeapi.StopPodSandboxResponse{}, nil
}

func (c *callCounter) RemovePodSandbox(context.Context, *runtimeapi.RemovePodSandboxRequest, ...grpc.CallOption) (*runtimeapi.RemovePodSandboxResponse, error) {
	c.count()
	return &runtimeapi.RemovePodSandboxResponse{}, nil
}

func TestRunPodRefusesAPodAlreadyRunning(t *testing.T) {
	// A library user calling RunPod twice with one UID (or one namespace/name) must not get a
	// second run whose teardown stops the first pod's sandbox and removes its directories.
	rt := &callCounter{}
	n := &Node{cfg: Config{Runtime: rt, NodeName: "n"}}
	victim := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "victim", Namespace: "default", UID: "1111"}}
	release, err := n.claim(victim)
	require.NoError(t, err)
	// Valid pods, so that the node's own refusal is what is tested, not the API server's rules.
	oneContainer := v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "busybox"}}}
	for _, tc := range []struct {
		name string
		pod  *v1.Pod
		err  string
	}{
		{"another pod with the running pod's UID", &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "attacker", UID: "1111"}, Spec: oneContainer},
			"pod default/attacker: a pod with UID 1111 is already running on this node"},
		{"the running pod again under another UID", &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "victim", UID: "2222"}, Spec: oneContainer},
			"pod default/victim is already running on this node"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := n.RunPod(context.Background(), tc.pod)
			require.EqualError(t, err, tc.err)
			assert.Zero(t, rt.calls, "no runtime call: nothing of the running pod's is torn down")
		})
	}
	release()
	again, err := n.claim(victim)
	require.NoError(t, err, "a pod can run again once it is torn down")
	again()
}
