package main

import (
	"os"
	"strings"
)

// A Job manifest rendered as a table: the Indexed Job's first pod, its hostname from the
// completion index, and the CRI settings of its one container.
func Example_renderTable() {
	const job = `apiVersion: batch/v1
kind: Job
metadata: {name: resize}
spec:
  completionMode: Indexed
  completions: 4
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: resize
        image: registry.example/resize:1
        resources:
          limits: {cpu: "1", memory: 256Mi}
`
	run([]string{"render", "-o", "table", "-"}, strings.NewReader(job), os.Stdout, os.Stderr)
	// Output:
	// POD default/resize-0-hk8z2  stdin: document 1 (Job resize)
	//   qos            Guaranteed
	//   hostname       resize-0
	//   dns            servers [10.96.0.10], searches [default.svc.cluster.local svc.cluster.local cluster.local], options [ndots:5]
	//   cgroup parent  /kubepods/poda5f9e4a5-4157-5505-9987-b3f0965fccb9
	//   namespaces     network POD, pid CONTAINER, ipc POD
	//   volume file    kube-api-access-9mtwd/ca.crt (projected, mode 0644, owner kubelet, 41 bytes)
	//   volume file    kube-api-access-9mtwd/namespace (projected, mode 0644, owner kubelet, 7 bytes)
	//   volume file    kube-api-access-9mtwd/token (projected, mode 0644, owner kubelet, 27 bytes)
	//   CONTAINER resize  container, image registry.example/resize:1
	//     user               uid 0
	//     capabilities       add [], drop []
	//     privileged         false
	//     read-only root     false
	//     no new privileges  false
	//     seccomp            Unconfined
	//     apparmor           (none)
	//     cpu                shares 1024, quota 100000, period 100000
	//     memory limit       268435456
	//     oom score adj      -997
	//     mount              /var/run/secrets/kubernetes.io/serviceaccount <- /var/lib/kubelet/pods/a5f9e4a5-4157-5505-9987-b3f0965fccb9/volumes/kubernetes.io~projected/kube-api-access-9mtwd (ro)
	//     mount              /etc/hosts <- /var/lib/kubelet/pods/a5f9e4a5-4157-5505-9987-b3f0965fccb9/etc-hosts (rw)
	//     mount              /dev/termination-log <- /var/lib/kubelet/pods/a5f9e4a5-4157-5505-9987-b3f0965fccb9/containers/resize/0000002a (rw)
	//     env                JOB_COMPLETION_INDEX KUBERNETES_PORT KUBERNETES_PORT_443_TCP KUBERNETES_PORT_443_TCP_ADDR KUBERNETES_PORT_443_TCP_PORT KUBERNETES_PORT_443_TCP_PROTO KUBERNETES_SERVICE_HOST KUBERNETES_SERVICE_PORT KUBERNETES_SERVICE_PORT_HTTPS
}
