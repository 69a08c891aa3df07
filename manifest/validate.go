package manifest

import (
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/validation"
)

// ValidateWorkload returns the API server's refusal of a workload read from a manifest (a
// Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController or
// PodTemplate), or nil when a cluster would accept it: on a copy, it gives the object what the
// API server gives one being created (the namespace "default" when it names none, a name from its
// generateName, a UID, the API server's defaults and create strategy: defaults.SetObjectDefaultsWorkload
// and defaults.PrepareWorkloadForCreate with opts), then validates it (validation.ValidateObject).
// Use it as Options.CheckWorkload. Pods are validated once admitted, not here; other kinds give nil.
func ValidateWorkload(obj runtime.Object, opts ...defaults.Option) error {
	if obj == nil {
		return nil
	}
	obj = obj.DeepCopyObject()
	meta, err := apimeta.Accessor(obj)
	if err != nil {
		return nil
	}
	if meta.GetNamespace() == "" {
		meta.SetNamespace(defaults.DefaultNamespace)
	}
	if meta.GetName() == "" && meta.GetGenerateName() != "" {
		meta.SetName(generatedName(meta.GetGenerateName(), meta.GetNamespace()))
	}
	if meta.GetUID() == "" {
		meta.SetUID(defaults.RenderUID(meta.GetNamespace(), meta.GetName()))
	}
	defaults.SetObjectDefaultsWorkload(obj, opts...)
	defaults.PrepareWorkloadForCreate(obj, opts...)
	return validation.ValidateObject(obj)
}
