package defaults

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// rawTemplate is a pod template as written, and defaultedTemplate the same after
// SetDefaultsPodTemplateSpec.
func rawTemplate() v1.PodTemplateSpec {
	return v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{Containers: []v1.Container{{Name: "web", Image: "nginx"}}},
	}
}

func defaultedTemplate() v1.PodTemplateSpec {
	t := rawTemplate()
	SetDefaultsPodTemplateSpec(&t)
	return t
}

func TestSetObjectDefaultsWorkload(t *testing.T) {
	meta := metav1.ObjectMeta{Name: "web", Namespace: "default"}
	pct25 := ptr.To(intstr.FromString("25%"))
	one, zero := ptr.To(intstr.FromInt32(1)), ptr.To(intstr.FromInt32(0))
	retain := appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	tests := []struct {
		name      string
		opts      []Option
		obj, want runtime.Object
	}{
		{"a Deployment gets 1 replica, a RollingUpdate of 25% unavailable and 25% surge, 10 revisions and a 600 s deadline",
			nil,
			&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Template: rawTemplate()}},
			&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{
				Replicas: ptr.To[int32](1),
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
					RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: pct25, MaxSurge: pct25}},
				RevisionHistoryLimit: ptr.To[int32](10), ProgressDeadlineSeconds: ptr.To[int32](600),
				Template: defaultedTemplate(),
			}}},
		{"a Recreate Deployment gets no rollingUpdate, and its set fields are kept",
			nil,
			&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](0),
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}, RevisionHistoryLimit: ptr.To[int32](2),
				ProgressDeadlineSeconds: ptr.To[int32](30), Template: rawTemplate()}},
			&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](0),
				Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}, RevisionHistoryLimit: ptr.To[int32](2),
				ProgressDeadlineSeconds: ptr.To[int32](30), Template: defaultedTemplate()}}},
		{"a Deployment's partial rollingUpdate is completed",
			nil,
			&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3), RevisionHistoryLimit: ptr.To[int32](10),
				ProgressDeadlineSeconds: ptr.To[int32](600), Strategy: appsv1.DeploymentStrategy{RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: one}},
				Template: rawTemplate()}},
			&appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3), RevisionHistoryLimit: ptr.To[int32](10),
				ProgressDeadlineSeconds: ptr.To[int32](600), Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
					RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: pct25, MaxSurge: one}}, Template: defaultedTemplate()}}},
		{"a ReplicaSet gets 1 replica",
			nil,
			&appsv1.ReplicaSet{ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Template: rawTemplate()}},
			&appsv1.ReplicaSet{ObjectMeta: meta, Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](1), Template: defaultedTemplate()}}},
		{"a StatefulSet gets OrderedReady, a RollingUpdate of partition 0 and 1 unavailable, Retain claims, 1 replica and 10 revisions",
			nil,
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Template: rawTemplate()}},
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{
				PodManagementPolicy: appsv1.OrderedReadyPodManagement,
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
					RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr.To[int32](0), MaxUnavailable: one}},
				PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: retain, WhenScaled: retain},
				Replicas:                             ptr.To[int32](1), RevisionHistoryLimit: ptr.To[int32](10),
				Template: defaultedTemplate(),
			}}},
		{"a StatefulSet that names RollingUpdate without a rollingUpdate block gets none, and a half-set retention policy is completed",
			nil,
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Template: rawTemplate(),
				UpdateStrategy:                       appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType},
				PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType}}},
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{
				PodManagementPolicy: appsv1.OrderedReadyPodManagement,
				UpdateStrategy:      appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType},
				PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
					WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType, WhenScaled: retain},
				Replicas: ptr.To[int32](1), RevisionHistoryLimit: ptr.To[int32](10), Template: defaultedTemplate(),
			}}},
		{"without MaxUnavailableStatefulSet a StatefulSet's rollingUpdate gets no maxUnavailable",
			gatesWith(func(g *FeatureGates) { g.MaxUnavailableStatefulSet = false }),
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Template: rawTemplate()}},
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{
				PodManagementPolicy: appsv1.OrderedReadyPodManagement,
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
					RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr.To[int32](0)}},
				PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: retain, WhenScaled: retain},
				Replicas:                             ptr.To[int32](1), RevisionHistoryLimit: ptr.To[int32](10), Template: defaultedTemplate(),
			}}},
		{"a StatefulSet's volumeClaimTemplates get phase Pending, volumeMode Filesystem and rounded resources",
			nil,
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](1), RevisionHistoryLimit: ptr.To[int32](10),
				PodManagementPolicy: appsv1.ParallelPodManagement, UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType},
				PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: retain, WhenScaled: retain},
				VolumeClaimTemplates: []v1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}, Spec: v1.PersistentVolumeClaimSpec{
					Resources: v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resourceMust("0.0001")}}}}},
				Template: rawTemplate()}},
			&appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](1), RevisionHistoryLimit: ptr.To[int32](10),
				PodManagementPolicy: appsv1.ParallelPodManagement, UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType},
				PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: retain, WhenScaled: retain},
				VolumeClaimTemplates: []v1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}, Spec: v1.PersistentVolumeClaimSpec{
					VolumeMode: ptr.To(v1.PersistentVolumeFilesystem),
					Resources:  v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resourceMust("1m")}}},
					Status: v1.PersistentVolumeClaimStatus{Phase: v1.ClaimPending}}},
				Template: defaultedTemplate()}}},
		{"a DaemonSet gets a RollingUpdate of 1 unavailable and no surge, and 10 revisions",
			nil,
			&appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Template: rawTemplate()}},
			&appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{
				UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType,
					RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxUnavailable: one, MaxSurge: zero}},
				RevisionHistoryLimit: ptr.To[int32](10), Template: defaultedTemplate(),
			}}},
		{"an OnDelete DaemonSet gets no rollingUpdate",
			nil,
			&appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType},
				Template: rawTemplate()}},
			&appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType},
				RevisionHistoryLimit: ptr.To[int32](10), Template: defaultedTemplate()}}},
		{"a Job gets 1 completion and parallelism, backoffLimit 6, NonIndexed, not suspended, TerminatingOrFailed, no manual selector and its template's labels",
			nil,
			&batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{Template: rawTemplate()}},
			&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}}, Spec: batchv1.JobSpec{
				Completions: ptr.To[int32](1), Parallelism: ptr.To[int32](1), BackoffLimit: ptr.To[int32](6),
				CompletionMode: ptr.To(batchv1.NonIndexedCompletion), Suspend: ptr.To(false),
				PodReplacementPolicy: ptr.To(batchv1.TerminatingOrFailed), ManualSelector: ptr.To(false), Template: defaultedTemplate(),
			}}},
		{"a Job with parallelism set keeps completions unset; with backoffLimitPerIndex its backoffLimit is unlimited; with a podFailurePolicy it replaces Failed pods only",
			nil,
			&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"own": "label"}}, Spec: batchv1.JobSpec{
				Parallelism: ptr.To[int32](4), BackoffLimitPerIndex: ptr.To[int32](2),
				PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionIgnore,
					OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: v1.DisruptionTarget}}}}},
				Template: rawTemplate()}},
			&batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"own": "label"}}, Spec: batchv1.JobSpec{
				Parallelism: ptr.To[int32](4), BackoffLimitPerIndex: ptr.To[int32](2), BackoffLimit: ptr.To[int32](math.MaxInt32),
				PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionIgnore,
					OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: v1.DisruptionTarget, Status: v1.ConditionTrue}}}}},
				CompletionMode: ptr.To(batchv1.NonIndexedCompletion), Suspend: ptr.To(false),
				PodReplacementPolicy: ptr.To(batchv1.Failed), ManualSelector: ptr.To(false), Template: defaultedTemplate(),
			}}},
		{"a Job with completions set gets parallelism 1",
			nil,
			&batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{Completions: ptr.To[int32](5), Template: v1.PodTemplateSpec{}}},
			&batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{
				Completions: ptr.To[int32](5), Parallelism: ptr.To[int32](1), BackoffLimit: ptr.To[int32](6),
				CompletionMode: ptr.To(batchv1.NonIndexedCompletion), Suspend: ptr.To(false),
				PodReplacementPolicy: ptr.To(batchv1.TerminatingOrFailed), ManualSelector: ptr.To(false),
				Template: v1.PodTemplateSpec{Spec: v1.PodSpec{DNSPolicy: v1.DNSClusterFirst, RestartPolicy: v1.RestartPolicyAlways,
					SecurityContext: &v1.PodSecurityContext{}, TerminationGracePeriodSeconds: ptr.To[int64](30), SchedulerName: v1.DefaultSchedulerName}},
			}}},
		{"a CronJob gets Allow, not suspended, 3 and 1 jobs kept, and its job template only its pod template and failure patterns",
			nil,
			&batchv1.CronJob{ObjectMeta: meta, Spec: batchv1.CronJobSpec{Schedule: "* * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
				PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionIgnore,
					OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: v1.DisruptionTarget}}}}},
				Template: rawTemplate()}}}},
			&batchv1.CronJob{ObjectMeta: meta, Spec: batchv1.CronJobSpec{Schedule: "* * * * *",
				ConcurrencyPolicy: batchv1.AllowConcurrent, Suspend: ptr.To(false),
				SuccessfulJobsHistoryLimit: ptr.To[int32](3), FailedJobsHistoryLimit: ptr.To[int32](1),
				JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
					PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionIgnore,
						OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: v1.DisruptionTarget, Status: v1.ConditionTrue}}}}},
					Template: defaultedTemplate()}}}}},
		{"a ReplicationController takes its selector and labels from its template and gets 1 replica",
			nil,
			&v1.ReplicationController{ObjectMeta: meta, Spec: v1.ReplicationControllerSpec{Template: ptr.To(rawTemplate())}},
			&v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}},
				Spec: v1.ReplicationControllerSpec{Replicas: ptr.To[int32](1), Selector: map[string]string{"app": "web"}, Template: ptr.To(defaultedTemplate())}}},
		{"a ReplicationController's own selector and labels are kept, and one without a template gets only replicas",
			nil,
			&v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"mine": "x"}},
				Spec: v1.ReplicationControllerSpec{Selector: map[string]string{"mine": "x"}}},
			&v1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "a", Labels: map[string]string{"mine": "x"}},
				Spec: v1.ReplicationControllerSpec{Replicas: ptr.To[int32](1), Selector: map[string]string{"mine": "x"}}}},
		{"a PodTemplate gets its template defaulted",
			nil,
			&v1.PodTemplate{ObjectMeta: meta, Template: rawTemplate()},
			&v1.PodTemplate{ObjectMeta: meta, Template: defaultedTemplate()}},
		{"a Pod is not a workload and is left alone",
			nil, &v1.Pod{ObjectMeta: meta}, &v1.Pod{ObjectMeta: meta}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.obj.DeepCopyObject()
			SetObjectDefaultsWorkload(got, tt.opts...)
			assertSemantic(t, tt.want, got)

			again := got.DeepCopyObject()
			SetObjectDefaultsWorkload(again, tt.opts...)
			assertSemantic(t, got, again, "applying it twice differs from once")
		})
	}
}

