// Package mounts turns a container's volumeMounts into the mounts a runtime needs, as kubelet's
// makeMounts does, and converts them to CRI mounts and Docker bind strings. ContainerVolumeMounts
// resolves them with the same rules but no host paths, for providers that mount volumes
// themselves.
package mounts
