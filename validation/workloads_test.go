package validation

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/defaults"
)

// wlMeta is the metadata of a workload named web in the default namespace.
func wlMeta() metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "6f1c1a52-0000-4000-8000-000000000001"}
}

// wlTemplate is a defaulted pod template labeled app=web, restarting as given.
func wlTemplate(restart v1.RestartPolicy) v1.PodTemplateSpec {
	t := v1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       v1.PodSpec{RestartPolicy: restart, Containers: []v1.Container{{Name: "c", Image: "nginx:1.27"}}},
	}
	defaults.SetDefaultsPodTemplateSpec(&t)
	return t
}

// wlSelector selects app=web.
func wlSelector() *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
}

// wlIntOrString is a pointer to an integer or percentage.
func wlIntOrString(v intstr.IntOrString) *intstr.IntOrString { return &v }

// wlDeployment is a valid Deployment as the API server defaults it, changed by edit.
func wlDeployment(edit func(*appsv1.Deployment)) runtime.Object {
	d := &appsv1.Deployment{ObjectMeta: wlMeta(), Spec: appsv1.DeploymentSpec{
		Replicas: ptr.To[int32](1), Selector: wlSelector(), Template: wlTemplate(v1.RestartPolicyAlways),
		Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{
			MaxUnavailable: wlIntOrString(intstr.FromString("25%")), MaxSurge: wlIntOrString(intstr.FromString("25%")),
		}},
		RevisionHistoryLimit: ptr.To[int32](10), ProgressDeadlineSeconds: ptr.To[int32](600),
	}}
	edit(d)
	return d
}

// wlReplicaSet is a valid ReplicaSet, changed by edit.
func wlReplicaSet(edit func(*appsv1.ReplicaSet)) runtime.Object {
	rs := &appsv1.ReplicaSet{ObjectMeta: wlMeta(), Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](1), Selector: wlSelector(), Template: wlTemplate(v1.RestartPolicyAlways)}}
	edit(rs)
	return rs
}

// wlDaemonSet is a valid DaemonSet as the API server defaults it, changed by edit.
func wlDaemonSet(edit func(*appsv1.DaemonSet)) runtime.Object {
	ds := &appsv1.DaemonSet{ObjectMeta: wlMeta(), Spec: appsv1.DaemonSetSpec{
		Selector: wlSelector(), Template: wlTemplate(v1.RestartPolicyAlways), RevisionHistoryLimit: ptr.To[int32](10),
		UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: &appsv1.RollingUpdateDaemonSet{
			MaxUnavailable: wlIntOrString(intstr.FromInt32(1)), MaxSurge: wlIntOrString(intstr.FromInt32(0)),
		}},
	}}
	edit(ds)
	return ds
}

// wlClaim is a valid claim template for a gibibyte, read-write once.
func wlClaim() v1.PersistentVolumeClaim {
	return v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data"}, Spec: v1.PersistentVolumeClaimSpec{
		AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce},
		Resources:   v1.VolumeResourceRequirements{Requests: v1.ResourceList{v1.ResourceStorage: resource.MustParse("1Gi")}},
		VolumeMode:  ptr.To(v1.PersistentVolumeFilesystem),
	}}
}

// wlStatefulSet is a valid StatefulSet as the API server defaults it, changed by edit.
func wlStatefulSet(edit func(*appsv1.StatefulSet)) runtime.Object {
	s := &appsv1.StatefulSet{ObjectMeta: wlMeta(), Spec: appsv1.StatefulSetSpec{
		Replicas: ptr.To[int32](1), Selector: wlSelector(), Template: wlTemplate(v1.RestartPolicyAlways), ServiceName: "web",
		PodManagementPolicy: appsv1.OrderedReadyPodManagement, RevisionHistoryLimit: ptr.To[int32](10),
		UpdateStrategy: appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType, RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{
			Partition: ptr.To[int32](0), MaxUnavailable: wlIntOrString(intstr.FromInt32(1)),
		}},
		PersistentVolumeClaimRetentionPolicy: &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: appsv1.RetainPersistentVolumeClaimRetentionPolicyType, WhenScaled: appsv1.RetainPersistentVolumeClaimRetentionPolicyType,
		},
	}}
	edit(s)
	return s
}

