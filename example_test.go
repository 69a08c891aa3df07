package podconfig_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/podconfig/podconfig/admission"
	"github.com/podconfig/podconfig/configgen"
	"github.com/podconfig/podconfig/defaults"
	"github.com/podconfig/podconfig/manifest"
	"github.com/podconfig/podconfig/offline"
)

// Rendering offline what a cluster's kubelet would send the runtime for a Deployment: read the
// manifest, give the Pod the identity, defaults and admission a cluster would, then generate its
// sandbox and container configs on an in-memory node holding the manifest's objects. (The pod
// has no IP here, so kubelet mounts no managed /etc/hosts; podconfig render takes IPs from a
// RenderContext document.)
func Example_renderOffline() {
	const yaml = `
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config}
data: {greeting: hello}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx:1.27
        env:
        - name: GREETING
          valueFrom: {configMapKeyRef: {name: web-config, key: greeting}}
`
	bundle, err := manifest.Read(manifest.Options{}, manifest.Input{Name: "web.yaml", Reader: strings.NewReader(yaml)})
	if err != nil {
		fmt.Println(err)
		return
	}
	pod := bundle.Pods[0].Pod
	defaults.SetRenderIdentity(pod)
	defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly())
	if err := admission.Admit(pod, &admission.Objects{}); err != nil {
		fmt.Println(err)
		return
	}
	defaults.SetObjectDefaultsPod(pod)

	var objects []interface{}
	for _, cm := range bundle.ConfigMaps {
		if cm.Namespace == "" {
			cm.Namespace = "default" // where kubectl apply puts it, as SetRenderIdentity the pod
		}
		objects = append(objects, cm)
	}
	node := offline.NewNode(objects...)
	gen, err := node.Generator()
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	sandbox, err := gen.GeneratePodSandboxConfig(ctx, pod, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	c := &pod.Spec.Containers[0]
	cfg, err := gen.GenerateContainerConfig(ctx, configgen.ContainerRequest{Pod: pod, Container: c, ImageRef: c.Image, Volumes: node.Volumes(pod)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("sandbox:", sandbox.Metadata.Namespace+"/"+sandbox.Metadata.Name, "hostname", sandbox.Hostname)
	for _, kv := range cfg.Envs {
		if kv.Key == "GREETING" {
			fmt.Println("env:", kv.Key+"="+string(kv.Value))
		}
	}
	for _, m := range cfg.Mounts {
		fmt.Println("mount:", m.ContainerPath)
	}
	// Output:
	// sandbox: default/web-64f8c7b989-tdmcl hostname web-64f8c7b989-tdmcl
	// env: GREETING=hello
	// mount: /var/run/secrets/kubernetes.io/serviceaccount
	// mount: /dev/termination-log
}
