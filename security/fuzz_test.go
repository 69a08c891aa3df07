package security_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	v1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

// FuzzSeccompLocalhostProfile checks that no localhost profile name yields a path outside the root.
func FuzzSeccompLocalhostProfile(f *testing.F) {
	for _, seed := range []string{"a.json", "../x", "/etc/passwd", "a/../../b", "..", ".", "a/./b/", "../seccomp/x", "x/../../seccomp/y"} {
		f.Add(seed)
	}
	const root = "/var/lib/kubelet/seccomp"
	f.Fuzz(func(t *testing.T, name string) {
		pod := testPod(nil, &v1.SecurityContext{SeccompProfile: &v1.SeccompProfile{Type: v1.SeccompProfileTypeLocalhost, LocalhostProfile: ptr.To(name)}})
		got, err := security.SeccompProfile(pod, &pod.Spec.Containers[0], root, false)
		if err != nil {
			return
		}
		ref := got.GetLocalhostRef()
		if ref != filepath.Clean(ref) || (ref != root && !strings.HasPrefix(ref, root+"/")) {
			t.Fatalf("profile %q gave %q outside %q", name, ref, root)
		}
	})
}

// FuzzVerifyRunAsNonRoot checks that no runAsUser, image uid or image user name lets a container
// that asks for runAsNonRoot run with a uid that is root, or becomes root once narrowed to 32 bits.
func FuzzVerifyRunAsNonRoot(f *testing.F) {
	f.Add(int64(0), false, int64(0), true, "")
	f.Add(int64(1<<32), true, int64(1000), true, "")
	f.Add(int64(0), false, int64(-1), true, "")
	f.Add(int64(0), false, int64(0), false, "")
	f.Add(int64(0), false, int64(0), false, "0")
	f.Fuzz(func(t *testing.T, runAsUser int64, setRunAsUser bool, imageUID int64, setImageUID bool, username string) {
		sc := &v1.SecurityContext{RunAsNonRoot: ptr.To(true)}
		if setRunAsUser {
			sc.RunAsUser = ptr.To(runAsUser)
		}
		var uid *int64
		if setImageUID {
			uid = ptr.To(imageUID)
		}
		pod := testPod(nil, sc)
		if security.VerifyRunAsNonRoot(pod, &pod.Spec.Containers[0], uid, username) != nil {
			return
		}
		effective := imageUID
		if setRunAsUser {
			effective = runAsUser
		} else if !setImageUID {
			t.Fatalf("passed with no runAsUser and no image uid (user %q)", username)
		}
		if effective <= 0 || effective > 1<<31-1 {
			t.Fatalf("passed with effective uid %d", effective)
		}
	})
}

// FuzzResolverArbitraryPod feeds pod specs that never passed API validation to every entry point
// and checks that none panics and that the container context is deterministic.
func FuzzResolverArbitraryPod(f *testing.F) {
	for _, seed := range []string{
		`{"spec":{"containers":[{"name":"c"}]}}`,
		`{"spec":{"securityContext":{"runAsNonRoot":true,"seccompProfile":{"type":"Localhost"},"supplementalGroupsPolicy":"x","sysctls":[{"name":"net/a.b","value":"1"}]},"containers":[{"name":"c","securityContext":{"procMount":"Unmasked","capabilities":{"add":["x"]},"appArmorProfile":{"type":"Localhost"}}}]}}`,
		`{"metadata":{"annotations":{"container.apparmor.security.beta.kubernetes.io/c":"localhost/"}},"spec":{"hostUsers":false,"runtimeClassName":"","shareProcessNamespace":true,"ephemeralContainers":[{"name":"e","securityContext":{"privileged":true}}],"containers":[{"name":"c"}]}}`,
		`{"spec":{"securityContext":{"fsGroup":-1,"supplementalGroups":[0,0],"windowsOptions":{"hostProcess":true}},"containers":[{"name":"c","securityContext":{"runAsUser":-1,"runAsNonRoot":true,"windowsOptions":{"runAsUserName":"x"}}}]}}`,
	} {
		f.Add([]byte(seed), true, "")
	}
	f.Fuzz(func(t *testing.T, data []byte, seccompDefault bool, imageUser string) {
		pod := &v1.Pod{}
		if json.Unmarshal(data, pod) != nil {
			return
		}
		r := security.New(security.Config{
			ThermalThrottle:   thermal,
			SeccompDefault:    seccompDefault,
			UserNamespaces:    offline.FixedUserNamespaces(65536),
			RuntimeClasses:    offline.RuntimeClasses{"x": "y"},
			DefaultPodSysctls: map[string]string{"net/ipv4/ip_forward": "1", "user.max_user_namespaces": "5", "kernel.sem": "1 2 3 4"},
		})
		ctx := context.Background()
		_, _ = r.SandboxSecurityContext(ctx, pod, []int64{7})
		_ = r.SandboxSysctls(pod)
		_ = security.HasPrivilegedContainer(pod)
		var containers []*v1.Container
		for i := range pod.Spec.InitContainers {
			containers = append(containers, &pod.Spec.InitContainers[i])
		}
		for i := range pod.Spec.Containers {
			containers = append(containers, &pod.Spec.Containers[i])
		}
		for i := range pod.Spec.EphemeralContainers {
			containers = append(containers, (*v1.Container)(&pod.Spec.EphemeralContainers[i].EphemeralContainerCommon))
		}
		for _, c := range containers {
			_ = security.VerifyRunAsNonRoot(pod, c, nil, imageUser)
			_ = security.DetermineEffectiveSecurityContext(pod, c)
			in := security.ContainerInput{Pod: pod, Container: c, ImageUsername: imageUser, ExtraSupplementalGroups: []int64{9}, NamespaceTarget: "t"}
			a, errA := r.ContainerSecurityContext(ctx, in)
			b, errB := r.ContainerSecurityContext(ctx, in)
			require.Equal(t, errA, errB, "container %q", c.Name)
			require.Equal(t, a, b, "container %q", c.Name)
		}
	})
}