// wlJobSpec is the spec of a Job as the API server defaults it, with no selector.
func wlJobSpec() batchv1.JobSpec {
	return batchv1.JobSpec{
		Parallelism: ptr.To[int32](1), Completions: ptr.To[int32](1), BackoffLimit: ptr.To[int32](6),
		CompletionMode: ptr.To(batchv1.NonIndexedCompletion), Suspend: ptr.To(false), ManualSelector: ptr.To(false),
		PodReplacementPolicy: ptr.To(batchv1.TerminatingOrFailed), Template: wlTemplate(v1.RestartPolicyNever),
	}
}

// wlJob is a valid Job as the API server defaults it (its selector to be generated), changed by
// edit.
func wlJob(edit func(*batchv1.Job)) runtime.Object {
	j := &batchv1.Job{ObjectMeta: wlMeta(), Spec: wlJobSpec()}
	edit(j)
	return j
}

// wlCronJob is a valid CronJob as the API server defaults it, changed by edit.
func wlCronJob(edit func(*batchv1.CronJob)) runtime.Object {
	spec := wlJobSpec()
	spec.ManualSelector = nil // a CronJob's job template is not defaulted as a Job is
	c := &batchv1.CronJob{ObjectMeta: wlMeta(), Spec: batchv1.CronJobSpec{
		Schedule: "*/5 * * * *", ConcurrencyPolicy: batchv1.AllowConcurrent, Suspend: ptr.To(false),
		SuccessfulJobsHistoryLimit: ptr.To[int32](3), FailedJobsHistoryLimit: ptr.To[int32](1),
		JobTemplate: batchv1.JobTemplateSpec{Spec: spec},
	}}
	edit(c)
	return c
}

// wlReplicationController is a valid ReplicationController as the API server defaults it,
// changed by edit.
func wlReplicationController(edit func(*v1.ReplicationController)) runtime.Object {
	t := wlTemplate(v1.RestartPolicyAlways)
	rc := &v1.ReplicationController{ObjectMeta: wlMeta(), Spec: v1.ReplicationControllerSpec{
		Replicas: ptr.To[int32](1), Selector: map[string]string{"app": "web"}, Template: &t,
	}}
	edit(rc)
	return rc
}

// wlPodTemplate is a valid PodTemplate, changed by edit.
func wlPodTemplate(edit func(*v1.PodTemplate)) runtime.Object {
	pt := &v1.PodTemplate{ObjectMeta: wlMeta(), Template: wlTemplate(v1.RestartPolicyAlways)}
	edit(pt)
	return pt
}

// wlText is the text of ValidateObject's error, "" for none.
func wlText(obj runtime.Object) string {
	if err := ValidateObject(obj); err != nil {
		return err.Error()
	}
	return ""
}

const (
	wlNotSelected = "`selector` does not match template `labels`"
	wlDNSLabelMsg = schDNSLabelMsg
)

