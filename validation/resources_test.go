package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// ctrList is a resource list of name=quantity pairs.
func ctrList(pairs ...string) v1.ResourceList {
	list := v1.ResourceList{}
	for i := 0; i+1 < len(pairs); i += 2 {
		list[v1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return list
}

// ctrResources sets the first container's limits and requests.
func ctrResources(limits, requests v1.ResourceList) func(*v1.Pod) {
	return ctrFirst(func(c *v1.Container) { c.Resources.Limits, c.Resources.Requests = limits, requests })
}

func TestContainerResources(t *testing.T) {
	ctrRun(t, []ctrCase{
		{
			name:   "a memory request above its limit is refused",
			mutate: ctrResources(ctrList("memory", "128Mi"), ctrList("memory", "256Mi")),
			want:   []string{`spec.containers[0].resources.requests: Invalid value: "256Mi": must be less than or equal to memory limit of 128Mi`},
		},
		{
			name:   "a negative quantity is refused",
			mutate: ctrResources(ctrList("cpu", "-1"), nil),
			want:   []string{`spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		},
		{
			name:   "a resource name without a domain that is not standard is refused",
			mutate: ctrResources(nil, ctrList("gpu", "1")),
			want: []string{
				`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
				`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
			},
		},
		{
			name:   "a standard resource a container cannot request is refused",
			mutate: ctrResources(ctrList("pods", "1"), nil),
			want:   []string{`spec.containers[0].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers`},
		},
		{
			name:   "a resource name that is not a qualified name is refused",
			mutate: ctrResources(ctrList("example.com/big gpu", "1"), ctrList("example.com/big gpu", "1")),
			want: []string{
				`spec.containers[0].resources.limits[example.com/big gpu]: Invalid value: "example.com/big gpu": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`spec.containers[0].resources.limits[example.com/big gpu]: Invalid value: "example.com/big gpu": doesn't follow extended resource name standard`,
				`spec.containers[0].resources.requests[example.com/big gpu]: Invalid value: "example.com/big gpu": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
				`spec.containers[0].resources.requests[example.com/big gpu]: Invalid value: "example.com/big gpu": doesn't follow extended resource name standard`,
			},
		},
		{
			name:   "an extended resource must be whole and requested as much as its limit",
			mutate: ctrResources(ctrList("example.com/gpu", "1500m"), ctrList("example.com/gpu", "1")),
			want: []string{
				`spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "1500m": must be an integer`,
				`spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 1500m`,
			},
		},
		{
			name:   "an extended resource requested without a limit is refused",
			mutate: ctrResources(nil, ctrList("example.com/gpu", "1")),
			want:   []string{`spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources`},
		},
		{
			name:   "hugepages without cpu or memory are refused",
			mutate: ctrResources(ctrList("hugepages-2Mi", "4Mi"), nil),
			want:   []string{`spec.containers[0].resources: Forbidden: HugePages require cpu or memory`},
		},
		{
			name:   "hugepages that are not whole pages are refused",
			mutate: ctrResources(ctrList("hugepages-2Mi", "3Mi", "memory", "1Gi"), nil),
			want:   []string{`spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`},
		},
		{
			name:   "a hugepages size too large for the API server is an internal error, not a panic",
			mutate: ctrResources(ctrList("hugepages-100E", "2Mi"), ctrList("memory", "1Gi")),
			want: []string{
				`spec.containers[0].resources.limits[hugepages-100E]: Internal error: the page size of hugepages-100E overflows: the API server fails on it (integer divide by zero)`,
			},
		},
		{
			name: "a claim the pod lacks, and a request that is not a DNS label, are refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.Resources.Claims = []v1.ResourceClaim{{Name: "fpga"}, {Name: "gpu", Request: "Big"}}
			}),
			want: []string{
				`spec.containers[0].resources.claims[0]: Not found: "fpga": must be one of the names in pod.spec.resourceClaims: gpu`,
				`spec.containers[0].resources.claims[1].request: Invalid value: "Big": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
			},
		},
		{
			name: "a claim in a pod without claims is refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.ResourceClaims = nil
				pod.Spec.Containers[0].Resources.Claims = []v1.ResourceClaim{{Name: "gpu"}}
			},
			want: []string{`spec.containers[0].resources.claims[0]: Not found: "gpu": must be one of the names in pod.spec.resourceClaims which is empty`},
		},
		{
			name: "a claim named twice, or beside one of its requests, is refused",
			mutate: ctrFirst(func(c *v1.Container) {
				c.Resources.Claims = []v1.ResourceClaim{{Name: "gpu", Request: "a"}, {Name: "gpu", Request: "a"}, {Name: "gpu"}, {Name: "gpu"}, {}}
			}),
			want: []string{
				`spec.containers[0].resources.claims[1]: Duplicate value: "gpu/a"`,
				`spec.containers[0].resources.claims[2]: Duplicate value: "gpu"`,
				`spec.containers[0].resources.claims[3]: Duplicate value: "gpu"`,
				`spec.containers[0].resources.claims[4]: Required value`,
			},
		},
	})
}

func TestPodLevelResourcesValidation(t *testing.T) {
	podResources := func(limits, requests v1.ResourceList) func(*v1.Pod) {
		return func(pod *v1.Pod) { pod.Spec.Resources = &v1.ResourceRequirements{Limits: limits, Requests: requests} }
	}
	ctrRun(t, []ctrCase{
		{
			name:   "pod-level cpu, memory and hugepages are accepted",
			mutate: podResources(ctrList("cpu", "2", "memory", "1Gi", "hugepages-2Mi", "4Mi"), ctrList("cpu", "1")),
		},
		{
			name:   "a pod-level resource other than cpu, memory and hugepages is refused",
			mutate: podResources(ctrList("ephemeral-storage", "1Gi"), nil),
			want:   []string{`spec.resources.limits[ephemeral-storage]: Unsupported value: "ephemeral-storage": supported values: "cpu", "hugepages-", "memory"`},
		},
		{
			name: "pod-level claims are refused",
			mutate: func(pod *v1.Pod) {
				pod.Spec.Resources = &v1.ResourceRequirements{Claims: []v1.ResourceClaim{{Name: "gpu"}}}
			},
			want: []string{`spec.resources.claims: Forbidden: claims may not be set for Resources at pod-level`},
		},
		{
			name: "pod-level resources are refused in a Windows pod",
			mutate: func(pod *v1.Pod) {
				pod.Spec.OS = &v1.PodOS{Name: v1.Windows}
				podResources(ctrList("cpu", "-1"), nil)(pod)
			},
			want: []string{`spec.resources: Forbidden: may not be set for a windows pod`},
		},
		{
			name: "a pod-level request below the containers' together is refused, sidecars counted with each init container",
			mutate: func(pod *v1.Pod) {
				pod.Spec.Containers[0].Resources.Requests = ctrList("memory", "100Mi")
				proxy, setup := ctrContainer("proxy"), ctrContainer("setup")
				proxy.RestartPolicy = ptr.To(v1.ContainerRestartPolicyAlways)
				proxy.Resources.Requests = ctrList("memory", "50Mi")
				setup.Resources.Requests = ctrList("memory", "200Mi")
				pod.Spec.InitContainers = []v1.Container{proxy, setup}
				podResources(nil, ctrList("memory", "200Mi"))(pod)
			},
			want: []string{`spec.resources.requests[memory]: Invalid value: "200Mi": must be greater than or equal to aggregate container requests of 250Mi`},
		},
		{
			name: "a pod-level hugepages limit below the containers' together is refused",
			mutate: func(pod *v1.Pod) {
				web := ctrContainer("web")
				pod.Spec.Containers[0].Resources.Limits = ctrList("hugepages-2Mi", "2Mi", "memory", "1Gi")
				web.Resources.Limits = ctrList("hugepages-2Mi", "2Mi", "memory", "1Gi")
				pod.Spec.Containers = append(pod.Spec.Containers, web)
				podResources(ctrList("hugepages-2Mi", "2Mi", "memory", "2Gi"), nil)(pod)
			},
			want: []string{`spec.resources.limits[hugepages-2Mi]: Invalid value: "2Mi": must be greater than or equal to aggregate container limits of 4Mi`},
		},
		{
			name: "a container limit above the pod's is refused, at the API server's path",
			mutate: func(pod *v1.Pod) {
				pod.Spec.Containers[0].Resources.Limits = ctrList("cpu", "2")
				podResources(ctrList("cpu", "1"), nil)(pod)
			},
			want: []string{`spec.resources.containers[0][cpu].limits: Invalid value: "2": must be less than or equal to pod limits of 1`},
		},
	})
}

func TestPodOverhead(t *testing.T) {
	path := field.NewPath("spec", "overhead")
	for _, c := range []struct {
		name     string
		overhead v1.ResourceList
		want     []string
	}{
		{name: "an overhead of cpu and memory is accepted", overhead: ctrList("cpu", "250m", "memory", "120Mi")},
		{
			name:     "a negative overhead is refused",
			overhead: ctrList("memory", "-1Mi"),
			want:     []string{`spec.overhead.limits[memory]: Invalid value: "-1Mi": must be greater than or equal to 0`},
		},
		{
			name:     "an overhead of a resource a container cannot request is refused",
			overhead: ctrList("pods", "1"),
			want:     []string{`spec.overhead.limits[pods]: Invalid value: "pods": must be a standard resource for containers`},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ctrTexts(validateOverhead(c.overhead, path)))
		})
	}
}
