// Command render prints the CRI configs kubelet v1.37 would give a pod, offline: no root, no
// node, no cluster. It reads a multi-document YAML (a Pod, and the ConfigMaps, Secrets, Services
// and Node it refers to, plus an optional RenderContext with the pod's IPs and the images' users)
// and prints, as JSON, the sandbox config and, per container, its environment, command and args,
// /etc/hosts file, log path and full CRI container config.
//
//	go run ./examples/render examples/render/testdata/pod.yaml
//
// With "-" or no file it reads standard input. On bad input it prints one line to standard error
// and exits with status 1.
package main