func TestValidateObjectAppsWorkloads(t *testing.T) {
	tests := []struct {
		name string
		obj  runtime.Object
		want string
	}{
		{name: "a defaulted Deployment whose selector selects its template is valid", obj: wlDeployment(func(*appsv1.Deployment) {})},
		{
			name: "a Deployment whose selector does not select its template is refused",
			obj:  wlDeployment(func(d *appsv1.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "api"} }),
			want: `Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api"}: ` + wlNotSelected,
		},
		{
			name: "a Deployment needs a selector, and selects nothing without one",
			obj:  wlDeployment(func(d *appsv1.Deployment) { d.Spec.Selector = nil }),
			want: `Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + wlNotSelected + `]`,
		},
		{
			name: "a Deployment's selector may not be empty",
			obj:  wlDeployment(func(d *appsv1.Deployment) { d.Spec.Selector = &metav1.LabelSelector{} }),
			want: `Deployment.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment`,
		},
		{
			name: "a Deployment's selector that does not convert is refused, and the template is not checked",
			obj: wlDeployment(func(d *appsv1.Deployment) {
				d.Spec.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Near"}}}
				d.Spec.Template.Spec.RestartPolicy = v1.RestartPolicyNever
			}),
			want: `Deployment.apps "web" is invalid: [spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator, spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near"}]}: invalid label selector]`,
		},
		{
			name: "a Deployment's replicas may not be negative",
			obj:  wlDeployment(func(d *appsv1.Deployment) { d.Spec.Replicas = ptr.To[int32](-1) }),
			want: `Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`,
		},
		{
			name: "a Deployment's pods restart Always, and its ReplicaSet's pods have no active deadline",
			obj: wlDeployment(func(d *appsv1.Deployment) {
				d.Spec.Template.Spec.RestartPolicy = v1.RestartPolicyOnFailure
				d.Spec.Template.Spec.ActiveDeadlineSeconds = ptr.To[int64](60)
			}),
			want: `Deployment.apps "web" is invalid: [spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always", spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported]`,
		},
		{
			name: "an unknown Deployment strategy is refused, quoted as the API server's internal struct",
			obj:  wlDeployment(func(d *appsv1.Deployment) { d.Spec.Strategy = appsv1.DeploymentStrategy{Type: "BlueGreen"} }),
			want: `Deployment.apps "web" is invalid: spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"`,
		},
		{
			name: "a Recreate Deployment has no rollingUpdate",
			obj: wlDeployment(func(d *appsv1.Deployment) {
				d.Spec.Strategy.Type = appsv1.RecreateDeploymentStrategyType
			}),
			want: "Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
		},
		{
			name: "maxUnavailable and maxSurge may not both be 0",
			obj: wlDeployment(func(d *appsv1.Deployment) {
				d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: wlIntOrString(intstr.FromString("0%")), MaxSurge: wlIntOrString(intstr.FromInt32(0))}
			}),
			want: "Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0",
		},
		{
			name: "maxUnavailable is at most 100% and maxSurge a number or percentage",
			obj: wlDeployment(func(d *appsv1.Deployment) {
				d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxUnavailable: wlIntOrString(intstr.FromString("150%")), MaxSurge: wlIntOrString(intstr.FromString("many"))}
			}),
			want: `Deployment.apps "web" is invalid: [spec.strategy.rollingUpdate.maxSurge: Invalid value: "many": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%'), spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%]`,
		},
		{
			name: "progressDeadlineSeconds must be above minReadySeconds",
			obj: wlDeployment(func(d *appsv1.Deployment) {
				d.Spec.MinReadySeconds = 600
			}),
			want: `Deployment.apps "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds`,
		},
		{
			name: "a Deployment's rollback annotation becomes a revision that may not be negative",
			obj:  wlDeployment(func(d *appsv1.Deployment) { d.Annotations = map[string]string{appsv1.DeprecatedRollbackTo: "-1"} }),
			want: `Deployment.apps "web" is invalid: spec.rollback.version: Invalid value: -1: must be greater than or equal to 0`,
		},
		{
			name: "a Deployment's errors come in the API server's order",
			obj: wlDeployment(func(d *appsv1.Deployment) {
				d.Name = "Web"
				d.Spec.RevisionHistoryLimit = ptr.To[int32](-1)
				d.Spec.Replicas = ptr.To[int32](-1)
				d.Spec.Template.Labels = nil
			}),
			want: `Deployment.apps "Web" is invalid: [metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.metadata.labels: Invalid value: null: ` + wlNotSelected + `, spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0]`,
		},
		{name: "a defaulted ReplicaSet is valid", obj: wlReplicaSet(func(*appsv1.ReplicaSet) {})},
		{
			name: "a ReplicaSet's empty selector is worded as a Deployment's, and minReadySeconds may not be negative",
			obj: wlReplicaSet(func(rs *appsv1.ReplicaSet) {
				rs.Spec.Selector = &metav1.LabelSelector{}
				rs.Spec.MinReadySeconds = -1
			}),
			want: `ReplicaSet.apps "web" is invalid: [spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0, spec.selector: Invalid value: {}: empty selector is invalid for deployment]`,
		},
		{name: "a defaulted DaemonSet is valid", obj: wlDaemonSet(func(*appsv1.DaemonSet) {})},
		{
			name: "a DaemonSet whose selector does not select its template is refused",
			obj: wlDaemonSet(func(ds *appsv1.DaemonSet) {
				ds.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
			}),
			want: `DaemonSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + wlNotSelected,
		},
		{
			name: "a DaemonSet's selector may not be empty",
			obj:  wlDaemonSet(func(ds *appsv1.DaemonSet) { ds.Spec.Selector = &metav1.LabelSelector{} }),
			want: `DaemonSet.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for daemonset`,
		},
		{
			name: "a DaemonSet's rolling update needs exactly one of maxUnavailable and maxSurge",
			obj: wlDaemonSet(func(ds *appsv1.DaemonSet) {
				ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = wlIntOrString(intstr.FromInt32(0))
			}),
			want: `DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0`,
		},
		{
			name: "a DaemonSet's maxSurge may not be set beside maxUnavailable",
			obj: wlDaemonSet(func(ds *appsv1.DaemonSet) {
				ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = wlIntOrString(intstr.FromString("10%"))
			}),
			want: `DaemonSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "10%": may not be set when maxUnavailable is non-zero`,
		},
		{
			name: "an unknown DaemonSet update strategy is refused, quoted as the API server's internal struct",
			obj:  wlDaemonSet(func(ds *appsv1.DaemonSet) { ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: "Canary"} }),
			want: `DaemonSet.apps "web" is invalid: spec.updateStrategy: Unsupported value: {"Type":"Canary","RollingUpdate":null}: supported values: "RollingUpdate", "OnDelete"`,
		},
		{
			name: "a DaemonSet's template generation below 1 is raised to 1 on create, not refused",
			obj: wlDaemonSet(func(ds *appsv1.DaemonSet) {
				ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: "-3"}
			}),
		},
		{name: "a defaulted StatefulSet with a claim template is valid", obj: wlStatefulSet(func(s *appsv1.StatefulSet) { s.Spec.VolumeClaimTemplates = []v1.PersistentVolumeClaim{wlClaim()} })},
		{
			name: "a StatefulSet's name is a DNS label",
			obj:  wlStatefulSet(func(s *appsv1.StatefulSet) { s.Name = "web.v2" }),
			want: `StatefulSet.apps "web.v2" is invalid: metadata.name: Invalid value: "web.v2": must not contain dots`,
		},
		{
			name: "a StatefulSet's pod management policy is OrderedReady or Parallel",
			obj:  wlStatefulSet(func(s *appsv1.StatefulSet) { s.Spec.PodManagementPolicy = "Eventually" }),
			want: `StatefulSet.apps "web" is invalid: spec.podManagementPolicy: Invalid value: "Eventually": must be 'OrderedReady' or 'Parallel'`,
		},
		{
			name: "the Recreate update strategy is refused while StatefulSetRecreateStrategy is off",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				s.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.RecreateStatefulSetStrategyType}
			}),
			want: `StatefulSet.apps "web" is invalid: spec.updateStrategy: Invalid value: {"Type":"Recreate","RollingUpdate":null}: must be 'RollingUpdate' or 'OnDelete'`,
		},
		{
			name: "an OnDelete StatefulSet has no rollingUpdate",
			obj:  wlStatefulSet(func(s *appsv1.StatefulSet) { s.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType }),
			want: `StatefulSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: {"Partition":0,"MaxUnavailable":1}: only allowed for updateStrategy 'RollingUpdate'`,
		},
		{
			name: "a StatefulSet's partition may not be negative nor maxUnavailable 0",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				s.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: ptr.To[int32](-1), MaxUnavailable: wlIntOrString(intstr.FromString("0%"))}
			}),
			want: `StatefulSet.apps "web" is invalid: [spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0, spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "0%": cannot be 0]`,
		},
		{
			name: "a StatefulSet's claim retention policies are Retain or Delete",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				s.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = "Keep"
			}),
			want: `StatefulSet.apps "web" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: "Keep": supported values: "Retain", "Delete"`,
		},
		{
			name: "a StatefulSet's claim template needs an access mode and a storage request",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				s.Spec.VolumeClaimTemplates = []v1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}
			}),
			want: `StatefulSet.apps "web" is invalid: [spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required, spec.volumeClaimTemplates[0].spec.resources[storage]: Required value]`,
		},
		{
			name: "a claim template's storage request is above zero and its modes known, ReadWriteOncePod alone",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				c := wlClaim()
				c.Spec.AccessModes = []v1.PersistentVolumeAccessMode{v1.ReadWriteOncePod, v1.ReadWriteOnce, "WriteOnly"}
				c.Spec.Resources.Requests[v1.ResourceStorage] = resource.MustParse("0")
				s.Spec.VolumeClaimTemplates = []v1.PersistentVolumeClaim{c}
			}),
			want: `StatefulSet.apps "web" is invalid: [spec.volumeClaimTemplates[0].spec.accessModes: Unsupported value: "WriteOnly": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", spec.volumeClaimTemplates[0].spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes, spec.volumeClaimTemplates[0].spec.resources[storage]: Invalid value: "0": must be greater than zero]`,
		},
		{
			name: "a claim template's data source must match its data source reference, quoted as {}",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				c := wlClaim()
				c.Spec.DataSource = &v1.TypedLocalObjectReference{Kind: "PersistentVolumeClaim", Name: "a"}
				c.Spec.DataSourceRef = &v1.TypedObjectReference{Kind: "PersistentVolumeClaim", Name: "b"}
				s.Spec.VolumeClaimTemplates = []v1.PersistentVolumeClaim{c}
			}),
			want: `StatefulSet.apps "web" is invalid: spec.volumeClaimTemplates[0].spec: Invalid value: {}: must match dataSourceRef`,
		},
		{
			name: "a StatefulSet's counts, start ordinal and service name are checked",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				s.Spec.Replicas = ptr.To[int32](-1)
				s.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: -1}
				s.Spec.ServiceName = "Web_Svc"
			}),
			want: `StatefulSet.apps "web" is invalid: [spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0, spec.serviceName: Invalid value: "Web_Svc": ` + wlDNSLabelMsg + `]`,
		},
		{
			name: "a StatefulSet's selector may not be empty",
			obj:  wlStatefulSet(func(s *appsv1.StatefulSet) { s.Spec.Selector = &metav1.LabelSelector{} }),
			want: `StatefulSet.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for statefulset`,
		},
		{
			name: "a StatefulSet's template hostname and subdomain are not checked, the controller sets them",
			obj: wlStatefulSet(func(s *appsv1.StatefulSet) {
				s.Spec.Template.Spec.Hostname = "Not_A_Label"
				s.Spec.Template.Spec.Subdomain = "Not_A_Label"
			}),
		},
		{
			name: "a StatefulSet's template labels are checked once however often the API server repeats the check",
			obj:  wlStatefulSet(func(s *appsv1.StatefulSet) { s.Spec.Template.Labels["tier"] = "a b" }),
			want: `StatefulSet.apps "web" is invalid: spec.template.labels: Invalid value: "a b": ` + schLabelValueMsg,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, wlText(tt.obj))
		})
	}
}

