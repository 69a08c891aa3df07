package configgen

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/dump"
	"k8s.io/utils/ptr"
)

func TestHashContainer(t *testing.T) {
	tests := []struct {
		name      string
		container v1.Container
		want      uint64
	}{
		{"kubelet's own test vector: only name and image count", v1.Container{
			Name: "test_container", Image: "foo/image:v1", Args: []string{"/bin/sh", "-c", "echo abc"},
			Ports: []v1.ContainerPort{{ContainerPort: 8001}},
		}, 0x8e45cbd0},
		{"same name and image give the same hash whatever else changes", v1.Container{
			Name: "test_container", Image: "foo/image:v1",
		}, 0x8e45cbd0},
		{"web container", v1.Container{Name: "web", Image: "registry.example/web:1.2.3"}, 0x728ba433},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, HashContainer(&tt.container))
		})
	}
}

// HashContainer's rendering must equal what kubelet hashes: the spew dump of the JSON bytes.
func TestHashContainerMatchesDumpForHash(t *testing.T) {
	for _, c := range []v1.Container{
		{}, {Name: "a"}, {Name: "web", Image: "nginx@sha256:0123"}, {Name: "ü", Image: "<&>\u2028"},
		{Name: printableASCII(), Image: "\x00\x01\t\n\x7f\xff"},
		{Name: "long", Image: "registry.example/" + strings.Repeat("a/", 200) + "web@sha256:" + strings.Repeat("0123456789abcdef", 4)},
	} {
		b, err := json.Marshal(map[string]string{"name": c.Name, "image": c.Image})
		require.NoError(t, err)
		h := fnv.New32a()
		_, _ = fmt.Fprintf(h, "%v", dump.ForHash(b))
		assert.Equal(t, uint64(h.Sum32()), HashContainer(&c), "container %+v", c)
	}
}

// printableASCII is every byte from ' ' to '~', so every decimal width of the hash's rendering
// and every escaped character occur.
func printableASCII() string {
	var b strings.Builder
	for c := byte(' '); c <= '~'; c++ {
		b.WriteByte(c)
	}
	return b.String()
}

