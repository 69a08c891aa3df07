// Package blockdev turns a container's volumeDevices into device mappings, as kubelet's
// makeBlockVolumes does, and converts them to CRI devices.
package blockdev
