package security_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/security"
)

func TestDetermineEffectiveSecurityContext(t *testing.T) {
	unmasked := v1.UnmaskedProcMount
	fullContainer := &v1.SecurityContext{
		Capabilities:             &v1.Capabilities{Add: []v1.Capability{"NET_ADMIN"}, Drop: []v1.Capability{"ALL"}},
		Privileged:               ptr.To(true),
		SELinuxOptions:           &v1.SELinuxOptions{Type: "c_t"},
		WindowsOptions:           &v1.WindowsSecurityContextOptions{RunAsUserName: ptr.To("c-user")},
		RunAsUser:                ptr.To[int64](1001),
		RunAsGroup:               ptr.To[int64](2001),
		RunAsNonRoot:             ptr.To(false),
		ReadOnlyRootFilesystem:   ptr.To(true),
		AllowPrivilegeEscalation: ptr.To(false),
		ProcMount:                &unmasked,
		SeccompProfile:           &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault},
		AppArmorProfile:          &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeRuntimeDefault},
	}
	fullPod := &v1.PodSecurityContext{
		SELinuxOptions: &v1.SELinuxOptions{User: "p_u", Role: "p_r", Type: "p_t", Level: "s0"},
		WindowsOptions: &v1.WindowsSecurityContextOptions{
			GMSACredentialSpecName: ptr.To("pod-spec"), GMSACredentialSpec: ptr.To("{}"),
			RunAsUserName: ptr.To("p-user"), HostProcess: ptr.To(false),
		},
		RunAsUser:          ptr.To[int64](1000),
		RunAsGroup:         ptr.To[int64](2000),
		RunAsNonRoot:       ptr.To(true),
		SupplementalGroups: []int64{5},
		FSGroup:            ptr.To[int64](6),
		Sysctls:            []v1.Sysctl{{Name: "net.core.somaxconn", Value: "1024"}},
		SeccompProfile:     &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("p.json")},
		AppArmorProfile:    &v1.AppArmorProfile{Type: v1.AppArmorProfileTypeUnconfined},
	}
	for _, tc := range []struct {
		name        string
		podSC       *v1.PodSecurityContext
		containerSC *v1.SecurityContext
		want        *v1.SecurityContext
	}{
		{name: "neither set gives an empty context", want: &v1.SecurityContext{}},
		{
			name:  "pod only copies SELinux, Windows, runAsUser, runAsGroup and runAsNonRoot and nothing else",
			podSC: fullPod,
			want: &v1.SecurityContext{
				SELinuxOptions: fullPod.SELinuxOptions, WindowsOptions: fullPod.WindowsOptions,
				RunAsUser: ptr.To[int64](1000), RunAsGroup: ptr.To[int64](2000), RunAsNonRoot: ptr.To(true),
			},
		},
		{name: "container only is returned whole, profiles included", containerSC: fullContainer, want: fullContainer},
		{
			name:        "both: every set container field overrides, container profiles are dropped",
			podSC:       fullPod,
			containerSC: fullContainer,
			want: &v1.SecurityContext{
				Capabilities:   fullContainer.Capabilities,
				Privileged:     ptr.To(true),
				SELinuxOptions: &v1.SELinuxOptions{Type: "c_t"},
				WindowsOptions: &v1.WindowsSecurityContextOptions{
					GMSACredentialSpecName: ptr.To("pod-spec"), GMSACredentialSpec: ptr.To("{}"),
					RunAsUserName: ptr.To("c-user"), HostProcess: ptr.To(false),
				},
				RunAsUser: ptr.To[int64](1001), RunAsGroup: ptr.To[int64](2001), RunAsNonRoot: ptr.To(false),
				ReadOnlyRootFilesystem: ptr.To(true), AllowPrivilegeEscalation: ptr.To(false), ProcMount: &unmasked,
			},
		},
		{
			name:        "both: unset container fields keep the pod's",
			podSC:       fullPod,
			containerSC: &v1.SecurityContext{Privileged: ptr.To(false)},
			want: &v1.SecurityContext{
				Privileged:     ptr.To(false),
				SELinuxOptions: fullPod.SELinuxOptions, WindowsOptions: fullPod.WindowsOptions,
				RunAsUser: ptr.To[int64](1000), RunAsGroup: ptr.To[int64](2000), RunAsNonRoot: ptr.To(true),
			},
		},
		{
			name:        "both: container SELinux options replace the pod's whole, not field by field",
			podSC:       &v1.PodSecurityContext{SELinuxOptions: &v1.SELinuxOptions{User: "p_u", Level: "s0"}},
			containerSC: &v1.SecurityContext{SELinuxOptions: &v1.SELinuxOptions{Type: "c_t"}},
			want:        &v1.SecurityContext{SELinuxOptions: &v1.SELinuxOptions{Type: "c_t"}},
		},
		{
			name:        "both: the GMSA pair moves together",
			podSC:       &v1.PodSecurityContext{WindowsOptions: &v1.WindowsSecurityContextOptions{GMSACredentialSpecName: ptr.To("p"), GMSACredentialSpec: ptr.To("p-spec")}},
			containerSC: &v1.SecurityContext{WindowsOptions: &v1.WindowsSecurityContextOptions{GMSACredentialSpecName: ptr.To("c")}},
			want:        &v1.SecurityContext{WindowsOptions: &v1.WindowsSecurityContextOptions{GMSACredentialSpecName: ptr.To("c")}},
		},
		{
			name:        "both: container Windows options without a pod's start from empty",
			podSC:       &v1.PodSecurityContext{RunAsUser: ptr.To[int64](1)},
			containerSC: &v1.SecurityContext{WindowsOptions: &v1.WindowsSecurityContextOptions{HostProcess: ptr.To(true)}},
			want:        &v1.SecurityContext{RunAsUser: ptr.To[int64](1), WindowsOptions: &v1.WindowsSecurityContextOptions{HostProcess: ptr.To(true)}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(tc.podSC, tc.containerSC)
			got := security.DetermineEffectiveSecurityContext(pod, &pod.Spec.Containers[0])
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDetermineEffectiveSecurityContextNeverAliases(t *testing.T) {
	sc := &v1.SecurityContext{RunAsUser: ptr.To[int64](1000), Capabilities: &v1.Capabilities{Add: []v1.Capability{"CHOWN"}}}
	for name, podSC := range map[string]*v1.PodSecurityContext{
		"container only":    nil,
		"pod and container": {RunAsUser: ptr.To[int64](5), SELinuxOptions: &v1.SELinuxOptions{Type: "t"}},
	} {
		t.Run(name, func(t *testing.T) {
			pod := testPod(podSC, sc.DeepCopy())
			got := security.DetermineEffectiveSecurityContext(pod, &pod.Spec.Containers[0])
			assert.NotSame(t, pod.Spec.Containers[0].SecurityContext, got)
			*got.RunAsUser = 0
			got.Capabilities.Add[0] = "SYS_ADMIN"
			if got.SELinuxOptions != nil {
				got.SELinuxOptions.Type = "changed"
			}
			assert.Equal(t, sc, pod.Spec.Containers[0].SecurityContext)
			if podSC != nil {
				assert.Equal(t, int64(5), *pod.Spec.SecurityContext.RunAsUser)
				assert.Equal(t, "t", pod.Spec.SecurityContext.SELinuxOptions.Type)
			}
		})
	}
}

func TestDetermineEffectiveSecurityContextNilInputs(t *testing.T) {
	assert.Equal(t, &v1.SecurityContext{}, security.DetermineEffectiveSecurityContext(nil, nil))
	c := &v1.Container{SecurityContext: &v1.SecurityContext{RunAsUser: ptr.To[int64](3)}}
	assert.Equal(t, c.SecurityContext, security.DetermineEffectiveSecurityContext(nil, c))
	pod := testPod(&v1.PodSecurityContext{RunAsGroup: ptr.To[int64](4)}, nil)
	assert.Equal(t, &v1.SecurityContext{RunAsGroup: ptr.To[int64](4)}, security.DetermineEffectiveSecurityContext(pod, nil))
}

func TestAddNoNewPrivileges(t *testing.T) {
	for _, tc := range []struct {
		name string
		sc   *v1.SecurityContext
		want bool
	}{
		{name: "nil context is false", sc: nil, want: false},
		{name: "unset allowPrivilegeEscalation is false", sc: &v1.SecurityContext{}, want: false},
		{name: "allowPrivilegeEscalation true is false", sc: &v1.SecurityContext{AllowPrivilegeEscalation: ptr.To(true)}, want: false},
		{name: "allowPrivilegeEscalation false is true", sc: &v1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false)}, want: true},
		{name: "privileged does not matter", sc: &v1.SecurityContext{Privileged: ptr.To(true), AllowPrivilegeEscalation: ptr.To(false)}, want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, security.AddNoNewPrivileges(tc.sc))
		})
	}
}
