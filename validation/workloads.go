package validation

// Workloads that carry a pod template, and the entry point for any object.

import (
	"reflect"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The group and kind of each object ValidateObject validates, as the API server names them in
// its refusal.
var (
	kindPod                   = schema.GroupKind{Kind: "Pod"}
	kindPodTemplate           = schema.GroupKind{Kind: "PodTemplate"}
	kindReplicationController = schema.GroupKind{Kind: "ReplicationController"}
	kindDeployment            = schema.GroupKind{Group: appsv1.GroupName, Kind: "Deployment"}
	kindReplicaSet            = schema.GroupKind{Group: appsv1.GroupName, Kind: "ReplicaSet"}
	kindStatefulSet           = schema.GroupKind{Group: appsv1.GroupName, Kind: "StatefulSet"}
	kindDaemonSet             = schema.GroupKind{Group: appsv1.GroupName, Kind: "DaemonSet"}
	kindJob                   = schema.GroupKind{Group: batchv1.GroupName, Kind: "Job"}
	kindCronJob               = schema.GroupKind{Group: batchv1.GroupName, Kind: "CronJob"}
)

// ValidateObject returns the API server's refusal of obj being created, as an *Error, or nil when
// it accepts obj. It validates Pods (ValidatePodCreate, and ValidateEphemeralContainers for the
// ephemeral containers a pod read back from a cluster holds) and the workloads that carry a pod
// template: Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController
// and PodTemplate. Other kinds, and nil, are not validated.
//
// obj is taken as the API server holds it when its create strategy runs: defaulted as the API
// server defaults its kind (the workload's own defaults, such as a Deployment's strategy and a
// StatefulSet's podManagementPolicy, as well as its pod template's), in its namespace and with its
// name (a generateName already turned into one). What the create strategy then does before it
// validates is done here on a copy: a Job's generated selector and template labels (from its UID,
// see validateJob), the internal fields a Deployment's and a DaemonSet's annotations convert to.
// An annotation the API server cannot convert gives the API server's Bad Request, an error that
// is not an *Error but is still errors.Is(err, ErrInvalid).
//
// The errors come in the API server's order, each text at most once, and those that
// kube-apiserver v1.37 reports through its declarative validation (a ReplicationController's
// name, replicas and minReadySeconds, a CronJob's missing schedule) come last, as it appends them.
func ValidateObject(obj runtime.Object) error {
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	switch o := obj.(type) {
	case *v1.Pod:
		return NewError(kindPod, o.Name, uniqueErrors(validatePodReadBack(o)))
	case *v1.PodTemplate:
		return NewError(kindPodTemplate, o.Name, validatePodTemplate(o))
	case *v1.ReplicationController:
		return NewError(kindReplicationController, o.Name, validateReplicationController(o))
	case *appsv1.Deployment:
		errs, err := validateDeployment(o)
		return workloadError(kindDeployment, o.Name, errs, err)
	case *appsv1.ReplicaSet:
		return NewError(kindReplicaSet, o.Name, validateReplicaSet(o))
	case *appsv1.StatefulSet:
		return NewError(kindStatefulSet, o.Name, validateStatefulSet(o))
	case *appsv1.DaemonSet:
		errs, err := validateDaemonSet(o)
		return workloadError(kindDaemonSet, o.Name, errs, err)
	case *batchv1.Job:
		return NewError(kindJob, o.Name, validateJob(o))
	case *batchv1.CronJob:
		return NewError(kindCronJob, o.Name, validateCronJob(o))
	}
	return nil
}

// workloadError is the error ValidateObject returns for a workload whose validation may fail
// before it starts (convErr, when its annotations do not convert) or end with errs.
func workloadError(kind schema.GroupKind, name string, errs field.ErrorList, convErr error) error {
	if convErr != nil {
		return convErr
	}
	return NewError(kind, name, errs)
}

// validatePodReadBack validates a pod as created and, when it holds ephemeral containers (a pod
// read back from a cluster, where they were added later through the ephemeralcontainers
// subresource), those as that subresource does.
func validatePodReadBack(pod *v1.Pod) field.ErrorList {
	if len(pod.Spec.EphemeralContainers) == 0 {
		return ValidatePodCreate(pod)
	}
	created := *pod
	created.Spec.EphemeralContainers = nil
	return append(ValidatePodCreate(&created), ValidateEphemeralContainers(pod)...)
}

// uniqueErrors drops from errs each error whose text an earlier one has, as the API server's
// declarative validation step does with the errors of its handwritten validation (it runs for
// every kind here) before it appends its own.
func uniqueErrors(errs field.ErrorList) field.ErrorList {
	agg := errs.ToAggregate()
	if agg == nil {
		return nil
	}
	out := make(field.ErrorList, 0, len(agg.Errors()))
	for _, e := range agg.Errors() {
		out = append(out, e.(*field.Error))
	}
	return out
}
