package security_test

import (
	"context"
	"errors"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

// A pod asks for runAsNonRoot but sets no runAsUser, so the image decides: an image that names no
// user runs as root and is refused, one with a numeric non-root user is accepted.
func ExampleVerifyRunAsNonRoot() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "1f2e"},
		Spec: v1.PodSpec{
			SecurityContext: &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)},
			Containers:      []v1.Container{{Name: "nginx", Image: "nginx:1.27"}},
		},
	}
	images := security.ImageUserMap{"nginx:1.27-unprivileged": {UID: ptr.To[int64](101)}}
	ctx := context.Background()

	for _, image := range []string{"nginx:1.27", "nginx:1.27-unprivileged"} {
		uid, username, _ := images.ImageUser(ctx, image)
		err := security.VerifyRunAsNonRoot(pod, &pod.Spec.Containers[0], uid, username)
		fmt.Printf("%s: %v (policy violation: %t)\n", image, err, errors.Is(err, security.ErrRunAsNonRoot))
	}
	// Output:
	// nginx:1.27: container has runAsNonRoot and image will run as root (pod: "web_shop(1f2e)", container: nginx) (policy violation: true)
	// nginx:1.27-unprivileged: <nil> (policy violation: false)
}

// Render a container's CRI security context offline: fixed thermal paths keep the output
// independent of the machine, and the image user comes from a map.
func ExampleResolver_ContainerSecurityContext() {
	r := security.New(security.Config{ThermalThrottle: offline.ThermalPaths{}})
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "1f2e"},
		Spec: v1.PodSpec{
			SecurityContext: &v1.PodSecurityContext{FSGroup: ptr.To[int64](2000)},
			Containers: []v1.Container{{
				Name: "app", Image: "app:1",
				SecurityContext: &v1.SecurityContext{
					AllowPrivilegeEscalation: ptr.To(false),
					Capabilities:             &v1.Capabilities{Drop: []v1.Capability{"ALL"}},
					SeccompProfile:           &v1.SeccompProfile{Type: v1.SeccompProfileTypeRuntimeDefault},
				},
			}},
		},
	}
	ctx := context.Background()
	uid, username, _ := security.ImageUserMap{"app:1": {UID: ptr.To[int64](1000)}}.ImageUser(ctx, "app:1")
	sc, err := r.ContainerSecurityContext(ctx, security.ContainerInput{
		Pod: pod, Container: &pod.Spec.Containers[0], ImageUID: uid, ImageUsername: username,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("user:", sc.GetRunAsUser().GetValue(), "groups:", sc.GetSupplementalGroups())
	fmt.Println("drop:", sc.GetCapabilities().GetDropCapabilities(), "no_new_privs:", sc.GetNoNewPrivs())
	fmt.Println("seccomp:", sc.GetSeccomp().GetProfileType(), "pid:", sc.GetNamespaceOptions().GetPid())
	fmt.Println("masked:", len(sc.GetMaskedPaths()), "read-only:", sc.GetReadonlyPaths())
	// Output:
	// user: 1000 groups: [2000]
	// drop: [ALL] no_new_privs: true
	// seccomp: RuntimeDefault pid: CONTAINER
	// masked: 12 read-only: [/proc/bus /proc/fs /proc/irq /proc/sys /proc/sysrq-trigger]
}

// A provider that knows its images from its own registry metadata says who each runs as; an image
// it does not know runs as root, so runAsNonRoot refuses it.
func ExampleImageUserMap() {
	images := security.ImageUserMap{
		"registry.example/web:1": {UID: ptr.To[int64](1000)},
		"registry.example/db:2":  {Username: "postgres"},
	}
	for _, image := range []string{"registry.example/web:1", "registry.example/db:2", "unknown:latest"} {
		uid, username, _ := images.ImageUser(context.Background(), image)
		if uid != nil {
			fmt.Printf("%s: uid %d\n", image, *uid)
		} else {
			fmt.Printf("%s: user %s\n", image, username)
		}
	}
	// Output:
	// registry.example/web:1: uid 1000
	// registry.example/db:2: user postgres
	// unknown:latest: uid 0
}
