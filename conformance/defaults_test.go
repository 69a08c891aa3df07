package conformance

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apiv1 "k8s.io/kubernetes/pkg/apis/core/v1"

	"github.com/podconfig/podconfig/conformance/scenario"
	"github.com/podconfig/podconfig/defaults"
)

// TestDefaults compares package defaults with the API server's own SetObjectDefaults_Pod on every
// corpus pod and on random pods (the part SetObjectDefaults_Pod applies: ObjectDefaultsOnly).
func TestDefaults(t *testing.T) {
	var scs []*scenario.Scenario
	scs = append(scs, loadCorpus(t)...)
	seed := uint64(time.Now().UnixNano())
	t.Logf("random pods seed %d", seed)
	for i := 0; i < 300; i++ {
		scs = append(scs, scenario.Random(seed, i))
	}
	for _, sc := range scs {
		want := sc.Pod.DeepCopy()
		apiv1.SetObjectDefaults_Pod(want)
		got := sc.Pod.DeepCopy()
		defaults.SetObjectDefaultsPod(got, defaults.ObjectDefaultsOnly())
		if !apiequality.Semantic.DeepEqual(want, got) {
			t.Errorf("%s: defaults.SetObjectDefaultsPod differs from the API server's SetObjectDefaults_Pod (-apiserver +podconfig):\n%s", sc.Name, cmp.Diff(want, got))
		}
	}
}
