package validation

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func TestPodSpecificAnnotations(t *testing.T) {
	const tolerations = `metadata.annotations: Invalid value: "scheduler.alpha.kubernetes.io/tolerations": `
	pfRun(t, []pfCase{
		{
			name: "a mirror pod annotation without a nodeName is refused",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.MirrorPodAnnotationKey: "hash"} },
			want: []string{`metadata.annotations[kubernetes.io/config.mirror]: Invalid value: "hash": must set spec.nodeName if mirror pod annotation is set`},
		},
		{
			name: "a mirror pod annotation with a nodeName is accepted",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.MirrorPodAnnotationKey: "hash"}
				p.Spec.NodeName = "node-1"
			},
		},
		{
			name: "a tolerations annotation that is not JSON is refused with the decoder's error",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.TolerationsAnnotationKey: "["} },
			want: []string{tolerations + "unexpected end of JSON input"},
		},
		{
			name: "a tolerations annotation that is not a list is refused naming the API server's internal type",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.TolerationsAnnotationKey: `{"key":"a"}`} },
			want: []string{tolerations + "json: cannot unmarshal object into Go value of type []core.Toleration"},
		},
		{
			name: "a toleration that is not an object is refused naming core.Toleration",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.TolerationsAnnotationKey: `[1]`} },
			want: []string{tolerations + "json: cannot unmarshal number into Go value of type core.Toleration"},
		},
		{
			name: "a toleration field of the wrong type is refused naming the internal Go field",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.TolerationsAnnotationKey: `[{"tolerationSeconds":"60"}]`}
			},
			want: []string{tolerations + "json: cannot unmarshal string into Go struct field Toleration.TolerationSeconds of type int64"},
		},
		{
			name: "a toleration operator of the wrong type is refused naming core.TolerationOperator",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.TolerationsAnnotationKey: `[{"operator":1}]`} },
			want: []string{tolerations + "json: cannot unmarshal number into Go struct field Toleration.Operator of type core.TolerationOperator"},
		},
		{
			name: "an empty tolerations annotation is not decoded",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.TolerationsAnnotationKey: ""} },
		},
		{
			name: "a deletion cost with a plus sign is refused",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.PodDeletionCost: "+5"} },
			want: []string{`metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+5": must be a 32bit integer`},
		},
		{
			name: "a deletion cost with a leading zero is refused",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.PodDeletionCost: "05"} },
			want: []string{`metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "05": must be a 32bit integer`},
		},
		{
			name: "a deletion cost beyond int32 is refused",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.PodDeletionCost: "2147483648"} },
			want: []string{`metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "2147483648": must be a 32bit integer`},
		},
		{
			name: "deletion costs of 0 and of the lowest int32 are accepted",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.PodDeletionCost: "-2147483648", "other": "0"} },
		},
		{
			name: "a pod seccomp annotation naming no profile is refused on a dotted path",
			edit: func(p *v1.Pod) { p.Annotations = map[string]string{v1.SeccompPodAnnotationKey: "default"} },
			want: []string{`metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "default": must be a valid seccomp profile`},
		},
		{
			name: "a container seccomp annotation with a localhost profile climbing out is refused",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.SeccompContainerAnnotationKeyPrefix + "app": "localhost/../audit.json"}
			},
			want: []string{`metadata.annotations.container.seccomp.security.alpha.kubernetes.io/app: Invalid value: "../audit.json": must not contain '..'`},
		},
		{
			name: "an absolute localhost seccomp profile is refused",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.SeccompPodAnnotationKey: "localhost//etc/p.json"}
			},
			want: []string{`metadata.annotations.seccomp.security.alpha.kubernetes.io/pod: Invalid value: "/etc/p.json": must be a relative path`},
		},
		{
			name: "an AppArmor annotation for a missing container with a bad profile is refused for both, in key order",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{
					v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "web": "enforce",
					v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "app": "confined",
				}
			},
			want: []string{
				`metadata.annotations[container.apparmor.security.beta.kubernetes.io/app]: Invalid value: "confined": invalid AppArmor profile name: "confined"`,
				`metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]: Invalid value: "web": container not found`,
				`metadata.annotations[container.apparmor.security.beta.kubernetes.io/web]: Invalid value: "enforce": invalid AppArmor profile name: "enforce"`,
			},
		},
		{
			name: "an AppArmor annotation for an init container is accepted",
			edit: func(p *v1.Pod) {
				p.Spec.InitContainers = []v1.Container{p.Spec.Containers[0]}
				p.Spec.InitContainers[0].Name = "init"
				p.Annotations = map[string]string{v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "init": "localhost/p"}
			},
		},
	})
}

func TestAnnotationsMatchFields(t *testing.T) {
	pfRun(t, []pfCase{
		{
			name: "a pod seccomp annotation other than the pod's seccompProfile type is refused",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.SeccompPodAnnotationKey: "unconfined"}
				pfPodSC(p).SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault}
			},
			want: []string{"spec.securityContext.seccompProfile.type: Forbidden: seccomp type in annotation and field must match"},
		},
		{
			name: "docker/default matches a RuntimeDefault seccompProfile",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.SeccompPodAnnotationKey: "docker/default"}
				pfPodSC(p).SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault}
			},
		},
		{
			name: "a container seccomp annotation naming another localhost profile is refused",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.SeccompContainerAnnotationKeyPrefix + "app": "localhost/a.json"}
				pfContainerSC(p).SeccompProfile = &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("b.json")}
			},
			want: []string{"spec.containers[0].securityContext.seccompProfile.localhostProfile: Forbidden: seccomp profile in annotation and field must match"},
		},
		{
			name: "an AppArmor annotation other than the pod's profile inherited by a container is refused on the container",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "app": "unconfined"}
				pfPodSC(p).AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault}
			},
			want: []string{"spec.containers[0].securityContext.appArmorProfile.type: Forbidden: apparmor type in annotation and field must match"},
		},
		{
			name: "an AppArmor annotation naming another localhost profile than the container's is refused",
			edit: func(p *v1.Pod) {
				p.Annotations = map[string]string{v1.DeprecatedAppArmorBetaContainerAnnotationKeyPrefix + "app": "localhost/a"}
				pfContainerSC(p).AppArmorProfile = &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeLocalhost, LocalhostProfile: ptr.To("b")}
			},
			want: []string{"spec.containers[0].securityContext.appArmorProfile.localhostProfile: Forbidden: apparmor profile in annotation and field must match"},
		},
	})
}
