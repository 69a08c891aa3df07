package security_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/security"
)

func TestSeccompProfile(t *testing.T) {
	const root = "/var/lib/kubelet/seccomp"
	runtimeDefault := &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault}
	unconfined := &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Unconfined}
	localhost := func(ref string) *runtimeapi.SecurityProfile {
		return &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Localhost, LocalhostRef: ref}
	}
	field := func(typ v1.SeccompProfileType, profile *string) *v1.SeccompProfile {
		return &v1.SeccompProfile{Type: typ, LocalhostProfile: profile}
	}
	const missing = "localhostProfile must be set if seccompProfile type is Localhost."
	for _, tc := range []struct {
		name           string
		pod            *v1.SeccompProfile
		container      *v1.SeccompProfile
		annotations    map[string]string
		root           string
		seccompDefault bool
		want           *runtimeapi.SecurityProfile
		wantErr        string
	}{
		{name: "nothing set is Unconfined", want: unconfined},
		{name: "nothing set with seccompDefault is RuntimeDefault", seccompDefault: true, want: runtimeDefault},
		{name: "container RuntimeDefault", container: field(v1.SeccompProfileTypeRuntimeDefault, nil), want: runtimeDefault},
		{name: "container Unconfined beats seccompDefault", container: field(v1.SeccompProfileTypeUnconfined, nil), seccompDefault: true, want: unconfined},
		{name: "unknown type is Unconfined", container: field("Bogus", nil), seccompDefault: true, want: unconfined},
		{name: "pod RuntimeDefault applies when the container sets none", pod: field(v1.SeccompProfileTypeRuntimeDefault, nil), want: runtimeDefault},
		{name: "container beats pod", pod: field(v1.SeccompProfileTypeRuntimeDefault, nil), container: field(v1.SeccompProfileTypeUnconfined, nil), want: unconfined},
		{name: "localhost profile is joined to the root", container: field(v1.SeccompProfileTypeLocalhost, ptr.To("profiles/audit.json")), want: localhost(root + "/profiles/audit.json")},
		{name: "pod localhost profile is joined to the root", pod: field(v1.SeccompProfileTypeLocalhost, ptr.To("pod.json")), want: localhost(root + "/pod.json")},
		{name: "localhost profile under a custom root", root: "/srv/seccomp/", container: field(v1.SeccompProfileTypeLocalhost, ptr.To("a.json")), want: localhost("/srv/seccomp/a.json")},
		{name: "absolute localhost profile stays under the root", container: field(v1.SeccompProfileTypeLocalhost, ptr.To("/etc/x.json")), want: localhost(root + "/etc/x.json")},
		{name: "localhost profile with a harmless .. is cleaned", container: field(v1.SeccompProfileTypeLocalhost, ptr.To("a/../b.json")), want: localhost(root + "/b.json")},
		{name: "localhost profile without a name fails", container: field(v1.SeccompProfileTypeLocalhost, nil), wantErr: missing},
		{name: "localhost profile with an empty name fails", pod: field(v1.SeccompProfileTypeLocalhost, ptr.To("")), wantErr: missing},
		{name: "localhost profile that leaves the root is rejected", container: field(v1.SeccompProfileTypeLocalhost, ptr.To("../../../../etc/shadow")),
			wantErr: `localhost seccomp profile "../../../../etc/shadow" leaves the seccomp profile root "/var/lib/kubelet/seccomp"`},
		{name: "localhost profile that reaches a sibling of the root is rejected", container: field(v1.SeccompProfileTypeLocalhost, ptr.To("../seccomp-evil/x.json")),
			wantErr: `localhost seccomp profile "../seccomp-evil/x.json" leaves the seccomp profile root "/var/lib/kubelet/seccomp"`},
		{
			name:        "seccomp annotations are ignored",
			annotations: map[string]string{"seccomp.security.alpha.kubernetes.io/pod": "runtime/default", "container.seccomp.security.alpha.kubernetes.io/foo": "localhost/x"},
			want:        unconfined,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(&v1.PodSecurityContext{SeccompProfile: tc.pod}, &v1.SecurityContext{SeccompProfile: tc.container})
			pod.Annotations = tc.annotations
			root := tc.root
			if root == "" {
				root = "/var/lib/kubelet/seccomp"
			}
			got, err := security.SeccompProfile(pod, &pod.Spec.Containers[0], root, tc.seccompDefault)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, security.ErrInvalidSeccompProfile)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSeccompProfileUnderRootSlash(t *testing.T) {
	pod := testPod(nil, &v1.SecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To("../x.json")}})
	got, err := security.SeccompProfile(pod, &pod.Spec.Containers[0], "/", false)
	require.NoError(t, err)
	assert.Equal(t, "/x.json", got.LocalhostRef)
}

