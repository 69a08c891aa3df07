package node

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestRunPodRefusesWhatTheAPIServerRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		pod  *v1.Pod
		err  string
	}{
		{"a pod without containers", &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}},
			`Pod "p" is invalid: spec.containers: Required value`},
		{"a container without an image", &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"},
			Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c"}}}},
			`Pod "p" is invalid: spec.containers[0].image: Required value`},
		{"a memory request above its limit", &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"},
			Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "busybox", Resources: v1.ResourceRequirements{
				Requests: v1.ResourceList{v1.ResourceMemory: resource.MustParse("2Gi")},
				Limits:   v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Gi")},
			}}}}},
			`Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi`},
		{"a pod without a service account's token projection is given the default account, as admission names it, not refused",
			&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: v1.PodSpec{
				Containers: []v1.Container{{Name: "c"}},
				Volumes: []v1.Volume{{Name: "t", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{Sources: []v1.VolumeProjection{
					{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token"}}}}}}}}},
			`Pod "p" is invalid: spec.containers[0].image: Required value`},
		{"a namespace that would add a line to resolv.conf", &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "x\nnameserver 6.6.6.6"},
			Spec: v1.PodSpec{Containers: []v1.Container{{Name: "c", Image: "busybox"}}}},
			`Pod "p" is invalid: metadata.namespace: Invalid value: "x\nnameserver 6.6.6.6": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := &callCounter{}
			n := &Node{cfg: Config{Runtime: rt, NodeName: "n"}}
			_, err := n.RunPod(context.Background(), tc.pod)
			require.EqualError(t, err, tc.err)
			assert.Zero(t, rt.calls, "refused before any runtime call")
		})
	}
}
