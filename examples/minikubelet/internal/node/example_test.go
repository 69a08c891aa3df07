package node_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/podconfig/podconfig/examples/minikubelet/internal/node"
	"github.com/podconfig/podconfig/manifest"
)

// Load turns a manifest into the Pods a node runs: here the two Pods a StatefulSet's controller
// would create, bound to the node, with the Service they use. node.New and (*Node).RunPod then run
// them on a CRI runtime.
func ExampleLoad() {
	in, err := node.Load(manifest.Options{Replicas: 2, NodeName: "node-1"}, manifest.Input{Name: "db.yaml", Reader: strings.NewReader(`
apiVersion: v1
kind: Service
metadata: {name: db}
spec: {clusterIP: None}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: "podconfig.local/busybox:1"}]
`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, pod := range in.Pods {
		fmt.Println(pod.Name, pod.Spec.Hostname+"."+pod.Spec.Subdomain, pod.Spec.NodeName)
	}
	services, _ := in.Objects.ListServices(context.Background(), "default")
	fmt.Println(len(services), "service")
	// Output:
	// db-0 db-0.db node-1
	// db-1 db-1.db node-1
	// 1 service
}
