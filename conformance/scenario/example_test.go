package scenario_test

import (
	"fmt"

	"github.com/podconfig/podconfig/conformance/scenario"
)

// The same seed and index always give the same random pod, so a failing one can be replayed.
func ExampleRandom() {
	a, b := scenario.Random(42, 7), scenario.Random(42, 7)
	fmt.Println(a.Name, a.Pod.Name, len(a.Pod.Spec.Containers) == len(b.Pod.Spec.Containers), a.Validate() == nil)
	// Output: random-42-7 pod-7 true true
}
