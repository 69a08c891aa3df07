// Package logs builds the pod and container log paths kubelet uses and recovers a container's
// restart count from its log directory.
package logs
