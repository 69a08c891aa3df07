package defaults

import (
	"math"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Workload defaults, as the apps/v1 and batch/v1 defaulters write them.
const (
	defaultRevisionHistoryLimit       = 10
	defaultProgressDeadlineSeconds    = 600
	defaultJobBackoffLimit            = 6
	defaultSuccessfulJobsHistoryLimit = 3
	defaultFailedJobsHistoryLimit     = 1
)

// SetObjectDefaultsWorkload fills the fields of a workload that the v1.37 API server defaults
// when it decodes one (the generated SetObjectDefaults_<Kind> of k8s.io/kubernetes/pkg/apis/apps/v1,
// batch/v1 and core/v1): its own fields (the package documentation lists them), then its pod
// template exactly as SetDefaultsPodTemplateSpec does, and a StatefulSet's volumeClaimTemplates.
// The kinds are *appsv1.Deployment, *appsv1.ReplicaSet, *appsv1.StatefulSet, *appsv1.DaemonSet,
// *batchv1.Job, *batchv1.CronJob, *v1.ReplicationController and *v1.PodTemplate; any other
// object, a Pod included (see SetObjectDefaultsPod), and nil are left alone. Fields that are set
// are kept. Applying it twice gives the same object as once, and a template already defaulted by
// SetDefaultsPodTemplateSpec (as package manifest does) comes out the same. Like the API server,
// it shares maps: a Job's or ReplicationController's labels (and the latter's selector) taken
// from the template are the template's labels map; copy them before changing one alone.
func SetObjectDefaultsWorkload(obj runtime.Object, opts ...Option) {
	gates := newSettings(opts).gates
	switch o := obj.(type) {
	case *appsv1.Deployment:
		if o != nil {
			setDeploymentDefaults(o)
			SetDefaultsPodTemplateSpec(&o.Spec.Template)
		}
	case *appsv1.ReplicaSet:
		if o != nil {
			if o.Spec.Replicas == nil {
				o.Spec.Replicas = ptr.To[int32](1)
			}
			SetDefaultsPodTemplateSpec(&o.Spec.Template)
		}
	case *appsv1.StatefulSet:
		if o != nil {
			setStatefulSetDefaults(o, gates)
			SetDefaultsPodTemplateSpec(&o.Spec.Template)
			for i := range o.Spec.VolumeClaimTemplates {
				setClaimTemplateDefaults(&o.Spec.VolumeClaimTemplates[i])
			}
		}
	case *appsv1.DaemonSet:
		if o != nil {
			setDaemonSetDefaults(o)
			SetDefaultsPodTemplateSpec(&o.Spec.Template)
		}
	case *batchv1.Job:
		if o != nil {
			setJobDefaults(o)
			setPodFailurePolicyDefaults(o.Spec.PodFailurePolicy)
			SetDefaultsPodTemplateSpec(&o.Spec.Template)
		}
	case *batchv1.CronJob:
		if o != nil {
			setCronJobDefaults(o)
			// The job template's own fields are not defaulted: the Job made from it is, on create.
			setPodFailurePolicyDefaults(o.Spec.JobTemplate.Spec.PodFailurePolicy)
			SetDefaultsPodTemplateSpec(&o.Spec.JobTemplate.Spec.Template)
		}
	case *v1.ReplicationController:
		if o != nil {
			setReplicationControllerDefaults(o)
			SetDefaultsPodTemplateSpec(o.Spec.Template)
		}
	case *v1.PodTemplate:
		if o != nil {
			SetDefaultsPodTemplateSpec(&o.Template)
		}
	}
}

// setDeploymentDefaults mirrors SetDefaults_Deployment.
func setDeploymentDefaults(d *appsv1.Deployment) {
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = ptr.To[int32](1)
	}
	s := &d.Spec.Strategy
	if s.Type == "" {
		s.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if s.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			s.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromString("25%"))
		}
		if s.RollingUpdate.MaxSurge == nil {
			s.RollingUpdate.MaxSurge = ptr.To(intstr.FromString("25%"))
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = ptr.To[int32](defaultRevisionHistoryLimit)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = ptr.To[int32](defaultProgressDeadlineSeconds)
	}
}

