package configgen_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podconfig/podconfig/configgen"
)

// A resourceFieldRef limit the container does not set comes from the node's allocatable
// resources; with no node known it follows the unknown-IP policy instead of reading as 0.
func TestResourceFieldRefWithoutNode(t *testing.T) {
	links := false
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: v1.PodSpec{EnableServiceLinks: &links, Containers: []v1.Container{{
		Name:      "app",
		Resources: v1.ResourceRequirements{Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("1Ki")}},
		Env: []v1.EnvVar{
			{Name: "MEM", ValueFrom: &v1.EnvVarSource{ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.memory"}}},
			{Name: "CPU", ValueFrom: &v1.EnvVarSource{ResourceFieldRef: &v1.ResourceFieldSelector{Resource: "limits.cpu"}}},
		},
	}}}}
	for _, tc := range []struct {
		name    string
		policy  configgen.UnknownIPPolicy
		cpu     string
		err     bool
		warning string
	}{
		{"UnknownIPsFail: an unset limit is an ErrNode error", configgen.UnknownIPsFail, "", true, ""},
		{"UnknownIPsEmpty: an unset limit is empty with a NodeNotKnown warning", configgen.UnknownIPsEmpty, "", false, configgen.ReasonNodeNotKnown},
		{"UnknownIPsAsKubelet: a node with no allocatable resources, 0", configgen.UnknownIPsAsKubelet, "0", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, warnings, err := configgen.MakeEnvironmentVariables(context.Background(), configgen.EnvInput{
				Pod: pod, Container: &pod.Spec.Containers[0], UnknownIPs: tc.policy,
			})
			if tc.err {
				require.Error(t, err)
				assert.True(t, errors.Is(err, configgen.ErrNode), err.Error())
				assert.Contains(t, err.Error(), "limits.cpu of container app is the node's allocatable cpu, and no node is known")
				return
			}
			require.NoError(t, err)
			got := map[string]string{}
			for _, e := range env {
				got[e.Name] = e.Value
			}
			assert.Equal(t, map[string]string{"MEM": "1024", "CPU": tc.cpu}, got, "a limit the container sets needs no node")
			var reasons []string
			for _, w := range warnings {
				reasons = append(reasons, w.Reason)
			}
			if tc.warning == "" {
				assert.Empty(t, reasons)
			} else {
				assert.Equal(t, []string{tc.warning}, reasons)
			}
		})
	}
}
