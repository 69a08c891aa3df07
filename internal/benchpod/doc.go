// Package benchpod is the realistic pod podconfig's speed is measured on: a Deployment's pod with
// environment variables from every source, six volumeMounts with subPaths, pod and container
// security contexts and Burstable resources, with the API objects it refers to, its mounted
// volumes and the node it runs on.
//
// The same functions feed podconfig's benchmarks and the conformance module, which runs the pod
// through kubelet's own code, so both measure exactly the same input. Every call returns fresh
// objects that the caller may modify.
package benchpod
