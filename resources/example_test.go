package resources_test

import (
	"fmt"
	"maps"
	"slices"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/resources"
)

// A Burstable container (250m/1 CPU, 256Mi/512Mi) on a 32 GiB cgroup v2 node with kubelet's
// default settings, rendered offline: the node facts are given, not read from the host.
func ExampleCalculator_ContainerResources() {
	node := resources.Node{
		CgroupV2:       true,
		MemoryCapacity: 32 << 30,
		HugePageSizes:  []string{"2MB", "1GB"},
	}
	calc, err := resources.New(resources.DefaultConfig(node))
	if err != nil {
		fmt.Println(err)
		return
	}
	pod := &v1.Pod{Spec: v1.PodSpec{Containers: []v1.Container{{
		Name: "app",
		Resources: v1.ResourceRequirements{
			Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("250m"), v1.ResourceMemory: resource.MustParse("256Mi")},
			Limits:   v1.ResourceList{v1.ResourceCPU: resource.MustParse("1"), v1.ResourceMemory: resource.MustParse("512Mi")},
		},
	}}}}

	res, warnings, err := calc.ContainerResources(pod, &pod.Spec.Containers[0])
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("shares:", res.CpuShares, "quota:", res.CpuQuota, "period:", res.CpuPeriod)
	fmt.Println("memory limit:", res.MemoryLimitInBytes, "oom_score_adj:", res.OomScoreAdj)
	for _, h := range res.HugepageLimits {
		fmt.Printf("hugepages %s: %d\n", h.PageSize, h.Limit)
	}
	for _, k := range slices.Sorted(maps.Keys(res.Unified)) {
		fmt.Printf("%s=%s\n", k, res.Unified[k])
	}
	fmt.Println("warnings:", len(warnings))
	// Output:
	// shares: 256 quota: 100000 period: 100000
	// memory limit: 536870912 oom_score_adj: 993
	// hugepages 2MB: 0
	// hugepages 1GB: 0
	// memory.low=0
	// memory.min=0
	// memory.oom.group=1
	// warnings: 0
}

// The sandbox of a pod with a sidecar and a runtime-class overhead: the sidecar's request adds to
// the regular container's, and the overhead is reported separately.
func ExampleCalculator_SandboxResources() {
	calc, err := resources.New(resources.DefaultConfig(resources.Node{MemoryCapacity: 8 << 30}))
	if err != nil {
		fmt.Println(err)
		return
	}
	always := v1.ContainerRestartPolicyAlways
	cpu := func(s string) v1.ResourceList { return v1.ResourceList{v1.ResourceCPU: resource.MustParse(s)} }
	pod := &v1.Pod{Spec: v1.PodSpec{
		InitContainers: []v1.Container{{Name: "proxy", RestartPolicy: &always, Resources: v1.ResourceRequirements{Requests: cpu("100m")}}},
		Containers:     []v1.Container{{Name: "app", Resources: v1.ResourceRequirements{Requests: cpu("400m"), Limits: cpu("1")}}},
		Overhead:       cpu("50m"),
	}}
	res, overhead, err := calc.SandboxResources(pod)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sandbox shares:", res.CpuShares, "quota:", res.CpuQuota)
	fmt.Println("overhead shares:", overhead.CpuShares, "quota:", overhead.CpuQuota)
	// Output:
	// sandbox shares: 512 quota: 100000
	// overhead shares: 51 quota: 5000
}
