package validation

// The API server validates the internal form of a workload, converted from v1: an unset count is
// 0 there, and its structs have no JSON tags, so when it quotes one as a bad value the text shows
// Go's field names ({"Type":"Blue","RollingUpdate":null}). These mirror the conversions and the
// internal structs it quotes, field for field, so the texts agree.

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// internalDeploymentStrategy is apps.DeploymentStrategy.
type internalDeploymentStrategy struct {
	Type          appsv1.DeploymentStrategyType
	RollingUpdate *internalRollingUpdate
}

// internalRollingUpdate is apps.RollingUpdateDeployment and apps.RollingUpdateDaemonSet, which
// have the same fields.
type internalRollingUpdate struct {
	MaxUnavailable intstr.IntOrString
	MaxSurge       intstr.IntOrString
}

// internalDaemonSetUpdateStrategy is apps.DaemonSetUpdateStrategy.
type internalDaemonSetUpdateStrategy struct {
	Type          appsv1.DaemonSetUpdateStrategyType
	RollingUpdate *internalRollingUpdate
}

// internalStatefulSetUpdateStrategy is apps.StatefulSetUpdateStrategy.
type internalStatefulSetUpdateStrategy struct {
	Type          appsv1.StatefulSetUpdateStrategyType
	RollingUpdate *internalRollingUpdateStatefulSet
}

// internalRollingUpdateStatefulSet is apps.RollingUpdateStatefulSetStrategy.
type internalRollingUpdateStatefulSet struct {
	Partition      int32
	MaxUnavailable *intstr.IntOrString
}

// internalSuccessPolicy is batch.SuccessPolicy.
type internalSuccessPolicy struct {
	Rules []internalSuccessPolicyRule
}

// internalSuccessPolicyRule is batch.SuccessPolicyRule.
type internalSuccessPolicyRule struct {
	SucceededIndexes *string
	SucceededCount   *int32
}

// internalDeploymentStrategyOf converts s as the API server does (an unset maxUnavailable or
// maxSurge becomes the integer 0).
func internalDeploymentStrategyOf(s *appsv1.DeploymentStrategy) *internalDeploymentStrategy {
	out := &internalDeploymentStrategy{Type: s.Type}
	if ru := s.RollingUpdate; ru != nil {
		out.RollingUpdate = &internalRollingUpdate{MaxUnavailable: intOrStringOrZero(ru.MaxUnavailable), MaxSurge: intOrStringOrZero(ru.MaxSurge)}
	}
	return out
}

// internalDaemonSetUpdateStrategyOf converts s as the API server does.
func internalDaemonSetUpdateStrategyOf(s *appsv1.DaemonSetUpdateStrategy) *internalDaemonSetUpdateStrategy {
	out := &internalDaemonSetUpdateStrategy{Type: s.Type}
	if ru := s.RollingUpdate; ru != nil {
		out.RollingUpdate = &internalRollingUpdate{MaxUnavailable: intOrStringOrZero(ru.MaxUnavailable), MaxSurge: intOrStringOrZero(ru.MaxSurge)}
	}
	return out
}

// internalRollingUpdateStatefulSetOf converts ru as the API server does (an unset partition
// becomes 0), nil for nil.
func internalRollingUpdateStatefulSetOf(ru *appsv1.RollingUpdateStatefulSetStrategy) *internalRollingUpdateStatefulSet {
	if ru == nil {
		return nil
	}
	return &internalRollingUpdateStatefulSet{Partition: countOrZero(ru.Partition), MaxUnavailable: ru.MaxUnavailable}
}

// internalSuccessPolicyOf converts p as the API server does.
func internalSuccessPolicyOf(p *batchv1.SuccessPolicy) internalSuccessPolicy {
	out := internalSuccessPolicy{Rules: make([]internalSuccessPolicyRule, len(p.Rules))}
	if p.Rules == nil {
		out.Rules = nil
	}
	for i, r := range p.Rules {
		out.Rules[i] = internalSuccessPolicyRule{SucceededIndexes: r.SucceededIndexes, SucceededCount: r.SucceededCount}
	}
	return out
}

// countOrZero is *p, or 0 for nil, as the API server's conversion turns an unset count into its
// internal zero.
func countOrZero(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// intOrStringOrZero is *p, or the zero IntOrString (the integer 0) for nil, as the API server's
// conversion gives an unset maxUnavailable or maxSurge.
func intOrStringOrZero(p *intstr.IntOrString) intstr.IntOrString {
	if p == nil {
		return intstr.IntOrString{}
	}
	return *p
}
