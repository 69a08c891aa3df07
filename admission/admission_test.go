package admission_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/defaults"
)

// newPod is a defaulted pod "web" in namespace "ns" with one container "app" and one init
// container "setup".
func newPod(edit ...func(*v1.Pod)) *v1.Pod {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: v1.PodSpec{
			InitContainers: []v1.Container{{Name: "setup", Image: "busybox:1"}},
			Containers:     []v1.Container{{Name: "app", Image: "nginx:1"}},
		},
	}
	for _, e := range edit {
		e(pod)
	}
	defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly())
	return pod
}

func tokenMount(pod *v1.Pod) v1.VolumeMount {
	return v1.VolumeMount{Name: admission.TokenVolumeName(pod), ReadOnly: true, MountPath: admission.TokenMountPath}
}

func q(s string) resource.Quantity { return resource.MustParse(s) }

var notReadyAndUnreachable = []v1.Toleration{
	{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)},
	{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)},
}

func TestServiceAccountRules(t *testing.T) {
	tokenVolume := func(name string) v1.Volume {
		return v1.Volume{Name: name, VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{
			DefaultMode: ptr.To[int32](0o644),
			Sources: []v1.VolumeProjection{
				{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3607)}},
				{ConfigMap: &v1.ConfigMapProjection{LocalObjectReference: v1.LocalObjectReference{Name: "kube-root-ca.crt"},
					Items: []v1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
				{DownwardAPI: &v1.DownwardAPIProjection{Items: []v1.DownwardAPIVolumeFile{{Path: "namespace",
					FieldRef: &v1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
			},
		}}}
	}
	cases := []struct {
		name    string
		pod     *v1.Pod
		objs    admission.Objects
		opts    []admission.Option
		check   func(t *testing.T, pod *v1.Pod)
		wantErr string
	}{
		{
			name: "a pod with no service account runs as default and mounts the token volume in init and regular containers",
			pod:  newPod(),
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, "default", pod.Spec.ServiceAccountName)
				assert.Equal(t, "default", pod.Spec.DeprecatedServiceAccount) //nolint:staticcheck // checked on purpose
				m := tokenMount(pod)
				assert.Equal(t, []v1.VolumeMount{m}, pod.Spec.InitContainers[0].VolumeMounts)
				assert.Equal(t, []v1.VolumeMount{m}, pod.Spec.Containers[0].VolumeMounts)
				assert.Equal(t, []v1.Volume{tokenVolume(m.Name)}, pod.Spec.Volumes)
			},
		},
		{
			name: "the token volume's suffix is five characters of the generated-name alphabet",
			pod:  newPod(),
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Regexp(t, `^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$`, pod.Spec.Volumes[0].Name)
			},
		},
		{
			name: "ephemeral containers do not get the mount",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.EphemeralContainers = []v1.EphemeralContainer{{EphemeralContainerCommon: v1.EphemeralContainerCommon{Name: "debug", Image: "busybox"}}}
			}),
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Empty(t, pod.Spec.EphemeralContainers[0].VolumeMounts)
			},
		},
		{
			name: "automountServiceAccountToken false on the pod mounts nothing",
			pod:  newPod(func(p *v1.Pod) { p.Spec.AutomountServiceAccountToken = ptr.To(false) }),
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Empty(t, pod.Spec.Volumes)
				assert.Empty(t, pod.Spec.Containers[0].VolumeMounts)
			},
		},
		{
			name: "automountServiceAccountToken false on the ServiceAccount mounts nothing",
			pod:  newPod(func(p *v1.Pod) { p.Spec.ServiceAccountName = "robot" }),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{
				ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: "ns"}, AutomountServiceAccountToken: ptr.To(false)}}},
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Empty(t, pod.Spec.Volumes)
				assert.Equal(t, "robot", pod.Spec.ServiceAccountName)
			},
		},
		{
			name: "the pod's automountServiceAccountToken true wins over the ServiceAccount's false",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.ServiceAccountName = "robot"
				p.Spec.AutomountServiceAccountToken = ptr.To(true)
			}),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{
				ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: "ns"}, AutomountServiceAccountToken: ptr.To(false)}}},
			check: func(t *testing.T, pod *v1.Pod) { assert.Len(t, pod.Spec.Volumes, 1) },
		},
		{
			name: "a container that mounts the token path itself keeps its mount; others get the volume",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.Volumes = []v1.Volume{{Name: "own", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
				p.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "own", MountPath: admission.TokenMountPath}}
			}),
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, []v1.VolumeMount{{Name: "own", MountPath: admission.TokenMountPath}}, pod.Spec.Containers[0].VolumeMounts)
				assert.Equal(t, []v1.VolumeMount{tokenMount(pod)}, pod.Spec.InitContainers[0].VolumeMounts)
				assert.Len(t, pod.Spec.Volumes, 2)
			},
		},
		{
			name: "when every container mounts the path itself no volume is added",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.InitContainers = nil
				p.Spec.Volumes = []v1.Volume{{Name: "own", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
				p.Spec.Containers[0].VolumeMounts = []v1.VolumeMount{{Name: "own", MountPath: admission.TokenMountPath}}
			}),
			check: func(t *testing.T, pod *v1.Pod) { assert.Len(t, pod.Spec.Volumes, 1) },
		},
		{
			name: "an existing kube-api-access- volume is reused, whatever its source, and not added again",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.Volumes = []v1.Volume{{Name: "kube-api-access-mine", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}}
			}),
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Len(t, pod.Spec.Volumes, 1)
				assert.NotNil(t, pod.Spec.Volumes[0].EmptyDir)
				assert.Equal(t, "kube-api-access-mine", pod.Spec.Containers[0].VolumeMounts[0].Name)
			},
		},
		{
			name: "a pod with no imagePullSecrets gets the ServiceAccount's in order",
			pod:  newPod(func(p *v1.Pod) { p.Spec.ServiceAccountName = "robot" }),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{
				ObjectMeta:       metav1.ObjectMeta{Name: "robot", Namespace: "ns"},
				ImagePullSecrets: []v1.LocalObjectReference{{Name: "b"}, {Name: "a"}}}}},
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, []v1.LocalObjectReference{{Name: "b"}, {Name: "a"}}, pod.Spec.ImagePullSecrets)
			},
		},
		{
			name: "a pod's own imagePullSecrets are kept",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.ServiceAccountName = "robot"
				p.Spec.ImagePullSecrets = []v1.LocalObjectReference{{Name: "mine"}}
			}),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{
				ObjectMeta:       metav1.ObjectMeta{Name: "robot", Namespace: "ns"},
				ImagePullSecrets: []v1.LocalObjectReference{{Name: "b"}}}}},
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, []v1.LocalObjectReference{{Name: "mine"}}, pod.Spec.ImagePullSecrets)
			},
		},
		{
			name:    "a missing ServiceAccount is refused",
			pod:     newPod(func(p *v1.Pod) { p.Spec.ServiceAccountName = "robot" }),
			wantErr: `pods "web" is forbidden: error looking up service account ns/robot: serviceaccount "robot" not found`,
		},
		{
			name: "a ServiceAccount of another namespace does not count",
			pod:  newPod(func(p *v1.Pod) { p.Spec.ServiceAccountName = "robot" }),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{
				ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: "other"}}}},
			wantErr: `pods "web" is forbidden: error looking up service account ns/robot: serviceaccount "robot" not found`,
		},
		{
			name: "AssumeMissing stands in for a missing ServiceAccount",
			pod:  newPod(func(p *v1.Pod) { p.Spec.ServiceAccountName = "robot" }),
			opts: []admission.Option{admission.AssumeMissing(nil)},
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Equal(t, "robot", pod.Spec.ServiceAccountName)
				assert.Len(t, pod.Spec.Volumes, 1)
			},
		},
		{
			name: "a mirror pod is not given a ServiceAccount",
			pod: newPod(func(p *v1.Pod) {
				p.Annotations = map[string]string{"kubernetes.io/config.mirror": "x"}
			}),
			check: func(t *testing.T, pod *v1.Pod) {
				assert.Empty(t, pod.Spec.ServiceAccountName)
				assert.Empty(t, pod.Spec.Volumes)
			},
		},
		{
			name: "a mirror pod may not name a ServiceAccount",
			pod: newPod(func(p *v1.Pod) {
				p.Annotations = map[string]string{"kubernetes.io/config.mirror": "x"}
				p.Spec.ServiceAccountName = "robot"
			}),
			wantErr: `pods "web" is forbidden: a mirror pod may not reference service accounts`,
		},
		{
			name: "a mirror pod may not name a Secret",
			pod: newPod(func(p *v1.Pod) {
				p.Annotations = map[string]string{"kubernetes.io/config.mirror": "x"}
				p.Spec.Volumes = []v1.Volume{{Name: "s", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "s"}}}}
			}),
			wantErr: `pods "web" is forbidden: a mirror pod may not reference secrets`,
		},
		{
			name: "a mirror pod may not project a token",
			pod: newPod(func(p *v1.Pod) {
				p.Annotations = map[string]string{"kubernetes.io/config.mirror": "x"}
				p.Spec.Volumes = []v1.Volume{{Name: "t", VolumeSource: v1.VolumeSource{Projected: &v1.ProjectedVolumeSource{
					Sources: []v1.VolumeProjection{{ServiceAccountToken: &v1.ServiceAccountTokenProjection{Path: "t"}}}}}}}
			}),
			wantErr: `pods "web" is forbidden: a mirror pod may not use ServiceAccountToken volume projections`,
		},
		{
			name: "enforce-mountable-secrets refuses a Secret volume the ServiceAccount does not list",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.ServiceAccountName = "robot"
				p.Spec.Volumes = []v1.Volume{{Name: "s", VolumeSource: v1.VolumeSource{Secret: &v1.SecretVolumeSource{SecretName: "other"}}}}
			}),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{ObjectMeta: metav1.ObjectMeta{
				Name: "robot", Namespace: "ns", Annotations: map[string]string{"kubernetes.io/enforce-mountable-secrets": "true"}}}}},
			wantErr: `pods "web" is forbidden: volume with secret.secretName="other" is not allowed because service account robot does not reference that secret`,
		},
		{
			name: "enforce-mountable-secrets refuses an init container's secretKeyRef",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.ServiceAccountName = "robot"
				p.Spec.InitContainers[0].Env = []v1.EnvVar{{Name: "X", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
					LocalObjectReference: v1.LocalObjectReference{Name: "other"}, Key: "k"}}}}
			}),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{ObjectMeta: metav1.ObjectMeta{
				Name: "robot", Namespace: "ns", Annotations: map[string]string{"kubernetes.io/enforce-mountable-secrets": "true"}}}}},
			wantErr: `pods "web" is forbidden: init container setup with envVar X referencing secret.secretName="other" is not allowed because service account robot does not reference that secret`,
		},
		{
			name: "enforce-mountable-secrets refuses an imagePullSecret the ServiceAccount does not list",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.ServiceAccountName = "robot"
				p.Spec.ImagePullSecrets = []v1.LocalObjectReference{{Name: "pull"}}
			}),
			objs: admission.Objects{ServiceAccounts: []*v1.ServiceAccount{{ObjectMeta: metav1.ObjectMeta{
				Name: "robot", Namespace: "ns", Annotations: map[string]string{"kubernetes.io/enforce-mountable-secrets": "true"}},
				Secrets: []v1.ObjectReference{{Name: "pull"}}}}},
			wantErr: `pods "web" is forbidden: imagePullSecrets[0].name="pull" is not allowed because service account robot does not reference that imagePullSecret`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.pod.DeepCopy()
			err := admission.Admit(tc.pod, &tc.objs, tc.opts...)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				var fe *admission.ForbiddenError
				assert.True(t, errors.As(err, &fe))
				assert.Equal(t, before, tc.pod, "a refused pod is left as it was")
				return
			}
			require.NoError(t, err)
			tc.check(t, tc.pod)
		})
	}
}

