package downward

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// ResourceValue is the value of a resourceFieldRef for a container whose limits and requests are
// given (kubelet: ExtractContainerResourceValue). defaultLimit, when not nil, gives the limit of
// cpu, memory and ephemeral-storage where the container sets none or zero (kubelet:
// MergeContainerResourceLimits with the node's allocatable resources); hugepages are never
// defaulted. The result is the quantity divided by the divisor (1 when zero), rounded up, in
// base 10; cpu is divided in millicores.
func ResourceValue(res string, divisor resource.Quantity, limits, requests v1.ResourceList, defaultLimit func(v1.ResourceName) (resource.Quantity, bool)) (string, error) {
	if divisor.IsZero() {
		divisor = *resource.NewQuantity(1, resource.DecimalSI)
	}
	kind, name, ok := strings.Cut(res, ".")
	if !ok || (kind != "limits" && kind != "requests") {
		return "", UnsupportedResource(res)
	}
	rn := v1.ResourceName(name)
	defaultable := true
	switch {
	case rn == v1.ResourceCPU || rn == v1.ResourceMemory || rn == v1.ResourceEphemeralStorage:
	case strings.HasPrefix(name, v1.ResourceHugePagesPrefix):
		defaultable = false
	default:
		return "", UnsupportedResource(res)
	}
	var q resource.Quantity
	if kind == "requests" {
		q = requests[rn]
	} else {
		q = limits[rn]
		if defaultable && q.IsZero() && defaultLimit != nil {
			if d, ok := defaultLimit(rn); ok {
				q = d
			}
		}
	}
	var v float64
	if rn == v1.ResourceCPU {
		v = math.Ceil(float64(q.MilliValue()) / float64(divisor.MilliValue()))
	} else {
		v = math.Ceil(float64(q.Value()) / float64(divisor.Value()))
	}
	return strconv.FormatInt(int64(v), 10), nil
}

// UnsupportedResource is kubelet's error for a resourceFieldRef it cannot read.
func UnsupportedResource(res string) error {
	return fmt.Errorf("unsupported container resource : %v", res)
}
