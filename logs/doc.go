// Package logs builds the pod and container log paths kubelet uses, recovers a container's
// restart count from its log directory, and reads an exited container's termination message back
// as kubelet does, bounded and without blocking, into the message of its status, and rotates
// running containers' logs as kubelet's container log manager does.
package logs