// setStatefulSetDefaults mirrors SetDefaults_StatefulSet. An explicit RollingUpdate type with no
// rollingUpdate block stays without one, as upstream.
func setStatefulSetDefaults(s *appsv1.StatefulSet, gates FeatureGates) {
	if s.Spec.PodManagementPolicy == "" {
		s.Spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	u := &s.Spec.UpdateStrategy
	if u.Type == "" {
		u.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if u.RollingUpdate == nil {
			u.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	}
	if u.Type == appsv1.RollingUpdateStatefulSetStrategyType && u.RollingUpdate != nil {
		if u.RollingUpdate.Partition == nil {
			u.RollingUpdate.Partition = ptr.To[int32](0)
		}
		if gates.MaxUnavailableStatefulSet && u.RollingUpdate.MaxUnavailable == nil {
			u.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromInt32(1))
		}
	}
	if s.Spec.PersistentVolumeClaimRetentionPolicy == nil {
		s.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p := s.Spec.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if s.Spec.Replicas == nil {
		s.Spec.Replicas = ptr.To[int32](1)
	}
	if s.Spec.RevisionHistoryLimit == nil {
		s.Spec.RevisionHistoryLimit = ptr.To[int32](defaultRevisionHistoryLimit)
	}
}

// setClaimTemplateDefaults mirrors what SetObjectDefaults_StatefulSet applies to a
// volumeClaimTemplate: SetDefaults_PersistentVolumeClaim, SetDefaults_PersistentVolumeClaimSpec
// and the rounding of its resource lists.
func setClaimTemplateDefaults(c *v1.PersistentVolumeClaim) {
	if c.Status.Phase == "" {
		c.Status.Phase = v1.ClaimPending
	}
	if c.Spec.VolumeMode == nil {
		c.Spec.VolumeMode = ptr.To(v1.PersistentVolumeFilesystem)
	}
	roundResourceList(c.Spec.Resources.Limits)
	roundResourceList(c.Spec.Resources.Requests)
	roundResourceList(c.Status.Capacity)
	roundResourceList(c.Status.AllocatedResources)
}

// setDaemonSetDefaults mirrors SetDefaults_DaemonSet.
func setDaemonSetDefaults(d *appsv1.DaemonSet) {
	u := &d.Spec.UpdateStrategy
	if u.Type == "" {
		u.Type = appsv1.RollingUpdateDaemonSetStrategyType
	}
	if u.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		if u.RollingUpdate == nil {
			u.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
		if u.RollingUpdate.MaxUnavailable == nil {
			u.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromInt32(1))
		}
		if u.RollingUpdate.MaxSurge == nil {
			u.RollingUpdate.MaxSurge = ptr.To(intstr.FromInt32(0))
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = ptr.To[int32](defaultRevisionHistoryLimit)
	}
}

// setJobDefaults mirrors SetDefaults_Job. A Job with no labels takes its template's labels map
// itself, not a copy, as the API server does: the labels the Job create strategy then adds to the
// template become the Job's too, which the API server validates and stores.
func setJobDefaults(j *batchv1.Job) {
	s := &j.Spec
	if s.Completions == nil && s.Parallelism == nil {
		s.Completions = ptr.To[int32](1)
	}
	if s.Parallelism == nil {
		s.Parallelism = ptr.To[int32](1)
	}
	if s.BackoffLimit == nil {
		if s.BackoffLimitPerIndex != nil {
			// Failures are counted per index; the Job-wide limit then never stops it.
			s.BackoffLimit = ptr.To[int32](math.MaxInt32)
		} else {
			s.BackoffLimit = ptr.To[int32](defaultJobBackoffLimit)
		}
	}
	if s.Template.Labels != nil && len(j.Labels) == 0 {
		j.Labels = s.Template.Labels
	}
	if s.CompletionMode == nil {
		s.CompletionMode = ptr.To(batchv1.NonIndexedCompletion)
	}
	if s.Suspend == nil {
		s.Suspend = ptr.To(false)
	}
	if s.PodReplacementPolicy == nil {
		if s.PodFailurePolicy != nil {
			s.PodReplacementPolicy = ptr.To(batchv1.Failed)
		} else {
			s.PodReplacementPolicy = ptr.To(batchv1.TerminatingOrFailed)
		}
	}
	if s.ManualSelector == nil {
		s.ManualSelector = ptr.To(false)
	}
}

// setPodFailurePolicyDefaults mirrors SetDefaults_PodFailurePolicyOnPodConditionsPattern on every
// rule's onPodConditions.
func setPodFailurePolicyDefaults(p *batchv1.PodFailurePolicy) {
	if p == nil {
		return
	}
	for i := range p.Rules {
		for j := range p.Rules[i].OnPodConditions {
			if c := &p.Rules[i].OnPodConditions[j]; c.Status == "" {
				c.Status = v1.ConditionTrue
			}
		}
	}
}

// setCronJobDefaults mirrors SetDefaults_CronJob.
func setCronJobDefaults(c *batchv1.CronJob) {
	if c.Spec.ConcurrencyPolicy == "" {
		c.Spec.ConcurrencyPolicy = batchv1.AllowConcurrent
	}
	if c.Spec.Suspend == nil {
		c.Spec.Suspend = ptr.To(false)
	}
	if c.Spec.SuccessfulJobsHistoryLimit == nil {
		c.Spec.SuccessfulJobsHistoryLimit = ptr.To[int32](defaultSuccessfulJobsHistoryLimit)
	}
	if c.Spec.FailedJobsHistoryLimit == nil {
		c.Spec.FailedJobsHistoryLimit = ptr.To[int32](defaultFailedJobsHistoryLimit)
	}
}

// setReplicationControllerDefaults mirrors SetDefaults_ReplicationController and the declarative
// replicas default: an empty selector, and empty labels of the controller, become the template's
// labels map itself, as the API server shares it.
func setReplicationControllerDefaults(rc *v1.ReplicationController) {
	if t := rc.Spec.Template; t != nil && t.Labels != nil {
		if len(rc.Spec.Selector) == 0 {
			rc.Spec.Selector = t.Labels
		}
		if len(rc.Labels) == 0 {
			rc.Labels = t.Labels
		}
	}
	if rc.Spec.Replicas == nil {
		rc.Spec.Replicas = ptr.To[int32](1)
	}
}
