package manifest_test

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/podconfig/podconfig/manifest"
)

// A StatefulSet, its ServiceAccount and a Role, as kept in a repository: the StatefulSet becomes the
// Pods its controller would create, the ServiceAccount is kept for admission, the Role is skipped
// with a warning.
func ExampleRead() {
	const app = `
apiVersion: v1
kind: ServiceAccount
metadata: {name: db, namespace: data}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: db, namespace: data}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  serviceName: db
  replicas: 3
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: postgres, image: postgres:17}]
`
	bundle, err := manifest.Read(manifest.Options{Replicas: 2}, manifest.Input{Name: "db.yaml", Reader: strings.NewReader(app)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range bundle.Pods {
		fmt.Printf("%s: %s/%s hostname=%s subdomain=%s pod-index=%s\n", p.Source, p.Pod.Namespace, p.Pod.Name,
			p.Pod.Spec.Hostname, p.Pod.Spec.Subdomain, p.Pod.Labels["apps.kubernetes.io/pod-index"])
	}
	fmt.Println("service accounts:", len(bundle.ServiceAccounts))
	fmt.Println(bundle.Warnings)
	// Output:
	// db.yaml: document 3 (StatefulSet db): data/db-0 hostname=db-0 subdomain=db pod-index=0
	// db.yaml: document 3 (StatefulSet db): data/db-1 hostname=db-1 subdomain=db pod-index=1
	// service accounts: 1
	// [db.yaml: document 2 (Role db): skipped: kind Role makes no pod and is not read]
}

// Open reads the objects and keeps each workload as it was read; the loop makes one workload's
// Pods at a time, so that a large input is never held decoded at once.
func ExampleOpen() {
	const app = `
apiVersion: v1
kind: ConfigMap
metadata: {name: web}
data: {MODE: fast}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.27, envFrom: [{configMapRef: {name: web}}]}]
`
	stream, err := manifest.Open(manifest.Options{Replicas: 2}, manifest.Input{Name: "web.yaml", Reader: strings.NewReader(app)})
	if err != nil {
		fmt.Println(err)
		return
	}
	cm, err := stream.GetConfigMap(context.Background(), "default", "web")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("config map web:", cm.Data)
	for p, err := range stream.Pods() {
		if err != nil {
			fmt.Println(err) // a workload that makes no Pods, or a duplicate Pod
			continue
		}
		fmt.Println(p.Source+":", p.Pod.Name)
	}
	// Output:
	// config map web: map[MODE:fast]
	// web.yaml: document 2 (Deployment web): web-5c594cffbf-kfdms
	// web.yaml: document 2 (Deployment web): web-5c594cffbf-dzqkq
}

// A workload is validated as the API server validates it on create, before its Pods are made:
// here a Deployment whose selector does not match its template's labels.
func ExampleValidateWorkload() {
	doc := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: web, image: nginx}]}`
	opts := manifest.Options{CheckWorkload: func(obj runtime.Object) error { return manifest.ValidateWorkload(obj) }}
	_, err := manifest.Read(opts, manifest.Input{Name: "web.yaml", Reader: strings.NewReader(doc)})
	fmt.Println(err)
	// Output:
	// web.yaml: document 1 (Deployment web): Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"other"}: `selector` does not match template `labels`
}