func TestMissingObjectsAreNotFound(t *testing.T) {
	err := admission.Admit(newPod(func(p *v1.Pod) { p.Spec.ServiceAccountName = "robot" }), nil)
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
	err = admission.Admit(newPod(func(p *v1.Pod) { p.Spec.RuntimeClassName = ptr.To("gvisor") }), nil)
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
	assert.EqualError(t, err, `pods "web" is forbidden: pod rejected: RuntimeClass "gvisor" not found`)
}

func TestAssumeMissingReports(t *testing.T) {
	var got []string
	pod := newPod(func(p *v1.Pod) {
		p.Spec.ServiceAccountName = "robot"
		p.Spec.RuntimeClassName = ptr.To("gvisor")
	})
	require.NoError(t, admission.Admit(pod, nil, admission.AssumeMissing(func(kind, ns, name string) bool {
		got = append(got, kind+" "+ns+"/"+name)
		return true
	})))
	// Each is looked up by the plugin's mutating and validating halves, and reported once.
	assert.Equal(t, []string{"ServiceAccount ns/robot", "RuntimeClass /gvisor"}, got)
}

func TestAssumeMissingDecides(t *testing.T) {
	pod := newPod(func(p *v1.Pod) {
		p.Spec.ServiceAccountName = "robot"
		p.Spec.RuntimeClassName = ptr.To("gvisor")
	})
	err := admission.Admit(pod, nil, admission.AssumeMissing(func(kind, _, _ string) bool { return kind == "ServiceAccount" }))
	assert.EqualError(t, err, `pods "web" is forbidden: pod rejected: RuntimeClass "gvisor" not found`)
}

