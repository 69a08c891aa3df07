package validation

// The kinds of resource names the API server tells apart (its core helper's predicates, on v1
// names).

import (
	"strings"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
)

// resourcesStandard are the resource names known without a domain: compute, storage, quota and
// object counts.
var resourcesStandard = sets.New(
	v1.ResourceCPU, v1.ResourceMemory, v1.ResourceEphemeralStorage,
	v1.ResourceRequestsCPU, v1.ResourceRequestsMemory, v1.ResourceRequestsEphemeralStorage,
	v1.ResourceLimitsCPU, v1.ResourceLimitsMemory, v1.ResourceLimitsEphemeralStorage,
	v1.ResourcePods, v1.ResourceQuotas, v1.ResourceServices, v1.ResourceReplicationControllers,
	v1.ResourceSecrets, v1.ResourceConfigMaps, v1.ResourcePersistentVolumeClaims,
	v1.ResourceStorage, v1.ResourceRequestsStorage,
	v1.ResourceServicesNodePorts, v1.ResourceServicesLoadBalancers,
)

// resourcesIntegers are the standard resources counted in whole units.
var resourcesIntegers = sets.New(
	v1.ResourcePods, v1.ResourceQuotas, v1.ResourceServices, v1.ResourceReplicationControllers,
	v1.ResourceSecrets, v1.ResourceConfigMaps, v1.ResourcePersistentVolumeClaims,
	v1.ResourceServicesNodePorts, v1.ResourceServicesLoadBalancers,
)

// resourcesIsStandard reports whether name is a standard resource, hugepages of any size
// included (as requests.hugepages-* for quota).
func resourcesIsStandard(name v1.ResourceName) bool {
	return resourcesStandard.Has(name) || resourcesIsHugePages(name) ||
		strings.HasPrefix(string(name), v1.ResourceRequestsHugePagesPrefix)
}

// resourcesIsStandardContainer reports whether a container may request name without a domain.
func resourcesIsStandardContainer(name v1.ResourceName) bool {
	return name == v1.ResourceCPU || name == v1.ResourceMemory || name == v1.ResourceEphemeralStorage || resourcesIsHugePages(name)
}

// resourcesIsHugePages reports whether name is hugepages of some size.
func resourcesIsHugePages(name v1.ResourceName) bool {
	return strings.HasPrefix(string(name), v1.ResourceHugePagesPrefix)
}

// resourcesIsNative reports whether name is in the kubernetes.io domain: it has no domain, or
// "kubernetes.io/" appears anywhere in it (the API server's test, which a domain such as
// "foo.kubernetes.io/" also passes).
func resourcesIsNative(name v1.ResourceName) bool {
	return !strings.Contains(string(name), "/") || strings.Contains(string(name), v1.ResourceDefaultNamespacePrefix)
}

// resourcesIsExtended reports whether name is an extended resource: not native, not a quota
// "requests." name, and still a qualified name once "requests." is put before it.
func resourcesIsExtended(name v1.ResourceName) bool {
	if resourcesIsNative(name) || strings.HasPrefix(string(name), v1.DefaultResourceRequestsPrefix) {
		return false
	}
	return len(validation.IsQualifiedName(v1.DefaultResourceRequestsPrefix+string(name))) == 0
}

// resourcesOvercommitAllowed reports whether requests may be below limits for name: native
// resources other than hugepages.
func resourcesOvercommitAllowed(name v1.ResourceName) bool {
	return resourcesIsNative(name) && !resourcesIsHugePages(name)
}

// resourcesIsInteger reports whether name is counted in whole units: object counts and extended
// resources.
func resourcesIsInteger(name v1.ResourceName) bool {
	return resourcesIntegers.Has(name) || resourcesIsExtended(name)
}