func TestValidateObjectBatchWorkloads(t *testing.T) {
	tests := []struct {
		name string
		obj  runtime.Object
		want string
	}{
		{name: "a defaulted Job whose selector is generated is valid", obj: wlJob(func(*batchv1.Job) {})},
		{
			name: "a Job's pods restart OnFailure or Never",
			obj:  wlJob(func(j *batchv1.Job) { j.Spec.Template.Spec.RestartPolicy = v1.RestartPolicyAlways }),
			want: `Job.batch "web" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`,
		},
		{
			name: "a Job's manual selector must select its template",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.ManualSelector = ptr.To(true)
				j.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "batch"}}
			}),
			want: `Job.batch "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + wlNotSelected,
		},
		{
			name: "a template label the generated selector needs, set to another value, is refused",
			obj:  wlJob(func(j *batchv1.Job) { j.Spec.Template.Labels["job-name"] = "other" }),
			want: `Job.batch "web" is invalid: spec.template.metadata.labels[job-name]: Invalid value: {"app":"web","batch.kubernetes.io/controller-uid":"6f1c1a52-0000-4000-8000-000000000001","batch.kubernetes.io/job-name":"web","controller-uid":"6f1c1a52-0000-4000-8000-000000000001","job-name":"other"}: must be 'web'`,
		},
		{
			name: "a Job's counts may not be negative",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.Parallelism = ptr.To[int32](-1)
				j.Spec.ActiveDeadlineSeconds = ptr.To[int64](-1)
				j.Spec.TTLSecondsAfterFinished = ptr.To[int32](-1)
			}),
			want: `Job.batch "web" is invalid: [spec.parallelism: Invalid value: -1: must be greater than or equal to 0, spec.activeDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0, spec.ttlSecondsAfterFinished: Invalid value: -1: must be greater than or equal to 0]`,
		},
		{
			name: "an Indexed Job needs completions",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
				j.Spec.Completions = nil
			}),
			want: `Job.batch "web" is invalid: spec.completions: Required value: when completion mode is Indexed`,
		},
		{
			name: "an Indexed Job's last pod hostname must be a DNS label",
			obj: wlJob(func(j *batchv1.Job) {
				j.Name = strings.Repeat("a", 62)
				j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
				j.Spec.Completions = ptr.To[int32](10)
			}),
			want: `Job.batch "` + strings.Repeat("a", 62) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("a", 62) + `": will not able to create pod with invalid DNS label: ` + strings.Repeat("a", 62) + `-9`,
		},
		{
			name: "backoffLimitPerIndex and maxFailedIndexes need an Indexed Job, maxFailedIndexes backoffLimitPerIndex",
			obj:  wlJob(func(j *batchv1.Job) { j.Spec.MaxFailedIndexes = ptr.To[int32](1) }),
			want: `Job.batch "web" is invalid: [spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified, spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode]`,
		},
		{
			name: "managedBy is a domain-prefixed path",
			obj:  wlJob(func(j *batchv1.Job) { j.Spec.ManagedBy = ptr.To("kueue") }),
			want: `Job.batch "web" is invalid: spec.managedBy: Invalid value: "kueue": must be a domain-prefixed path (such as "acme.io/foo")`,
		},
		{
			name: "a pod failure policy rule needs exit codes or pod conditions, and pods restarting Never",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.Template.Spec.RestartPolicy = v1.RestartPolicyOnFailure
				j.Spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
				j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionFailJob}}}
			}),
			want: `Job.batch "web" is invalid: [spec.podFailurePolicy.rules[0]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required, spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified]`,
		},
		{
			name: "a pod failure policy's exit codes are ordered, distinct, not 0 with In, of a known container",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
				j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
					Action:      batchv1.PodFailurePolicyActionFailIndex,
					OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{ContainerName: ptr.To("sidecar"), Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{3, 0, 3}},
				}}}
			}),
			want: `Job.batch "web" is invalid: [spec.podFailurePolicy.rules[0].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set, spec.podFailurePolicy.rules[0].onExitCodes.containerName: Invalid value: "sidecar": must be one of the container or initContainer names in the pod template, spec.podFailurePolicy.rules[0].onExitCodes.values[1]: Invalid value: 0: must not be 0 for the In operator, spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3, spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [3,0,3]: must be ordered]`,
		},
		{
			name: "a pod failure policy needs pod replacement policy Failed",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
					Action: batchv1.PodFailurePolicyActionIgnore, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: v1.DisruptionTarget, Status: v1.ConditionTrue}},
				}}}
			}),
			want: `Job.batch "web" is invalid: spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"`,
		},
		{
			name: "a success policy needs an Indexed Job, quoted as the API server's internal struct",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededIndexes: ptr.To("0")}}}
			}),
			want: `Job.batch "web" is invalid: spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"0","SucceededCount":null}]}: requires indexed completion mode`,
		},
		{
			name: "a success policy's indexes and count fit the completions",
			obj: wlJob(func(j *batchv1.Job) {
				j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
				j.Spec.Completions = ptr.To[int32](3)
				j.Spec.SuccessPolicy = &batchv1.SuccessPolicy{Rules: []batchv1.SuccessPolicyRule{{SucceededIndexes: ptr.To("1,3"), SucceededCount: ptr.To[int32](4)}}}
			}),
			want: `Job.batch "web" is invalid: [spec.successPolicy.rules[0].succeededIndexes: Invalid value: "1,3": error parsing succeededIndexes: too large index: "3", spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 3 (the number of specified completions), spec.successPolicy.rules[0].succeededCount: Invalid value: 4: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)]`,
		},
		{name: "a defaulted CronJob is valid", obj: wlCronJob(func(*batchv1.CronJob) {})},
		{
			name: "a CronJob's schedule must parse",
			obj:  wlCronJob(func(c *batchv1.CronJob) { c.Spec.Schedule = "*/5 * * *" }),
			want: `CronJob.batch "web" is invalid: spec.schedule: Invalid value: "*/5 * * *": expected exactly 5 fields, found 4: [*/5 * * *]`,
		},
		{
			name: "a CronJob's schedule may not name a time zone",
			obj:  wlCronJob(func(c *batchv1.CronJob) { c.Spec.Schedule = "CRON_TZ=UTC 0 3 * * *" }),
			want: `CronJob.batch "web" is invalid: spec.schedule: Invalid value: "CRON_TZ=UTC 0 3 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead`,
		},
		{
			name: "a missing schedule is reported last, after the API server's other errors",
			obj: wlCronJob(func(c *batchv1.CronJob) {
				c.Spec.Schedule = ""
				c.Spec.ConcurrencyPolicy = "Sometimes"
			}),
			want: `CronJob.batch "web" is invalid: [spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace", spec.schedule: Required value]`,
		},
		{
			name: "a CronJob's time zone is one of the time zone database",
			obj:  wlCronJob(func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr.To("Mars/Olympus") }),
			want: `CronJob.batch "web" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus`,
		},
		{
			name: "a CronJob's time zone may not be Local",
			obj:  wlCronJob(func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr.To("Local") }),
			want: `CronJob.batch "web" is invalid: spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones`,
		},
		{
			name: "a CronJob's time zone parts look like names before they are looked up",
			obj:  wlCronJob(func(c *batchv1.CronJob) { c.Spec.TimeZone = ptr.To("../etc/passwd") }),
			want: `CronJob.batch "web" is invalid: spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd`,
		},
		{
			name: "a CronJob's name leaves room for the scheduled time",
			obj:  wlCronJob(func(c *batchv1.CronJob) { c.Name = strings.Repeat("c", 53) }),
			want: `CronJob.batch "` + strings.Repeat("c", 53) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("c", 53) + `": must be no more than 52 characters`,
		},
		{
			name: "a CronJob's job template has no selector and no manual selector",
			obj: wlCronJob(func(c *batchv1.CronJob) {
				c.Spec.JobTemplate.Spec.Selector = wlSelector()
				c.Spec.JobTemplate.Spec.ManualSelector = ptr.To(true)
			}),
			want: "CronJob.batch \"web\" is invalid: [spec.jobTemplate.spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"web\"}}: `selector` will be auto-generated, spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: \"nil\", \"false\"]",
		},
		{
			name: "a CronJob's job template is checked as a Job's spec",
			obj: wlCronJob(func(c *batchv1.CronJob) {
				c.Spec.JobTemplate.Spec.BackoffLimit = ptr.To[int32](-1)
				c.Spec.FailedJobsHistoryLimit = ptr.To[int32](-1)
			}),
			want: `CronJob.batch "web" is invalid: [spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0, spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, wlText(tt.obj))
		})
	}
}

func TestValidateObjectCoreWorkloads(t *testing.T) {
	tests := []struct {
		name string
		obj  runtime.Object
		want string
	}{
		{name: "a defaulted ReplicationController is valid", obj: wlReplicationController(func(*v1.ReplicationController) {})},
		{
			name: "a ReplicationController's name is checked declaratively, whose length limit counts bytes",
			obj:  wlReplicationController(func(rc *v1.ReplicationController) { rc.Name = strings.Repeat("r", 254) }),
			want: `ReplicationController "` + strings.Repeat("r", 254) + `" is invalid: metadata.name: Invalid value: "` + strings.Repeat("r", 254) + `": must be no more than 253 bytes`,
		},
		{
			name: "a ReplicationController's selector must select something",
			obj: wlReplicationController(func(rc *v1.ReplicationController) {
				rc.Spec.Selector = nil // defaulted from the template's labels, which it has none of
				rc.Spec.Template.Labels = nil
			}),
			want: `ReplicationController "web" is invalid: spec.selector: Required value`,
		},
		{
			name: "a ReplicationController needs a template",
			obj:  wlReplicationController(func(rc *v1.ReplicationController) { rc.Spec.Template = nil }),
			want: `ReplicationController "web" is invalid: spec.template: Required value`,
		},
		{
			name: "a ReplicationController's name, replicas and minReadySeconds are reported last, as its declarative validation appends them",
			obj: wlReplicationController(func(rc *v1.ReplicationController) {
				rc.Name = "Web"
				rc.Spec.Replicas = ptr.To[int32](-1)
				rc.Spec.MinReadySeconds = -1
				rc.Spec.Selector = map[string]string{"app": "api"}
			}),
			want: `ReplicationController "Web" is invalid: [spec.template.metadata.labels: Invalid value: {"app":"web"}: ` + wlNotSelected + `, metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0]`,
		},
		{name: "a PodTemplate is valid", obj: wlPodTemplate(func(*v1.PodTemplate) {})},
		{
			name: "a pod template holds no ephemeral containers",
			obj: wlPodTemplate(func(pt *v1.PodTemplate) {
				pt.Template.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", Image: "busybox", TerminationMessagePolicy: v1.TerminationMessageReadFile, ImagePullPolicy: v1.PullIfNotPresent}}}
			}),
			want: `PodTemplate "web" is invalid: template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template`,
		},
		{
			name: "a pod template's labels and annotations are checked",
			obj: wlPodTemplate(func(pt *v1.PodTemplate) {
				pt.Template.Labels = map[string]string{"b": "x y", "a": "x y"}
				pt.Template.Annotations = map[string]string{"not a key": ""}
			}),
			want: `PodTemplate "web" is invalid: [template.labels: Invalid value: "x y": ` + schLabelValueMsg + `, template.annotations: Invalid value: "not a key": ` + schNameMsg + `]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, wlText(tt.obj))
		})
	}
}

