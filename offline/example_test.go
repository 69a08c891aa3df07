package offline_test

import (
	"context"
	"fmt"
	"strings"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/offline"
	"github.com/podconfig/podconfig/security"
)

// Render a pod with no host: its ConfigMap comes from the node's store, its image's user from
// the node's map, its subPath bind is recorded instead of made, and its /etc/hosts is a file in
// memory. Once rendered, the pod is forgotten.
func ExampleNewNode() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "0b1d"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			SecurityContext:    &v1.PodSecurityContext{RunAsNonRoot: ptr.To(true)},
			Volumes:            []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
			Containers: []v1.Container{{
				Name: "web", Image: "web:1",
				Env: []v1.EnvVar{{Name: "MODE", ValueFrom: &v1.EnvVarSource{ConfigMapKeyRef: &v1.ConfigMapKeySelector{
					LocalObjectReference: v1.LocalObjectReference{Name: "web"}, Key: "mode",
				}}}},
				VolumeMounts: []v1.VolumeMount{{Name: "data", MountPath: "/data", SubPath: "web"}},
			}},
		},
	}
	node := offline.NewNode(&v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web"}, Data: map[string]string{"mode": "live"}})
	node.ImageUsers["web:1"] = security.ImageUser{UID: ptr.To[int64](1000)}
	gen, err := node.Generator()
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{
		Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "web:1", Volumes: node.Volumes(pod),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s=%s uid %d\n", cfg.Envs[0].Key, cfg.Envs[0].Value, cfg.Linux.SecurityContext.RunAsUser.Value)
	for target, source := range node.Subpather.Binds() {
		fmt.Println(target, "<-", source)
	}
	hosts, _ := node.Files.ReadFile("/var/lib/kubelet/pods/0b1d/etc-hosts")
	lines := strings.Split(strings.TrimSpace(string(hosts)), "\n")
	fmt.Println(lines[len(lines)-1]) // the pod's own line

	_ = node.RemovePod(pod)
	fmt.Println(len(node.Subpather.Binds()))
	// Output:
	// MODE=live uid 1000
	// /var/lib/kubelet/pods/0b1d/volume-subpaths/data/web/0 <- /var/lib/kubelet/pods/0b1d/volumes/kubernetes.io~empty-dir/data/web
	// 10.244.0.5	web
	// 0
}

// A Resolver wired with the offline node's user namespaces and thermal paths renders the same
// output on any machine: a pod with hostUsers: false gets its own block of host ids.
func ExampleAllocatingUserNamespaces() {
	r := security.New(security.Config{
		ThermalThrottle: offline.ThermalPaths{},
		UserNamespaces:  offline.AllocatingUserNamespaces(65536, 16),
	})
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "1f2e"},
		Spec:       v1.PodSpec{HostUsers: ptr.To(false)},
	}
	ns, err := r.NamespacesForPod(context.Background(), pod)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := ns.GetUsernsOptions()
	fmt.Println(m.GetMode(), m.GetUids()[0].GetHostId(), m.GetUids()[0].GetContainerId(), m.GetUids()[0].GetLength())
	// Output: POD 65536 0 65536
}
