package configgen_test

import (
	"context"
	"fmt"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/configgen/configgentest"
)

// Render a container's CRI config offline: an in-memory node serves the ConfigMap, the volume
// paths and the image's user.
func ExampleGenerator_GenerateContainerConfig() {
	cm := &v1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cfg", Namespace: "shop"}, Data: map[string]string{"PORT": "8080"}}
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "0b1d"},
		Spec: v1.PodSpec{
			EnableServiceLinks: ptr.To(false),
			Volumes:            []v1.Volume{{Name: "data", VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}}},
			Containers: []v1.Container{{
				Name: "web", Image: "web:1", Args: []string{"--port=$(PORT)"},
				EnvFrom:      []v1.EnvFromSource{{ConfigMapRef: &v1.ConfigMapEnvSource{LocalObjectReference: v1.LocalObjectReference{Name: "cfg"}}}},
				VolumeMounts: []v1.VolumeMount{{Name: "data", MountPath: "/data", SubPath: "web"}},
			}},
		},
	}
	node := configgentest.NewNode(cm)
	gen, err := node.Generator()
	if err != nil {
		panic(err)
	}
	cfg, err := gen.GenerateContainerConfig(context.Background(), configgen.ContainerRequest{Pod: pod, Container: &pod.Spec.Containers[0], PodIPs: []string{"10.244.0.5"}, ImageRef: "sha256:1f2e", Volumes: node.Volumes(pod)})
	if err != nil {
		panic(err)
	}

	fmt.Println("args:", cfg.Args)
	for _, e := range cfg.Envs {
		fmt.Printf("env: %s=%s\n", e.Key, e.Value)
	}
	for _, m := range cfg.Mounts {
		fmt.Println("mount:", m.ContainerPath, "<-", m.HostPath)
	}
	fmt.Println("log:", cfg.LogPath)
	// Output:
	// args: [--port=8080]
	// env: PORT=8080
	// mount: /data <- /var/lib/kubelet/pods/0b1d/volume-subpaths/data/web/0
	// mount: /etc/hosts <- /var/lib/kubelet/pods/0b1d/etc-hosts
	// log: web/0.log
}

// The sandbox of a pod: DNS, hostname, cgroup parent and log directory.
func ExampleGenerator_GeneratePodSandboxConfig() {
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "0b1d"},
		Spec: v1.PodSpec{
			DNSPolicy: v1.DNSClusterFirst, Hostname: "web", Subdomain: "frontend", SetHostnameAsFQDN: ptr.To(true),
			Containers: []v1.Container{{Name: "web", Image: "web:1"}},
		},
	}
	gen, err := configgentest.NewNode().Generator()
	if err != nil {
		panic(err)
	}
	cfg, err := gen.GeneratePodSandboxConfig(context.Background(), pod, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println("hostname:", cfg.Hostname)
	fmt.Println("dns:", cfg.DnsConfig.Servers, cfg.DnsConfig.Searches, cfg.DnsConfig.Options)
	fmt.Println("cgroup parent:", cfg.Linux.CgroupParent)
	fmt.Println("logs:", cfg.LogDirectory)
	// Output:
	// hostname: web.frontend.shop.svc.cluster.local
	// dns: [10.96.0.10] [shop.svc.cluster.local svc.cluster.local cluster.local] [ndots:5]
	// cgroup parent: /kubepods/besteffort/pod0b1d
	// logs: /var/log/pods/shop_web_0b1d
}
