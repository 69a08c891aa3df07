// Package mounts turns a container's volumeMounts into the mounts a runtime needs, as kubelet's
// makeMounts does, and converts them to CRI mounts and Docker bind strings.
package mounts