func TestSetObjectDefaultsWorkloadSharesLabelMapsAsTheAPIServer(t *testing.T) {
	job := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "pi", UID: "u"}, Spec: batchv1.JobSpec{Template: rawTemplate()}}
	rc := &v1.ReplicationController{Spec: v1.ReplicationControllerSpec{Template: ptr.To(rawTemplate())}}
	SetObjectDefaultsWorkload(job)
	SetObjectDefaultsWorkload(rc)
	rc.Spec.Template.Labels["added"] = "later"
	assert.Equal(t, map[string]string{"app": "web", "added": "later"}, rc.Labels, "the ReplicationController's labels are its template's map")
	assert.Equal(t, map[string]string{"app": "web", "added": "later"}, rc.Spec.Selector, "the ReplicationController's selector is its template's map")

	PrepareWorkloadForCreate(job)
	assert.Equal(t, map[string]string{"app": "web", "job-name": "pi", "batch.kubernetes.io/job-name": "pi",
		"controller-uid": "u", "batch.kubernetes.io/controller-uid": "u"}, job.Labels,
		"a Job whose labels came from its template gets the generated labels too, as the API server validates and stores it")
}

func TestSetObjectDefaultsWorkloadComposesWithTemplateDefaults(t *testing.T) {
	raw := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: v1.PodTemplateSpec{Spec: v1.PodSpec{
		Containers: []v1.Container{{Name: "web", Image: "nginx", LivenessProbe: &v1.Probe{ProbeHandler: v1.ProbeHandler{HTTPGet: &v1.HTTPGetAction{}}}}},
		Volumes:    []v1.Volume{{Name: "v"}},
	}}}}
	pre := raw.DeepCopy()
	SetDefaultsPodTemplateSpec(&pre.Spec.Template) // what package manifest does when expanding
	SetObjectDefaultsWorkload(pre)
	SetObjectDefaultsWorkload(raw)
	assertSemantic(t, raw, pre, "a template defaulted first comes out as one defaulted by SetObjectDefaultsWorkload alone")
}