func TestTokenVolumeNameIsStable(t *testing.T) {
	a := admission.TokenVolumeName(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "ns"}})
	b := admission.TokenVolumeName(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "ns"}})
	assert.Equal(t, a, admission.TokenVolumeName(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "ns"}}))
	assert.NotEqual(t, a, b)
	assert.Equal(t, admission.TokenVolumeName(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "x"}}),
		admission.TokenVolumeName(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "default"}}),
		"no namespace is the default namespace")
}

func TestPriorityRules(t *testing.T) {
	never := v1.PreemptNever
	lower := v1.PreemptLowerPriority
	cases := []struct {
		name       string
		pod        *v1.Pod
		classes    []*schedulingv1.PriorityClass
		wantName   string
		wantValue  int32
		wantPolicy v1.PreemptionPolicy
		wantErr    string
	}{
		{name: "system-node-critical is 2000001000", pod: newPod(func(p *v1.Pod) { p.Spec.PriorityClassName = "system-node-critical" }),
			wantName: "system-node-critical", wantValue: 2000001000, wantPolicy: lower},
		{name: "system-cluster-critical is 2000000000", pod: newPod(func(p *v1.Pod) { p.Spec.PriorityClassName = "system-cluster-critical" }),
			wantName: "system-cluster-critical", wantValue: 2000000000, wantPolicy: lower},
		{name: "no class and no default class is priority 0 with PreemptLowerPriority", pod: newPod(),
			wantName: "", wantValue: 0, wantPolicy: lower},
		{name: "a class from the objects gives its value and preemptionPolicy",
			pod:      newPod(func(p *v1.Pod) { p.Spec.PriorityClassName = "batch" }),
			classes:  []*schedulingv1.PriorityClass{{ObjectMeta: metav1.ObjectMeta{Name: "batch"}, Value: 100, PreemptionPolicy: &never}},
			wantName: "batch", wantValue: 100, wantPolicy: never},
		{name: "a class with no preemptionPolicy gives PreemptLowerPriority",
			pod:      newPod(func(p *v1.Pod) { p.Spec.PriorityClassName = "batch" }),
			classes:  []*schedulingv1.PriorityClass{{ObjectMeta: metav1.ObjectMeta{Name: "batch"}, Value: 100}},
			wantName: "batch", wantValue: 100, wantPolicy: lower},
		{name: "a pod with no class takes the globalDefault class with the lowest value",
			pod: newPod(),
			classes: []*schedulingv1.PriorityClass{
				{ObjectMeta: metav1.ObjectMeta{Name: "high"}, Value: 1000, GlobalDefault: true},
				{ObjectMeta: metav1.ObjectMeta{Name: "low"}, Value: 10, GlobalDefault: true, PreemptionPolicy: &never},
				{ObjectMeta: metav1.ObjectMeta{Name: "lowest-not-default"}, Value: 1},
			},
			wantName: "low", wantValue: 10, wantPolicy: never},
		{name: "a missing class is refused", pod: newPod(func(p *v1.Pod) { p.Spec.PriorityClassName = "nope" }),
			wantErr: `pods "web" is forbidden: no PriorityClass with name nope was found`},
		{name: "a pod stating another priority is refused",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.PriorityClassName = "system-node-critical"
				p.Spec.Priority = ptr.To[int32](5)
			}),
			wantErr: `pods "web" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 2000001000 from the given PriorityClass name`},
		{name: "a pod stating the same priority is admitted",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.PriorityClassName = "system-node-critical"
				p.Spec.Priority = ptr.To[int32](2000001000)
			}),
			wantName: "system-node-critical", wantValue: 2000001000, wantPolicy: lower},
		{name: "a pod stating another preemptionPolicy is refused",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.PriorityClassName = "system-node-critical"
				p.Spec.PreemptionPolicy = &never
			}),
			wantErr: `pods "web" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := admission.Admit(tc.pod, &admission.Objects{PriorityClasses: tc.classes})
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantName, tc.pod.Spec.PriorityClassName)
			assert.Equal(t, ptr.To(tc.wantValue), tc.pod.Spec.Priority)
			assert.Equal(t, &tc.wantPolicy, tc.pod.Spec.PreemptionPolicy)
		})
	}
}

func TestDefaultTolerationSeconds(t *testing.T) {
	noExecute := v1.TaintEffectNoExecute
	cases := []struct {
		name string
		have []v1.Toleration
		want []v1.Toleration
	}{
		{name: "a pod with no tolerations gets not-ready then unreachable for 300s", want: notReadyAndUnreachable},
		{name: "a not-ready NoExecute toleration is kept and only unreachable is added",
			have: []v1.Toleration{{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: noExecute}},
			want: []v1.Toleration{{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: noExecute}, notReadyAndUnreachable[1]}},
		{name: "a toleration with an empty key and empty effect covers both",
			have: []v1.Toleration{{Operator: v1.TolerationOpExists}},
			want: []v1.Toleration{{Operator: v1.TolerationOpExists}}},
		{name: "a NoSchedule toleration of not-ready does not count",
			have: []v1.Toleration{{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule}},
			want: append([]v1.Toleration{{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule}}, notReadyAndUnreachable...)},
		{name: "an unreachable toleration with an empty effect counts, whatever its operator and seconds",
			have: []v1.Toleration{{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpEqual, Value: "x", TolerationSeconds: ptr.To[int64](1)}},
			want: []v1.Toleration{{Key: v1.TaintNodeUnreachable, Operator: v1.TolerationOpEqual, Value: "x", TolerationSeconds: ptr.To[int64](1)}, notReadyAndUnreachable[0]}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			pod := newPod(func(p *v1.Pod) { p.Spec.Tolerations = tc.have })
			require.NoError(t, admission.Admit(pod, nil))
			assert.Equal(t, tc.want, pod.Spec.Tolerations)
		})
	}
}

func TestPodTopologyLabels(t *testing.T) {
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{
		"topology.kubernetes.io/zone": "z1", "topology.kubernetes.io/region": "r1", "kubernetes.io/hostname": "n1"}}}
	cases := []struct {
		name string
		pod  *v1.Pod
		want map[string]string
	}{
		{name: "a pod bound to a known node gets its zone and region, overwriting its own",
			pod: newPod(func(p *v1.Pod) {
				p.Spec.NodeName = "n1"
				p.Labels = map[string]string{"app": "web", "topology.kubernetes.io/zone": "mine"}
			}),
			want: map[string]string{"app": "web", "topology.kubernetes.io/zone": "z1", "topology.kubernetes.io/region": "r1"}},
		{name: "an unbound pod gets nothing", pod: newPod(), want: nil},
		{name: "a pod bound to an unknown node gets nothing", pod: newPod(func(p *v1.Pod) { p.Spec.NodeName = "n2" }), want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, admission.Admit(tc.pod, &admission.Objects{Nodes: []*v1.Node{node}}))
			assert.Equal(t, tc.want, tc.pod.Labels)
		})
	}
}
