package admission

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// DefaultTolerationSeconds is how long a pod stays on a node that is not ready or unreachable
// when it says nothing itself (the API server's --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds).
const DefaultTolerationSeconds int64 = 300

// defaultTolerationSecondsAdmit is defaulttolerationseconds.Plugin.Admit: a pod that does not
// tolerate not-ready (resp. unreachable) NoExecute taints, by key or with an empty key, with
// effect NoExecute or empty, tolerates them for 300 seconds.
func (a *admitter) defaultTolerationSecondsAdmit() error {
	notReady, unreachable := false, false
	for _, t := range a.pod.Spec.Tolerations {
		if t.Effect != v1.TaintEffectNoExecute && t.Effect != "" {
			continue
		}
		notReady = notReady || t.Key == v1.TaintNodeNotReady || t.Key == ""
		unreachable = unreachable || t.Key == v1.TaintNodeUnreachable || t.Key == ""
	}
	for _, missing := range []struct {
		key  string
		need bool
	}{{v1.TaintNodeNotReady, !notReady}, {v1.TaintNodeUnreachable, !unreachable}} {
		if missing.need {
			a.pod.Spec.Tolerations = append(a.pod.Spec.Tolerations, v1.Toleration{
				Key: missing.key, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute,
				TolerationSeconds: ptr.To(DefaultTolerationSeconds),
			})
		}
	}
	return nil
}
