package defaults

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// rl builds a resource list from name/quantity pairs.
func rl(pairs ...string) v1.ResourceList {
	list := v1.ResourceList{}
	for i := 0; i+1 < len(pairs); i += 2 {
		list[v1.ResourceName(pairs[i])] = resourceMust(pairs[i+1])
	}
	return list
}

func reqs(requests, limits v1.ResourceList) v1.ResourceRequirements {
	return v1.ResourceRequirements{Requests: requests, Limits: limits}
}

func TestRequestsFromLimits(t *testing.T) {
	tests := []struct {
		name string
		in   v1.ResourceRequirements
		want map[string]v1.ResourceRequirements
	}{
		{"requests default to limits in containers and init containers, not ephemeral ones",
			reqs(nil, rl("cpu", "1", "memory", "1Gi")),
			map[string]v1.ResourceRequirements{
				"init":      reqs(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi")),
				"app":       reqs(rl("cpu", "1", "memory", "1Gi"), rl("cpu", "1", "memory", "1Gi")),
				"ephemeral": reqs(nil, rl("cpu", "1", "memory", "1Gi")),
			}},
		{"a request set is kept and a missing one comes from the limit",
			reqs(rl("cpu", "100m"), rl("cpu", "1", "memory", "1Gi", "hugepages-2Mi", "4Mi")),
			map[string]v1.ResourceRequirements{
				"init":      reqs(rl("cpu", "100m", "memory", "1Gi", "hugepages-2Mi", "4Mi"), rl("cpu", "1", "memory", "1Gi", "hugepages-2Mi", "4Mi")),
				"app":       reqs(rl("cpu", "100m", "memory", "1Gi", "hugepages-2Mi", "4Mi"), rl("cpu", "1", "memory", "1Gi", "hugepages-2Mi", "4Mi")),
				"ephemeral": reqs(rl("cpu", "100m"), rl("cpu", "1", "memory", "1Gi", "hugepages-2Mi", "4Mi")),
			}},
		{"extended resources are copied too",
			reqs(nil, rl("example.com/gpu", "2")),
			map[string]v1.ResourceRequirements{
				"init":      reqs(rl("example.com/gpu", "2"), rl("example.com/gpu", "2")),
				"app":       reqs(rl("example.com/gpu", "2"), rl("example.com/gpu", "2")),
				"ephemeral": reqs(nil, rl("example.com/gpu", "2")),
			}},
		{"empty limits give empty, non-nil requests",
			reqs(nil, v1.ResourceList{}),
			map[string]v1.ResourceRequirements{
				"init":      reqs(v1.ResourceList{}, v1.ResourceList{}),
				"app":       reqs(v1.ResourceList{}, v1.ResourceList{}),
				"ephemeral": reqs(nil, v1.ResourceList{}),
			}},
		{"no limits leave requests nil",
			reqs(nil, nil),
			map[string]v1.ResourceRequirements{"init": {}, "app": {}, "ephemeral": {}}},
		{"requests and limits are rounded up to milli precision",
			reqs(rl("cpu", "0.0001"), rl("cpu", "1.00001", "memory", "1.5")),
			map[string]v1.ResourceRequirements{
				"init":      reqs(rl("cpu", "1m", "memory", "1500m"), rl("cpu", "1001m", "memory", "1500m")),
				"app":       reqs(rl("cpu", "1m", "memory", "1500m"), rl("cpu", "1001m", "memory", "1500m")),
				"ephemeral": reqs(rl("cpu", "1m"), rl("cpu", "1001m", "memory", "1500m")),
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := podWith(eachContainer(func(c *v1.Container) { c.Resources = *tt.in.DeepCopy() }))
			SetObjectDefaultsPod(pod)
			got := map[string]v1.ResourceRequirements{}
			for kind, c := range ctrs(pod) {
				got[kind] = c.Resources
			}
			assertSemantic(t, tt.want, got)
		})
	}
}

// resourcePod is a pod with the given pod-level resources and containers' resources; a name
// starting with "sidecar" is a restartable init container, "init" an init container, "debug" an
// ephemeral container, anything else a regular container.
func resourcePod(pod *v1.ResourceRequirements, containers map[string]v1.ResourceRequirements) *v1.Pod {
	p := &v1.Pod{Spec: v1.PodSpec{Resources: pod}}
	for _, name := range []string{"sidecar", "init", "app", "app2", "debug"} {
		r, ok := containers[name]
		if !ok {
			continue
		}
		c := v1.Container{Name: name, Image: "app:1", Resources: r}
		switch name {
		case "sidecar":
			c.RestartPolicy = ptr.To(v1.ContainerRestartPolicyAlways)
			p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		case "init":
			p.Spec.InitContainers = append(p.Spec.InitContainers, c)
		case "debug":
			p.Spec.EphemeralContainers = append(p.Spec.EphemeralContainers, v1.EphemeralContainer{EphemeralContainerCommon: v1.EphemeralContainerCommon(c)})
		default:
			p.Spec.Containers = append(p.Spec.Containers, c)
		}
	}
	return p
}

func TestPodLevelResources(t *testing.T) {
	type ctrs = map[string]v1.ResourceRequirements
	tests := []struct {
		name       string
		pod        *v1.ResourceRequirements
		containers ctrs
		want       *v1.ResourceRequirements
	}{
		{"no pod-level resources: nothing is added",
			nil, ctrs{"app": reqs(nil, rl("cpu", "1"))}, nil},
		{"empty pod-level resources: nothing is added",
			&v1.ResourceRequirements{}, ctrs{"app": reqs(nil, rl("cpu", "1"))}, &v1.ResourceRequirements{}},
		{"pod-level requests default to the containers' requests, init containers counting at their peak",
			&v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "2Gi")},
			ctrs{"init": reqs(rl("cpu", "1"), nil), "app": reqs(rl("cpu", "500m", "memory", "256Mi"), nil), "app2": reqs(rl("cpu", "250m"), nil)},
			&v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "2Gi"), Requests: rl("cpu", "1", "memory", "256Mi")}},
		{"a sidecar adds to the regular containers and to the init containers after it",
			&v1.ResourceRequirements{Limits: rl("cpu", "2")},
			ctrs{"sidecar": reqs(rl("cpu", "100m"), nil), "init": reqs(rl("cpu", "300m"), nil), "app": reqs(rl("cpu", "200m"), nil)},
			&v1.ResourceRequirements{Limits: rl("cpu", "2"), Requests: rl("cpu", "400m")}},
		{"pod-level requests default to pod-level limits when no container requests",
			&v1.ResourceRequirements{Limits: rl("cpu", "1", "memory", "1Gi")},
			ctrs{"app": {}},
			&v1.ResourceRequirements{Limits: rl("cpu", "1", "memory", "1Gi"), Requests: rl("cpu", "1", "memory", "1Gi")}},
		{"pod-level requests set are kept",
			&v1.ResourceRequirements{Requests: rl("cpu", "100m"), Limits: rl("cpu", "1")},
			ctrs{"app": reqs(rl("cpu", "500m"), nil)},
			&v1.ResourceRequirements{Requests: rl("cpu", "100m"), Limits: rl("cpu", "1")}},
		{"resources that cannot be set at pod level are not defaulted",
			&v1.ResourceRequirements{Limits: rl("cpu", "1", "ephemeral-storage", "1Gi", "example.com/gpu", "1")},
			ctrs{"app": reqs(rl("ephemeral-storage", "100Mi", "example.com/gpu", "1"), nil)},
			&v1.ResourceRequirements{Limits: rl("cpu", "1", "ephemeral-storage", "1Gi", "example.com/gpu", "1"), Requests: rl("cpu", "1")}},
		{"pod-level limits default to the containers' limits when every container has one",
			&v1.ResourceRequirements{Requests: rl("cpu", "1")},
			ctrs{"init": reqs(nil, rl("cpu", "300m")), "app": reqs(nil, rl("cpu", "500m", "memory", "1Gi")), "app2": reqs(nil, rl("cpu", "700m"))},
			&v1.ResourceRequirements{Requests: rl("cpu", "1", "memory", "1Gi"), Limits: rl("cpu", "1200m")}},
		{"a defaulted pod-level limit is never below the pod-level request",
			&v1.ResourceRequirements{Requests: rl("cpu", "2")},
			ctrs{"app": reqs(nil, rl("cpu", "500m")), "app2": reqs(nil, rl("cpu", "700m"))},
			&v1.ResourceRequirements{Requests: rl("cpu", "2"), Limits: rl("cpu", "2")}},
		{"no pod-level limit when a container has no limit",
			&v1.ResourceRequirements{Requests: rl("cpu", "1")},
			ctrs{"app": reqs(nil, rl("cpu", "500m")), "app2": {}},
			&v1.ResourceRequirements{Requests: rl("cpu", "1")}},
		{"no pod-level limit when an ephemeral container has no limit",
			&v1.ResourceRequirements{Requests: rl("cpu", "1")},
			ctrs{"app": reqs(nil, rl("cpu", "500m")), "debug": {}},
			&v1.ResourceRequirements{Requests: rl("cpu", "1")}},
		{"pod-level hugepage limits and requests default to the containers' limits",
			&v1.ResourceRequirements{Requests: rl("cpu", "1")},
			ctrs{"app": reqs(nil, rl("hugepages-2Mi", "4Mi")), "app2": reqs(nil, rl("hugepages-2Mi", "2Mi"))},
			&v1.ResourceRequirements{Requests: rl("cpu", "1", "hugepages-2Mi", "6Mi"), Limits: rl("hugepages-2Mi", "6Mi")}},
		{"a pod-level hugepage request keeps the hugepage limit from the request rule only",
			&v1.ResourceRequirements{Requests: rl("hugepages-2Mi", "8Mi")},
			ctrs{"app": reqs(nil, rl("hugepages-2Mi", "4Mi"))},
			&v1.ResourceRequirements{Requests: rl("hugepages-2Mi", "8Mi"), Limits: rl("hugepages-2Mi", "8Mi")}},
		{"pod-level limits set are kept",
			&v1.ResourceRequirements{Requests: rl("cpu", "1"), Limits: rl("cpu", "3", "hugepages-1Gi", "1Gi")},
			ctrs{"app": reqs(nil, rl("cpu", "500m", "hugepages-1Gi", "2Gi"))},
			&v1.ResourceRequirements{Requests: rl("cpu", "1", "hugepages-1Gi", "1Gi"), Limits: rl("cpu", "3", "hugepages-1Gi", "1Gi")}},
		{"pod-level values are rounded up to milli precision",
			&v1.ResourceRequirements{Limits: rl("cpu", "0.0001")},
			ctrs{"app": {}},
			&v1.ResourceRequirements{Limits: rl("cpu", "1m"), Requests: rl("cpu", "1m")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pod := resourcePod(tt.pod.DeepCopy(), tt.containers)
			SetObjectDefaultsPod(pod)
			assertSemantic(t, tt.want, pod.Spec.Resources)
		})
	}
}

