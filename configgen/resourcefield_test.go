package configgen_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/features"
)

func TestResourceFieldRef(t *testing.T) {
	allocatable := v1.ResourceList{
		v1.ResourceCPU:              resource.MustParse("4"),
		v1.ResourceMemory:           resource.MustParse("8Gi"),
		v1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
		"hugepages-2Mi":             resource.MustParse("1Gi"),
	}
	node := staticNode(&v1.Node{Status: v1.NodeStatus{Allocatable: allocatable}})
	sidecar := v1.Container{Name: "sidecar", Resources: v1.ResourceRequirements{
		Requests: v1.ResourceList{v1.ResourceMemory: resource.MustParse("10Mi")},
	}}
	initC := v1.Container{Name: "init", Resources: v1.ResourceRequirements{
		Limits: v1.ResourceList{v1.ResourceMemory: resource.MustParse("20Mi")},
	}}
	podLimits := &v1.ResourceRequirements{Limits: v1.ResourceList{
		v1.ResourceCPU:              resource.MustParse("2"),
		v1.ResourceMemory:           resource.MustParse("0"),
		v1.ResourceEphemeralStorage: resource.MustParse("1Gi"),
	}}

	tests := []struct {
		name              string
		env               v1.EnvVar
		mutate            func(p *v1.Pod)
		node              configgen.NodeGetter
		noNode            bool
		podLevelResources bool
		want              string
		wantErr           string
		wantIs            []error
	}{
		{name: "cpu limit in cores is rounded up", env: resourceEnv("V", "", "limits.cpu", ""), want: "2"},
		{name: "cpu limit with a millicore divisor", env: resourceEnv("V", "", "limits.cpu", "1m"), want: "1500"},
		{name: "cpu request", env: resourceEnv("V", "", "requests.cpu", "1m"), want: "250"},
		{name: "cpu request in cores is rounded up", env: resourceEnv("V", "", "requests.cpu", ""), want: "1"},
		{name: "zero divisor counts as 1", env: resourceEnv("V", "", "limits.memory", "0"), want: "134217728"},
		{name: "memory limit with a Mi divisor", env: resourceEnv("V", "", "limits.memory", "1Mi"), want: "128"},
		{name: "memory request rounded up", env: resourceEnv("V", "", "requests.memory", "1Gi"), want: "1"},
		{name: "missing ephemeral-storage limit defaults to allocatable", env: resourceEnv("V", "", "limits.ephemeral-storage", "1Gi"), want: "100"},
		{name: "missing request is not defaulted", env: resourceEnv("V", "", "requests.ephemeral-storage", ""), want: "0"},
		{
			name: "missing limit defaults to allocatable", env: resourceEnv("V", "", "limits.cpu", ""),
			mutate: func(p *v1.Pod) { delete(p.Spec.Containers[0].Resources.Limits, v1.ResourceCPU) }, want: "4",
		},
		{
			name: "zero limit defaults to allocatable", env: resourceEnv("V", "", "limits.memory", "1Gi"),
			mutate: func(p *v1.Pod) { p.Spec.Containers[0].Resources.Limits[v1.ResourceMemory] = resource.MustParse("0") }, want: "8",
		},
		{
			name: "hugepages limit is read", env: resourceEnv("V", "", "limits.hugepages-2Mi", "1Mi"),
			mutate: func(p *v1.Pod) { p.Spec.Containers[0].Resources.Limits["hugepages-2Mi"] = resource.MustParse("4Mi") }, want: "4",
		},
		{name: "hugepages limit is never defaulted", env: resourceEnv("V", "", "limits.hugepages-2Mi", ""), want: "0"},
		{
			name: "hugepages request is read", env: resourceEnv("V", "", "requests.hugepages-1Gi", "1Gi"),
			mutate: func(p *v1.Pod) {
				p.Spec.Containers[0].Resources.Requests["hugepages-1Gi"] = resource.MustParse("2Gi")
			}, want: "2",
		},
		{name: "no node getter means no defaulting", env: resourceEnv("V", "", "limits.ephemeral-storage", ""), noNode: true, want: "0"},
		{
			name: "pod-level limit replaces allocatable with PodLevelResources", env: resourceEnv("V", "", "limits.cpu", ""), podLevelResources: true,
			mutate: func(p *v1.Pod) {
				p.Spec.Resources = podLimits
				delete(p.Spec.Containers[0].Resources.Limits, v1.ResourceCPU)
			}, want: "2",
		},
		{
			name: "pod-level limit is ignored with PodLevelResources off", env: resourceEnv("V", "", "limits.cpu", ""),
			mutate: func(p *v1.Pod) {
				p.Spec.Resources = podLimits
				delete(p.Spec.Containers[0].Resources.Limits, v1.ResourceCPU)
			}, want: "4",
		},
		{
			name: "zero pod-level limit does not replace allocatable", env: resourceEnv("V", "", "limits.memory", "1Gi"), podLevelResources: true,
			mutate: func(p *v1.Pod) {
				p.Spec.Resources = podLimits
				delete(p.Spec.Containers[0].Resources.Limits, v1.ResourceMemory)
			}, want: "8",
		},
		{
			name: "pod-level ephemeral-storage limit is not a pod-level resource", env: resourceEnv("V", "", "limits.ephemeral-storage", "1Gi"), podLevelResources: true,
			mutate: func(p *v1.Pod) { p.Spec.Resources = podLimits }, want: "100",
		},
		{
			name: "pod-level limit does not apply when the node lacks the resource", env: resourceEnv("V", "", "limits.cpu", ""), podLevelResources: true,
			node: staticNode(&v1.Node{}),
			mutate: func(p *v1.Pod) {
				p.Spec.Resources = podLimits
				delete(p.Spec.Containers[0].Resources.Limits, v1.ResourceCPU)
			}, want: "0",
		},
		{
			name: "container limit wins over the pod-level limit", env: resourceEnv("V", "", "limits.cpu", "1m"), podLevelResources: true,
			mutate: func(p *v1.Pod) { p.Spec.Resources = podLimits }, want: "1500",
		},
		{name: "named container is read with its limits defaulted", env: resourceEnv("V", "sidecar", "limits.memory", "1Gi"), want: "8"},
		{name: "named container's request", env: resourceEnv("V", "sidecar", "requests.memory", "1Mi"), want: "10"},
		{name: "named init container is read without defaulting", env: resourceEnv("V", "init", "limits.cpu", ""), want: "0"},
		{name: "named init container's limit", env: resourceEnv("V", "init", "limits.memory", "1Mi"), want: "20"},
		{name: "unknown container name", env: resourceEnv("V", "ghost", "limits.cpu", ""), wantErr: "container ghost not found", wantIs: []error{configgen.ErrFieldRef}},
		{name: "unsupported resource", env: resourceEnv("V", "", "limits.nvidia.com/gpu", ""), wantErr: "unsupported container resource : limits.nvidia.com/gpu", wantIs: []error{configgen.ErrFieldRef}},
		{name: "resource without limits or requests", env: resourceEnv("V", "", "cpu", ""), wantErr: "unsupported container resource : cpu"},
		{
			name: "node error fails before anything else", env: resourceEnv("V", "ghost", "limits.bogus", ""),
			node:    configgen.NodeGetterFunc(func(context.Context) (*v1.Node, error) { return nil, errBoom }),
			wantErr: "failed to find node object, expected a node", wantIs: []error{configgen.ErrNode, errBoom},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(tc.env)
			pod.Spec.Containers = append(pod.Spec.Containers, sidecar)
			pod.Spec.InitContainers = []v1.Container{initC}
			if tc.mutate != nil {
				tc.mutate(pod)
			}
			in := envInput(pod)
			in.FeatureGates = gates(func(g *features.Gates) { g.PodLevelResources = tc.podLevelResources })
			switch {
			case tc.noNode:
				in.Node = nil
			case tc.node != nil:
				in.Node = tc.node
			default:
				in.Node = node
			}
			got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				for _, target := range tc.wantIs {
					assert.ErrorIs(t, err, target)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, vars("V", tc.want), got)
		})
	}
}

func TestResourceFieldRefDoesNotModifyThePod(t *testing.T) {
	pod := testPod(resourceEnv("V", "", "limits.ephemeral-storage", ""), resourceEnv("W", "app", "limits.ephemeral-storage", ""))
	before := pod.DeepCopy()
	in := envInput(pod)
	in.Node = staticNode(&v1.Node{Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourceEphemeralStorage: resource.MustParse("1")}}})
	got, _, err := configgen.MakeEnvironmentVariables(context.Background(), in)
	require.NoError(t, err)
	assert.Equal(t, vars("V", "1", "W", "1"), got)
	assert.Equal(t, before, pod)
}
