// Package validationside runs kube-apiserver v1.37's own create validation on v1 objects: the
// registry strategies of Pods and of the workloads that carry pod templates, with the object
// metadata and declarative validation the API server runs after them, with --allow-privileged
// set as kubeadm, kind and the distributions set it.
//
// Objects are given as the API server holds them after decoding: defaulted (Default). Prepare
// takes one through its strategy's PrepareForCreate, as the API server does before it validates,
// and Validate validates a prepared one; a comparison gives podconfig the same prepared object.
// What admission would change is not applied.
package validationside