func TestValidateObjectRefusesAnAnnotationThatDoesNotConvert(t *testing.T) {
	tests := []struct {
		name string
		obj  runtime.Object
		want string
	}{
		{
			name: "a Deployment's rollback annotation must be a number",
			obj:  wlDeployment(func(d *appsv1.Deployment) { d.Annotations = map[string]string{appsv1.DeprecatedRollbackTo: "latest"} }),
			want: `Deployment in version "v1" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=latest as int64: strconv.ParseInt: parsing "latest": invalid syntax`,
		},
		{
			name: "a DaemonSet's template generation annotation must be a number",
			obj: wlDaemonSet(func(ds *appsv1.DaemonSet) {
				ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: ""}
			}),
			want: `DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "": invalid syntax`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateObject(tt.obj)
			require.EqualError(t, err, tt.want)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.True(t, apierrors.IsBadRequest(err), "the API server's Bad Request")
			var invalid *Error
			assert.False(t, errors.As(err, &invalid), "not a field validation error")
		})
	}
}

func TestValidateObjectWorkloadErrorIsTheAPIServers(t *testing.T) {
	err := ValidateObject(wlDeployment(func(d *appsv1.Deployment) { d.Spec.Template.Labels = map[string]string{"app": "api"} }))
	var invalid *Error
	require.ErrorAs(t, err, &invalid)
	assert.Equal(t, "Deployment.apps", invalid.Kind.String())
	assert.Equal(t, "web", invalid.Name)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.True(t, apierrors.IsInvalid(err))
}

func TestValidateObjectLeavesItsInputAlone(t *testing.T) {
	job := wlJob(func(*batchv1.Job) {}).(*batchv1.Job)
	before := job.DeepCopy()
	require.NoError(t, ValidateObject(job))
	assert.Equal(t, before, job, "the generated selector and labels are the API server's, not written back")
}

func TestValidateObjectDoesNotValidateOtherKinds(t *testing.T) {
	assert.NoError(t, ValidateObject(&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "Not A Name"}}))
	assert.NoError(t, ValidateObject(nil))
	assert.NoError(t, ValidateObject((*appsv1.Deployment)(nil)), "a nil workload is no object to refuse")
}