// TestPodLevelResourcesGates checks where each gate setting puts pod-level defaulting.
func TestPodLevelResourcesGates(t *testing.T) {
	limitsOnly := func() *v1.Pod {
		return resourcePod(&v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi")},
			map[string]v1.ResourceRequirements{"app": reqs(nil, rl("cpu", "500m", "hugepages-2Mi", "2Mi"))})
	}
	requestsOnly := func() *v1.Pod {
		return resourcePod(&v1.ResourceRequirements{Requests: rl("cpu", "1")},
			map[string]v1.ResourceRequirements{"app": reqs(nil, rl("cpu", "500m", "hugepages-2Mi", "2Mi"))})
	}
	fixOff := DefaultFeatureGates()
	fixOff.PodLevelResourcesFixDefaulting = false

	tests := []struct {
		name string
		pod  *v1.Pod
		opts []Option
		want *v1.ResourceRequirements
	}{
		{"create strategy: requests and hugepage limits from limits",
			limitsOnly(), nil,
			&v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi", "hugepages-2Mi", "2Mi"), Requests: rl("cpu", "500m", "memory", "1Gi", "hugepages-2Mi", "2Mi")}},
		{"create strategy: limits from requests",
			requestsOnly(), nil,
			&v1.ResourceRequirements{Requests: rl("cpu", "1", "hugepages-2Mi", "2Mi"), Limits: rl("cpu", "1", "hugepages-2Mi", "2Mi")}},
		{"object defaults only: SetObjectDefaults_Pod leaves pod-level resources to the create strategy",
			limitsOnly(), []Option{ObjectDefaultsOnly()},
			&v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi")}},
		{"FixDefaulting off: SetDefaults_Pod defaults requests and hugepage limits from limits",
			limitsOnly(), []Option{WithFeatureGates(fixOff)},
			&v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi", "hugepages-2Mi", "2Mi"), Requests: rl("cpu", "500m", "memory", "1Gi", "hugepages-2Mi", "2Mi")}},
		{"FixDefaulting off: no cpu limit from requests; a hugepage limit from the containers, then its request",
			requestsOnly(), []Option{WithFeatureGates(fixOff)},
			&v1.ResourceRequirements{Requests: rl("cpu", "1", "hugepages-2Mi", "2Mi"), Limits: rl("hugepages-2Mi", "2Mi")}},
		{"FixDefaulting off and object defaults only: the same",
			requestsOnly(), []Option{WithFeatureGates(fixOff), ObjectDefaultsOnly()},
			&v1.ResourceRequirements{Requests: rl("cpu", "1", "hugepages-2Mi", "2Mi"), Limits: rl("hugepages-2Mi", "2Mi")}},
		{"FixDefaulting off: pod-level requests alone default nothing",
			resourcePod(&v1.ResourceRequirements{Requests: rl("cpu", "1")}, map[string]v1.ResourceRequirements{"app": reqs(nil, rl("cpu", "500m"))}),
			[]Option{WithFeatureGates(fixOff)},
			&v1.ResourceRequirements{Requests: rl("cpu", "1")}},
		{"PodLevelResources off: no pod-level defaulting",
			limitsOnly(), []Option{WithFeatureGates(FeatureGates{PodLevelResourcesFixDefaulting: true})},
			&v1.ResourceRequirements{Limits: rl("cpu", "2", "memory", "1Gi")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			SetObjectDefaultsPod(tt.pod, tt.opts...)
			assertSemantic(t, tt.want, tt.pod.Spec.Resources)
		})
	}
}

func TestOverheadAndStatusRounding(t *testing.T) {
	pod := podWith(func(p *v1.Pod) {
		p.Spec.Overhead = rl("cpu", "0.0001")
		p.Status.AllocatedResources = rl("memory", "1.5")
		p.Status.Resources = &v1.ResourceRequirements{Limits: rl("cpu", "0.0002"), Requests: rl("cpu", "0.0003")}
		p.Status.ContainerStatuses = []v1.ContainerStatus{{Name: "app", AllocatedResources: rl("cpu", "0.0004"),
			Resources: &v1.ResourceRequirements{Limits: rl("cpu", "1.0001")}}}
		p.Status.InitContainerStatuses = []v1.ContainerStatus{{Name: "init", AllocatedResources: rl("cpu", "0.0005")}}
		p.Status.EphemeralContainerStatuses = []v1.ContainerStatus{{Name: "debug", Resources: &v1.ResourceRequirements{Requests: rl("cpu", "0.0006")}}}
	})
	SetObjectDefaultsPod(pod)
	assertSemantic(t, rl("cpu", "1m"), pod.Spec.Overhead, "overhead")
	assertSemantic(t, rl("memory", "1500m"), pod.Status.AllocatedResources, "status.allocatedResources")
	assertSemantic(t, &v1.ResourceRequirements{Limits: rl("cpu", "1m"), Requests: rl("cpu", "1m")}, pod.Status.Resources, "status.resources")
	assertSemantic(t, rl("cpu", "1m"), pod.Status.ContainerStatuses[0].AllocatedResources)
	assertSemantic(t, rl("cpu", "1001m"), pod.Status.ContainerStatuses[0].Resources.Limits)
	assertSemantic(t, rl("cpu", "1m"), pod.Status.InitContainerStatuses[0].AllocatedResources)
	assertSemantic(t, rl("cpu", "1m"), pod.Status.EphemeralContainerStatuses[0].Resources.Requests)
	assert.Equal(t, "1m", ptr.To(pod.Spec.Overhead[v1.ResourceCPU]).String())
}
