package defaults

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// The labels a Job's selector is generated from; the unprefixed ones are their legacy forms,
// still written beside them.
const (
	legacyJobNameLabel       = "job-name"
	legacyControllerUIDLabel = "controller-uid"
)

// PrepareWorkloadForCreate applies to a workload what the v1.37 API server's create strategy of
// its kind (PrepareForCreate in k8s.io/kubernetes/pkg/registry) applies before validation, and
// what converting it to the stored version and back leaves, for the kinds
// SetObjectDefaultsWorkload defaults:
//   - metadata.generation becomes 1 and the status is cleared (a PodTemplate has none);
//   - the pod template loses the fields the gates leave out, as a Pod does in PrepareForCreate
//     (DropDisabledTemplateFields; the package documentation lists them);
//   - a Job without spec.manualSelector true gets the template labels
//     batch.kubernetes.io/controller-uid and controller-uid (the Job's UID) and
//     batch.kubernetes.io/job-name and job-name (its name) where the template has none (and so
//     does the Job when SetObjectDefaultsWorkload gave it the template's labels map), and the
//     selector matchLabels batch.kubernetes.io/controller-uid where it has none; a Job's and a
//     CronJob's job template lose spec.scheduling without WorkloadWithJob;
//   - a StatefulSet loses rollingUpdate.maxUnavailable without MaxUnavailableStatefulSet, and its
//     volumeClaimTemplates read apiVersion v1, kind PersistentVolumeClaim;
//   - a DaemonSet's template generation, the annotation deprecated.daemonset.template.generation,
//     is at least 1 (written as the API server formats it); an annotation that is not a number
//     is left alone (the API server refuses such a DaemonSet when it decodes it);
//   - a Deployment's empty deprecated.deployment.rollback.to annotation is removed.
//
// Call it after SetObjectDefaultsWorkload, on a workload with its name and UID set: the API server
// gives an object both before this step, and a Job's labels carry them. Other objects and nil are
// left alone. Gates come from WithFeatureGates (DefaultFeatureGates when not given).
func PrepareWorkloadForCreate(obj runtime.Object, opts ...Option) {
	gates := newSettings(opts).gates
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if o != nil {
			o.Generation, o.Status = 1, appsv1.DeploymentStatus{}
			if v, ok := o.Annotations[appsv1.DeprecatedRollbackTo]; ok && v == "" {
				delete(o.Annotations, appsv1.DeprecatedRollbackTo)
			}
			prepareTemplate(&o.Spec.Template, gates)
		}
	case *appsv1.ReplicaSet:
		if o != nil {
			o.Generation, o.Status = 1, appsv1.ReplicaSetStatus{}
			prepareTemplate(&o.Spec.Template, gates)
		}
	case *appsv1.StatefulSet:
		if o != nil {
			prepareStatefulSet(o, gates)
		}
	case *appsv1.DaemonSet:
		if o != nil {
			o.Generation, o.Status = 1, appsv1.DaemonSetStatus{}
			raiseTemplateGeneration(&o.ObjectMeta)
			prepareTemplate(&o.Spec.Template, gates)
		}
	case *batchv1.Job:
		if o != nil {
			if o.Spec.ManualSelector == nil || !*o.Spec.ManualSelector {
				generateJobSelector(o)
			}
			o.Generation, o.Status = 1, batchv1.JobStatus{}
			prepareJobSpec(&o.Spec, gates)
		}
	case *batchv1.CronJob:
		if o != nil {
			o.Generation, o.Status = 1, batchv1.CronJobStatus{}
			prepareJobSpec(&o.Spec.JobTemplate.Spec, gates)
		}
	case *v1.ReplicationController:
		if o != nil {
			o.Generation, o.Status = 1, v1.ReplicationControllerStatus{}
			if o.Spec.Template != nil {
				prepareTemplate(o.Spec.Template, gates)
			}
		}
	case *v1.PodTemplate:
		if o != nil {
			o.Generation = 1
			prepareTemplate(&o.Template, gates)
		}
	}
}

// prepareTemplate mirrors DropDisabledTemplateFields for a template being created.
func prepareTemplate(t *v1.PodTemplateSpec, gates FeatureGates) {
	dropDisabledFields(&t.Spec, t.Annotations, gates)
}

func prepareStatefulSet(s *appsv1.StatefulSet, gates FeatureGates) {
	s.Generation, s.Status = 1, appsv1.StatefulSetStatus{}
	if r := s.Spec.UpdateStrategy.RollingUpdate; r != nil && !gates.MaxUnavailableStatefulSet {
		r.MaxUnavailable = nil
	}
	prepareTemplate(&s.Spec.Template, gates)
	// The stored version names the claims' kind, as conversions before v1.17 did.
	for i := range s.Spec.VolumeClaimTemplates {
		s.Spec.VolumeClaimTemplates[i].APIVersion = "v1"
		s.Spec.VolumeClaimTemplates[i].Kind = "PersistentVolumeClaim"
	}
}

// raiseTemplateGeneration gives a DaemonSet the template generation 1 its create strategy gives
// one below 1; the v1 API keeps the generation in an annotation.
func raiseTemplateGeneration(meta *metav1.ObjectMeta) {
	generation := int64(0)
	if v, ok := meta.Annotations[appsv1.DeprecatedTemplateGeneration]; ok {
		g, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return
		}
		generation = g
	}
	if generation < 1 {
		generation = 1
	}
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations[appsv1.DeprecatedTemplateGeneration] = strconv.FormatInt(generation, 10)
}

// prepareJobSpec mirrors the part of the Job and CronJob create strategies that concerns a Job's
// spec: pkg/api/job DropDisabledFields, then the template's.
func prepareJobSpec(s *batchv1.JobSpec, gates FeatureGates) {
	if !gates.WorkloadWithJob {
		s.Scheduling = nil
	}
	prepareTemplate(&s.Template, gates)
}

// generateJobSelector mirrors the Job strategy's generateSelector: labels the user set are kept
// (validation refuses those that conflict), so that the selector on the Job's UID selects exactly
// its Pods.
func generateJobSelector(j *batchv1.Job) {
	t := &j.Spec.Template
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for _, key := range [...]string{legacyJobNameLabel, batchv1.JobNameLabel} {
		if _, ok := t.Labels[key]; !ok {
			t.Labels[key] = j.Name
		}
	}
	for _, key := range [...]string{legacyControllerUIDLabel, batchv1.ControllerUidLabel} {
		if _, ok := t.Labels[key]; !ok {
			t.Labels[key] = string(j.UID)
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &metav1.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := j.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel]; !ok {
		j.Spec.Selector.MatchLabels[batchv1.ControllerUidLabel] = string(j.UID)
	}
}
