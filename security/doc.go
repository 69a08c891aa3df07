// Package security computes a container's effective security context and its CRI form, the pod
// sandbox's security context, sysctls and namespaces, and enforces runAsNonRoot, as kubelet v1.37
// does on Linux.
package security