func TestContainerLabelsAndAnnotations(t *testing.T) {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1", Labels: map[string]string{"app": "x"}},
	}
	c := &v1.Container{Name: "c", Image: "i"}

	t.Run("container labels are exactly the four kubelet keys; pod labels are not copied", func(t *testing.T) {
		assert.Equal(t, map[string]string{
			LabelPodName: "p", LabelPodNamespace: "ns", LabelPodUID: "u1", LabelContainerName: "c",
		}, containerLabels(pod, c))
	})
	t.Run("pod labels are the pod's labels with the three pod keys on top", func(t *testing.T) {
		p := pod.DeepCopy()
		p.Labels[LabelPodName] = "spoofed"
		assert.Equal(t, map[string]string{
			"app": "x", LabelPodName: "p", LabelPodNamespace: "ns", LabelPodUID: "u1",
		}, podLabels(p))
	})
	t.Run("pod labels of every size are copied, never shared with the pod", func(t *testing.T) {
		for n := 0; n <= 12; n++ {
			p := pod.DeepCopy()
			p.Labels = map[string]string{}
			want := map[string]string{LabelPodName: "p", LabelPodNamespace: "ns", LabelPodUID: "u1"}
			for i := 0; i < n; i++ {
				k := fmt.Sprintf("label-%d", i)
				p.Labels[k], want[k] = k, k
			}
			got := podLabels(p)
			assert.Equal(t, want, got, "%d labels", n)
			got["label-0"] = "changed"
			assert.Len(t, p.Labels, n, "%d labels", n)
			assert.NotEqual(t, "changed", p.Labels["label-0"], "%d labels", n)
		}
	})
	t.Run("pod annotations: nil stays nil, others are copied", func(t *testing.T) {
		assert.Nil(t, podAnnotations(pod))
		p := pod.DeepCopy()
		p.Annotations = map[string]string{"a": "b"}
		got := podAnnotations(p)
		assert.Equal(t, map[string]string{"a": "b"}, got)
		got["a"] = "changed"
		assert.Equal(t, "b", p.Annotations["a"])
	})

	tests := []struct {
		name         string
		pod          func(*v1.Pod)
		container    func(*v1.Container)
		restartCount int
		extra        map[string]string
		want         map[string]string
	}{
		{
			name: "minimal container: hash, restart count and empty termination keys are always present",
			want: map[string]string{
				AnnotationContainerHash: "f434d456", AnnotationContainerRestartCount: "0",
				AnnotationContainerTerminationMessagePath: "", AnnotationContainerTerminationMessagePolicy: "",
			},
		},
		{
			name:         "grace periods, preStop and ports are added; kubelet keys overwrite device-plugin annotations",
			restartCount: 3,
			extra:        map[string]string{"dp": "1", AnnotationContainerRestartCount: "99"},
			pod: func(p *v1.Pod) {
				p.DeletionGracePeriodSeconds = ptr.To[int64](5)
				p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](30)
			},
			container: func(c *v1.Container) {
				c.TerminationMessagePath = "/dev/termination-log"
				c.TerminationMessagePolicy = v1.TerminationMessageReadFile
				c.Lifecycle = &v1.Lifecycle{PreStop: &v1.LifecycleHandler{Exec: &v1.ExecAction{Command: []string{"sleep", "1"}}}}
				c.Ports = []v1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: v1.ProtocolTCP}}
			},
			want: map[string]string{
				"dp": "1", AnnotationContainerHash: "f434d456", AnnotationContainerRestartCount: "3",
				AnnotationContainerTerminationMessagePath:   "/dev/termination-log",
				AnnotationContainerTerminationMessagePolicy: "File",
				AnnotationPodDeletionGracePeriod:            "5",
				AnnotationPodTerminationGracePeriod:         "30",
				AnnotationContainerPreStopHandler:           `{"exec":{"command":["sleep","1"]}}`,
				AnnotationContainerPorts:                    `[{"name":"http","containerPort":80,"protocol":"TCP"}]`,
			},
		},
		{
			name:         "large restart counts and grace periods; an HTTP preStop handler",
			restartCount: 1234567,
			pod: func(p *v1.Pod) {
				p.DeletionGracePeriodSeconds = ptr.To[int64](-100)
				p.Spec.TerminationGracePeriodSeconds = ptr.To[int64](3600)
			},
			container: func(c *v1.Container) {
				c.Lifecycle = &v1.Lifecycle{PreStop: &v1.LifecycleHandler{HTTPGet: &v1.HTTPGetAction{Path: "/quit", Port: intstr.FromString("http")}}}
			},
			want: map[string]string{
				AnnotationContainerHash: "f434d456", AnnotationContainerRestartCount: "1234567",
				AnnotationContainerTerminationMessagePath: "", AnnotationContainerTerminationMessagePolicy: "",
				AnnotationPodDeletionGracePeriod:    "-100",
				AnnotationPodTerminationGracePeriod: "3600",
				AnnotationContainerPreStopHandler:   `{"httpGet":{"path":"/quit","port":"http"}}`,
			},
		},
		{
			name: "an empty preStop handler is an empty object",
			container: func(c *v1.Container) {
				c.Lifecycle = &v1.Lifecycle{PreStop: &v1.LifecycleHandler{}}
			},
			want: map[string]string{
				AnnotationContainerHash: "f434d456", AnnotationContainerRestartCount: "0",
				AnnotationContainerTerminationMessagePath: "", AnnotationContainerTerminationMessagePolicy: "",
				AnnotationContainerPreStopHandler: `{}`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, cc := pod.DeepCopy(), c.DeepCopy()
			if tt.pod != nil {
				tt.pod(p)
			}
			if tt.container != nil {
				tt.container(cc)
			}
			got, warnings := containerAnnotations(p, cc, tt.restartCount, tt.extra)
			assert.Empty(t, warnings)
			assert.Equal(t, tt.want, got)
		})
	}
}

// A preStop handler json.Marshal refuses is left out with kubelet's message and encoding/json's
// error; the other annotations are still set.
func TestContainerAnnotationsPreStopNotEncoded(t *testing.T) {
	handler := &v1.LifecycleHandler{TCPSocket: &v1.TCPSocketAction{Port: intstr.IntOrString{Type: 9}}}
	_, marshalErr := json.Marshal(handler)
	require.Error(t, marshalErr)
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", UID: "u1"}}
	c := &v1.Container{Name: "c", Image: "i", Lifecycle: &v1.Lifecycle{PreStop: handler},
		Ports: []v1.ContainerPort{{ContainerPort: 80}}}
	got, warnings := containerAnnotations(pod, c, 2, nil)
	assert.Equal(t, []Warning{{Reason: ReasonAnnotationNotEncoded, Container: "c",
		Message: "unable to marshal lifecycle PreStop handler for container c: " + marshalErr.Error()}}, warnings)
	assert.Equal(t, map[string]string{
		AnnotationContainerHash: "f434d456", AnnotationContainerRestartCount: "2",
		AnnotationContainerTerminationMessagePath: "", AnnotationContainerTerminationMessagePolicy: "",
		AnnotationContainerPorts: `[{"containerPort":80}]`,
	}, got)
}
