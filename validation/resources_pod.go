package validation

// Pod-level resources against the containers': requests not below what the containers need
// together, hugepages limits not below theirs, no container limit above the pod's.

import (
	"fmt"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/podconfig/podconfig/internal/resourcelist"
)

// validatePodResourceConsistency is the API server's validatePodResourceConsistency. fldPath is
// spec.resources. The containers' limit errors are named as the API server names them,
// "spec.resources.containers[0][cpu].limits".
func validatePodResourceConsistency(spec *v1.PodSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	pod := spec.Resources
	reqs := resourcesAggregate(spec, func(c *v1.Container) v1.ResourceList { return c.Resources.Requests })
	for _, name := range resourcesSortedNames(reqs) {
		podReq, ok := pod.Requests[name]
		if !ok {
			continue
		}
		if total := reqs[name]; total.Cmp(podReq) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("requests").Key(string(name)), podReq.String(),
				fmt.Sprintf("must be greater than or equal to aggregate container requests of %s", total.String())))
		}
	}
	// Hugepages cannot be overcommitted, so the pod's limit must cover the containers' together.
	lims := resourcesAggregate(spec, func(c *v1.Container) v1.ResourceList { return c.Resources.Limits })
	for _, name := range resourcesSortedNames(lims) {
		if !resourcesIsHugePages(name) {
			continue
		}
		podLim, ok := pod.Limits[name]
		if !ok {
			continue
		}
		if total := lims[name]; total.Cmp(podLim) > 0 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("limits").Key(string(name)), podLim.String(),
				fmt.Sprintf("must be greater than or equal to aggregate container limits of %s", total.String())))
		}
	}
	for i := range spec.Containers {
		ctrLims := spec.Containers[i].Resources.Limits
		for _, name := range resourcesSortedNames(ctrLims) {
			podLim, ok := pod.Limits[name]
			if !ok {
				continue
			}
			if lim := ctrLims[name]; lim.Cmp(podLim) > 0 {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("containers").Index(i).Key(string(name)).Child("limits"), lim.String(),
					fmt.Sprintf("must be less than or equal to pod limits of %s", podLim.String())))
			}
		}
	}
	return allErrs
}

// resourcesAggregate is what the containers of spec need together of the list get returns for
// each (their requests or their limits), as kube-scheduler and the API server count it: the
// regular containers and sidecars add up, and an init container that runs to completion needs,
// while it runs, its own resources plus those of the sidecars started before it; the pod needs
// the larger of the two for each resource. Quantities are added in the containers' order, so the
// sums print as the API server's do.
func resourcesAggregate(spec *v1.PodSpec, get func(*v1.Container) v1.ResourceList) v1.ResourceList {
	total := v1.ResourceList{}
	for i := range spec.Containers {
		resourcelist.Add(total, get(&spec.Containers[i]))
	}
	sidecars, initPeak := v1.ResourceList{}, v1.ResourceList{}
	for i := range spec.InitContainers {
		ctr := &spec.InitContainers[i]
		use := get(ctr)
		if initContainerRestartsAlways(ctr) {
			resourcelist.Add(total, use)
			resourcelist.Add(sidecars, use)
			use = sidecars
		} else {
			running := v1.ResourceList{}
			resourcelist.Add(running, use)
			resourcelist.Add(running, sidecars)
			use = running
		}
		resourcelist.Max(initPeak, use)
	}
	resourcelist.Max(total, initPeak)
	return total
}
