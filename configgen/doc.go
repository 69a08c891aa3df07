// Package configgen turns a pod and one of its containers into the CRI container config, and the
// pod into its sandbox config, as kubelet v1.37 does on Linux.
package configgen
