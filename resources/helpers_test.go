package resources_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/podconfig/podconfig/resources"
)

const (
	mi = int64(1) << 20
	gi = int64(1) << 30
)

// rl builds a ResourceList from name, quantity pairs.
func rl(pairs ...string) v1.ResourceList {
	l := v1.ResourceList{}
	for i := 0; i+1 < len(pairs); i += 2 {
		l[v1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return l
}

func ctr(name string, req, lim v1.ResourceList) v1.Container {
	return v1.Container{Name: name, Resources: v1.ResourceRequirements{Requests: req, Limits: lim}}
}

func sidecar(name string, req, lim v1.ResourceList) v1.Container {
	c := ctr(name, req, lim)
	always := v1.ContainerRestartPolicyAlways
	c.RestartPolicy = &always
	return c
}

func podOf(containers ...v1.Container) *v1.Pod {
	return &v1.Pod{Spec: v1.PodSpec{Containers: containers}}
}

// samplePod is the sample Burstable pod: 250m/1 CPU, 256Mi/512Mi.
func samplePod() *v1.Pod {
	return podOf(ctr("app", rl("cpu", "250m", "memory", "256Mi"), rl("cpu", "1", "memory", "512Mi")))
}

// v2Node is a 32 GiB cgroup v2 node with 2MB and 1GB pages and no swap controller.
func v2Node() resources.Node {
	return resources.Node{CgroupV2: true, MemoryCapacity: 32 * gi, HugePageSizes: []string{"2MB", "1GB"}}
}

func newCalc(t testing.TB, mutate func(*resources.Config)) *resources.Calculator {
	t.Helper()
	cfg := resources.DefaultConfig(v2Node())
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := resources.New(cfg)
	require.NoError(t, err)
	return c
}

// fakeCPUs marks containers by name, and pods by name, as having exclusive CPUs.
type fakeCPUs struct {
	containers map[string]bool
	pods       map[string]bool
}

func (f fakeCPUs) ContainerHasExclusiveCPUs(_ *v1.Pod, c *v1.Container) bool {
	return f.containers[c.Name]
}
func (f fakeCPUs) PodHasExclusiveCPUs(p *v1.Pod) bool { return f.pods[p.Name] }

var _ resources.ExclusiveCPUs = fakeCPUs{}

// hugepages builds the expected HugepageLimits from page size, limit pairs.
func hugepages(pairs ...any) []*runtimeapi.HugepageLimit {
	var out []*runtimeapi.HugepageLimit
	for i := 0; i+1 < len(pairs); i += 2 {
		var limit uint64
		switch v := pairs[i+1].(type) {
		case int:
			limit = uint64(v)
		case int64:
			limit = uint64(v)
		}
		out = append(out, &runtimeapi.HugepageLimit{PageSize: pairs[i].(string), Limit: limit})
	}
	return out
}