func TestAppArmorProfile(t *testing.T) {
	const key = "container.apparmor.security.beta.kubernetes.io/foo"
	runtimeDefault := &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_RuntimeDefault}
	unconfined := &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Unconfined}
	localhost := func(name string) *runtimeapi.SecurityProfile {
		return &runtimeapi.SecurityProfile{ProfileType: runtimeapi.SecurityProfile_Localhost, LocalhostRef: name}
	}
	field := func(typ v1.AppArmorProfileType, name *string) *v1.AppArmorProfile {
		return &v1.AppArmorProfile{Type: typ, LocalhostProfile: name}
	}
	for _, tc := range []struct {
		name           string
		pod, container *v1.AppArmorProfile
		annotations    map[string]string
		want           *runtimeapi.SecurityProfile
		wantDeprecated string
		wantErr        string
	}{
		{name: "nothing set gives no profile"},
		{name: "container RuntimeDefault", container: field(v1.AppArmorProfileTypeRuntimeDefault, nil), want: runtimeDefault, wantDeprecated: "runtime/default"},
		{name: "container Unconfined", container: field(v1.AppArmorProfileTypeUnconfined, nil), want: unconfined, wantDeprecated: "unconfined"},
		{name: "container Localhost", container: field(v1.AppArmorProfileTypeLocalhost, ptr.To("k8s-apparmor")), want: localhost("k8s-apparmor"), wantDeprecated: "localhost/k8s-apparmor"},
		{name: "pod field applies when nothing else does", pod: field(v1.AppArmorProfileTypeRuntimeDefault, nil), want: runtimeDefault, wantDeprecated: "runtime/default"},
		{name: "container field beats annotation and pod", container: field(v1.AppArmorProfileTypeUnconfined, nil), pod: field(v1.AppArmorProfileTypeRuntimeDefault, nil),
			annotations: map[string]string{key: "runtime/default"}, want: unconfined, wantDeprecated: "unconfined"},
		{name: "annotation runtime/default beats the pod field", pod: field(v1.AppArmorProfileTypeUnconfined, nil), annotations: map[string]string{key: "runtime/default"}, want: runtimeDefault, wantDeprecated: "runtime/default"},
		{name: "annotation unconfined", annotations: map[string]string{key: "unconfined"}, want: unconfined, wantDeprecated: "unconfined"},
		{name: "annotation localhost/<name>", annotations: map[string]string{key: "localhost/custom"}, want: localhost("custom"), wantDeprecated: "localhost/custom"},
		{name: "annotation for another container is ignored", annotations: map[string]string{"container.apparmor.security.beta.kubernetes.io/other": "unconfined"}},
		{name: "invalid annotation value falls through to the pod field", pod: field(v1.AppArmorProfileTypeRuntimeDefault, nil), annotations: map[string]string{key: "bogus"}, want: runtimeDefault, wantDeprecated: "runtime/default"},
		{name: "Localhost without a name fails", container: field(v1.AppArmorProfileTypeLocalhost, nil), wantErr: "missing localhost apparmor profile name"},
		{name: "unknown type fails", pod: field("Bogus", nil), wantErr: `unknown apparmor profile type: "Bogus"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod(&v1.PodSecurityContext{AppArmorProfile: tc.pod}, &v1.SecurityContext{AppArmorProfile: tc.container})
			pod.Annotations = tc.annotations
			got, deprecated, err := security.AppArmorProfile(pod, &pod.Spec.Containers[0])
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				assert.ErrorIs(t, err, security.ErrInvalidAppArmorProfile)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantDeprecated, deprecated)
		})
	}
}

func TestAppArmorAnnotationProfileIsNotShared(t *testing.T) {
	pod := testPod(nil, nil)
	pod.Annotations = map[string]string{"container.apparmor.security.beta.kubernetes.io/foo": "localhost/a"}
	got, _, err := security.AppArmorProfile(pod, &pod.Spec.Containers[0])
	require.NoError(t, err)
	got.LocalhostRef = "b"
	assert.Equal(t, "localhost/a", pod.Annotations["container.apparmor.security.beta.kubernetes.io/foo"])
}