func TestSetObjectDefaultsWorkloadLeavesNilAlone(t *testing.T) {
	assert.NotPanics(t, func() {
		SetObjectDefaultsWorkload(nil)
		SetObjectDefaultsWorkload((*appsv1.Deployment)(nil))
		SetObjectDefaultsWorkload((*v1.ReplicationController)(nil))
		PrepareWorkloadForCreate(nil)
		PrepareWorkloadForCreate((*batchv1.Job)(nil))
		PrepareWorkloadForCreate((*v1.PodTemplate)(nil))
	})
}

func TestPrepareWorkloadForCreate(t *testing.T) {
	const uid = "0b9c8d7e-1111-4222-8333-444455556666"
	meta := func(edit func(*metav1.ObjectMeta)) metav1.ObjectMeta {
		m := metav1.ObjectMeta{Name: "web", Namespace: "default", UID: uid}
		if edit != nil {
			edit(&m)
		}
		return m
	}
	generation1 := func(m *metav1.ObjectMeta) { m.Generation = 1 }
	annotated := func(value string) func(*metav1.ObjectMeta) {
		return func(m *metav1.ObjectMeta) {
			m.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: value}
		}
	}
	generation1Annotated := func(value string) func(*metav1.ObjectMeta) {
		return func(m *metav1.ObjectMeta) { annotated(value)(m); m.Generation = 1 }
	}
	// alpha is a template with fields v1.37's default gates drop and a legacy annotation.
	alpha := func() v1.PodTemplateSpec {
		t := rawTemplate()
		t.Annotations = map[string]string{"pod.beta.kubernetes.io/init-containers": "[]", "keep": "me"}
		t.Spec.Volumes = []v1.Volume{{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{Mode: ptr.To[int32](0o700)}}}}
		t.Spec.SchedulingGroup = &v1.PodSchedulingGroup{}
		return t
	}
	alphaDropped := func() v1.PodTemplateSpec {
		t := rawTemplate()
		t.Annotations = map[string]string{"keep": "me"}
		t.Spec.Volumes = []v1.Volume{{Name: "e", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
		return t
	}
	jobTemplate := func(labels map[string]string) v1.PodTemplateSpec {
		t := rawTemplate()
		t.Labels = labels
		return t
	}
	generatedLabels := map[string]string{"app": "web", "job-name": "web", "batch.kubernetes.io/job-name": "web",
		"controller-uid": uid, "batch.kubernetes.io/controller-uid": uid}
	tests := []struct {
		name      string
		opts      []Option
		obj, want runtime.Object
	}{
		{"a Deployment's status is cleared, its generation 1 and its template's disabled fields and legacy annotations dropped",
			nil,
			&appsv1.Deployment{ObjectMeta: meta(func(m *metav1.ObjectMeta) { m.Generation = 4 }), Spec: appsv1.DeploymentSpec{Template: alpha()},
				Status: appsv1.DeploymentStatus{Replicas: 3, CollisionCount: ptr.To[int32](1)}},
			&appsv1.Deployment{ObjectMeta: meta(generation1), Spec: appsv1.DeploymentSpec{Template: alphaDropped()}}},
		{"a Deployment's empty rollback annotation is removed, a set one kept",
			nil,
			&appsv1.Deployment{ObjectMeta: meta(func(m *metav1.ObjectMeta) {
				m.Annotations = map[string]string{appsv1.DeprecatedRollbackTo: ""}
			})},
			&appsv1.Deployment{ObjectMeta: meta(func(m *metav1.ObjectMeta) { m.Generation, m.Annotations = 1, map[string]string{} })}},
		{"a ReplicaSet's template loses its disabled fields",
			nil,
			&appsv1.ReplicaSet{ObjectMeta: meta(nil), Spec: appsv1.ReplicaSetSpec{Template: alpha()}, Status: appsv1.ReplicaSetStatus{Replicas: 2}},
			&appsv1.ReplicaSet{ObjectMeta: meta(generation1), Spec: appsv1.ReplicaSetSpec{Template: alphaDropped()}}},
		{"a StatefulSet's claim templates read apiVersion v1, kind PersistentVolumeClaim, and its maxUnavailable is kept",
			nil,
			&appsv1.StatefulSet{ObjectMeta: meta(nil), Spec: appsv1.StatefulSetSpec{
				UpdateStrategy:       appsv1.StatefulSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: ptr.To(intstr.FromInt32(2))}},
				VolumeClaimTemplates: []v1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}},
				Status: appsv1.StatefulSetStatus{Replicas: 1}},
			&appsv1.StatefulSet{ObjectMeta: meta(generation1), Spec: appsv1.StatefulSetSpec{
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: ptr.To(intstr.FromInt32(2))}},
				VolumeClaimTemplates: []v1.PersistentVolumeClaim{{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
					ObjectMeta: metav1.ObjectMeta{Name: "data"}}}}}},
		{"without MaxUnavailableStatefulSet a StatefulSet's maxUnavailable is dropped",
			gatesWith(func(g *FeatureGates) { g.MaxUnavailableStatefulSet = false }),
			&appsv1.StatefulSet{ObjectMeta: meta(nil), Spec: appsv1.StatefulSetSpec{
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{MaxUnavailable: ptr.To(intstr.FromInt32(2))}}}},
			&appsv1.StatefulSet{ObjectMeta: meta(generation1), Spec: appsv1.StatefulSetSpec{
				UpdateStrategy: appsv1.StatefulSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{}}}}},
		{"a DaemonSet with no template generation gets 1",
			nil,
			&appsv1.DaemonSet{ObjectMeta: meta(nil), Status: appsv1.DaemonSetStatus{NumberReady: 1}},
			&appsv1.DaemonSet{ObjectMeta: meta(generation1Annotated("1"))}},
		{"a DaemonSet's template generation 0 becomes 1",
			nil,
			&appsv1.DaemonSet{ObjectMeta: meta(annotated("0"))},
			&appsv1.DaemonSet{ObjectMeta: meta(generation1Annotated("1"))}},
		{"a DaemonSet's template generation 7 is kept, written as the API server formats it",
			nil,
			&appsv1.DaemonSet{ObjectMeta: meta(annotated("+07"))},
			&appsv1.DaemonSet{ObjectMeta: meta(generation1Annotated("7"))}},
		{"a DaemonSet's template generation that is not a number is left for the API server's decoding to refuse",
			nil,
			&appsv1.DaemonSet{ObjectMeta: meta(annotated("seven"))},
			&appsv1.DaemonSet{ObjectMeta: meta(generation1Annotated("seven"))}},
		{"a Job without a manual selector gets template labels of its name and UID and a selector on its UID",
			nil,
			&batchv1.Job{ObjectMeta: meta(nil), Spec: batchv1.JobSpec{ManualSelector: ptr.To(false), Template: rawTemplate()},
				Status: batchv1.JobStatus{Active: 1}},
			&batchv1.Job{ObjectMeta: meta(generation1), Spec: batchv1.JobSpec{ManualSelector: ptr.To(false),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/controller-uid": uid}},
				Template: jobTemplate(generatedLabels)}}},
		{"a Job's own selector labels are kept, for validation to judge, and a template without labels gets them",
			nil,
			&batchv1.Job{ObjectMeta: meta(nil), Spec: batchv1.JobSpec{
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/controller-uid": "other"}, MatchExpressions: []metav1.LabelSelectorRequirement{in("a", "b")}},
				Template: jobTemplate(map[string]string{"job-name": "mine"})}},
			&batchv1.Job{ObjectMeta: meta(generation1), Spec: batchv1.JobSpec{
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"batch.kubernetes.io/controller-uid": "other"}, MatchExpressions: []metav1.LabelSelectorRequirement{in("a", "b")}},
				Template: jobTemplate(map[string]string{"job-name": "mine", "batch.kubernetes.io/job-name": "web",
					"controller-uid": uid, "batch.kubernetes.io/controller-uid": uid})}}},
		{"a Job with manualSelector true gets no selector and no labels, and loses spec.scheduling without WorkloadWithJob",
			nil,
			&batchv1.Job{ObjectMeta: meta(nil), Spec: batchv1.JobSpec{ManualSelector: ptr.To(true), Template: rawTemplate(),
				Scheduling: &batchv1.JobSchedulingConfiguration{}}},
			&batchv1.Job{ObjectMeta: meta(generation1), Spec: batchv1.JobSpec{ManualSelector: ptr.To(true), Template: rawTemplate()}}},
		{"a Job keeps spec.scheduling with WorkloadWithJob",
			gatesWith(func(g *FeatureGates) { g.WorkloadWithJob = true }),
			&batchv1.Job{ObjectMeta: meta(nil), Spec: batchv1.JobSpec{ManualSelector: ptr.To(true), Scheduling: &batchv1.JobSchedulingConfiguration{}}},
			&batchv1.Job{ObjectMeta: meta(generation1), Spec: batchv1.JobSpec{ManualSelector: ptr.To(true), Scheduling: &batchv1.JobSchedulingConfiguration{}}}},
		{"a CronJob's job template gets no selector, loses spec.scheduling and its template's disabled fields",
			nil,
			&batchv1.CronJob{ObjectMeta: meta(nil), Spec: batchv1.CronJobSpec{JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
				Scheduling: &batchv1.JobSchedulingConfiguration{}, Template: alpha()}}},
				Status: batchv1.CronJobStatus{Active: []v1.ObjectReference{{Name: "web-1"}}}},
			&batchv1.CronJob{ObjectMeta: meta(generation1), Spec: batchv1.CronJobSpec{JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
				Template: alphaDropped()}}}}},
		{"a ReplicationController without a template gets generation 1 and no status",
			nil,
			&v1.ReplicationController{ObjectMeta: meta(nil), Status: v1.ReplicationControllerStatus{Replicas: 1}},
			&v1.ReplicationController{ObjectMeta: meta(generation1)}},
		{"a ReplicationController's template loses its disabled fields",
			nil,
			&v1.ReplicationController{ObjectMeta: meta(nil), Spec: v1.ReplicationControllerSpec{Template: ptr.To(alpha())},
				Status: v1.ReplicationControllerStatus{Replicas: 1}},
			&v1.ReplicationController{ObjectMeta: meta(generation1), Spec: v1.ReplicationControllerSpec{Template: ptr.To(alphaDropped())}}},
		{"a PodTemplate gets generation 1 and its template's disabled fields dropped",
			nil,
			&v1.PodTemplate{ObjectMeta: meta(nil), Template: alpha()},
			&v1.PodTemplate{ObjectMeta: meta(generation1), Template: alphaDropped()}},
		{"a Pod is not a workload and is left alone",
			nil, &v1.Pod{ObjectMeta: meta(nil)}, &v1.Pod{ObjectMeta: meta(nil)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.obj.DeepCopyObject()
			PrepareWorkloadForCreate(got, tt.opts...)
			assertSemantic(t, tt.want, got)
		})
	}
}
