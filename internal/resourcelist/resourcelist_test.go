package resourcelist

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func list(kv ...string) v1.ResourceList {
	l := v1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[v1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

func TestAddAndMax(t *testing.T) {
	tests := []struct {
		name        string
		list, other v1.ResourceList
		add, max    v1.ResourceList
	}{
		{"a resource in both is summed, or raised to the larger", list("cpu", "100m", "memory", "1Gi"), list("cpu", "250m", "memory", "512Mi"),
			list("cpu", "350m", "memory", "1536Mi"), list("cpu", "250m", "memory", "1Gi")},
		{"a resource only the other has is copied in", list("cpu", "1"), list("memory", "64Mi"),
			list("cpu", "1", "memory", "64Mi"), list("cpu", "1", "memory", "64Mi")},
		{"an empty other changes nothing", list("cpu", "1"), nil, list("cpu", "1"), list("cpu", "1")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum, peak := tt.list.DeepCopy(), tt.list.DeepCopy()
			Add(sum, tt.other)
			Max(peak, tt.other)
			for name, q := range tt.add {
				got := sum[name]
				assert.Zero(t, q.Cmp(got), "Add %s: %s, want %s", name, got.String(), q.String())
			}
			for name, q := range tt.max {
				got := peak[name]
				assert.Zero(t, q.Cmp(got), "Max %s: %s, want %s", name, got.String(), q.String())
			}
			assert.Len(t, sum, len(tt.add))
			assert.Len(t, peak, len(tt.max))
		})
	}
}

func TestAddDoesNotShareQuantities(t *testing.T) {
	other := list("cpu", "1")
	sum := v1.ResourceList{}
	Add(sum, other)
	Add(sum, other)
	assert.Equal(t, "2", sum.Cpu().String())
	assert.Equal(t, "1", other.Cpu().String(), "the added list is unchanged")
}
