// Package scenario is the conformance suite's input: a pod, the node and kubelet facts it runs
// under, the API objects it refers to, and the differences from kubelet it is expected to show.
// Scenarios are YAML files (see testdata/scenarios); Random generates them from a seed.
package scenario
