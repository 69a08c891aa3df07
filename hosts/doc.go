// Package hosts computes a pod's hostname, domain and kernel nodename, and writes the /etc/hosts
// file kubelet mounts into its containers.
package hosts
