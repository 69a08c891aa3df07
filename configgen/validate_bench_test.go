package configgen_test

import (
	"testing"

	"github.com/podconfig/podconfig/configgen"
)

// BenchmarkValidateContainer is the node-side validation of the sample pod and its container: one
// pass over each string, and no allocation when the spec is valid.
func BenchmarkValidateContainer(b *testing.B) {
	pod := samplePod()
	pod.Annotations = map[string]string{"kubernetes.io/config.source": "api", "note": "a longer annotation value, of the kind tools add"}
	c := &pod.Spec.Containers[0]
	b.ReportAllocs()
	for b.Loop() {
		if err := configgen.ValidateContainer(pod, c); err != nil {
			b.Fatal(err)
		}
	}
}
