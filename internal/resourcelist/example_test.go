package resourcelist_test

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/podconfig/podconfig/internal/resourcelist"
)

// Two sidecars run together, so their requests add up; an init container runs alone, so the pod
// needs the larger of it and the rest.
func Example() {
	running := v1.ResourceList{}
	resourcelist.Add(running, v1.ResourceList{v1.ResourceMemory: resource.MustParse("100Mi")})
	resourcelist.Add(running, v1.ResourceList{v1.ResourceMemory: resource.MustParse("50Mi")})
	resourcelist.Max(running, v1.ResourceList{v1.ResourceMemory: resource.MustParse("120Mi")})
	fmt.Println(running.Memory())
	// Output: 150Mi
}
