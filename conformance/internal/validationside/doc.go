// Package validationside runs kube-apiserver v1.37's own create validation on v1 objects: the
// registry strategies of Pods and of the workloads that carry pod templates, with the object
// metadata and declarative validation the API server runs after them, with --allow-privileged
// set as kubeadm, kind and the distributions set it.
//
// Objects are given as the API server holds them after decoding: defaulted (Default). Each is
// converted to the internal types and goes through its strategy's PrepareForCreate, as on create;
// what admission would change is not applied, except the pod-level resource defaulting
// (DefaultPodLevelResources) that package admission applies before validation too.
package validationside
