// Package validation is the API server's validation of a Pod, of its object metadata and of the
// workloads that carry pod templates, on the v1 types: what kube-apiserver v1.37 refuses at
// create, with its field paths and its words ("spec.containers[0].image: Required value"), every
// error of an object at once and in the API server's order.
//
// podconfig is fed pods that may never have passed an API server. Run ValidatePodCreate on such
// a pod after the API server's defaulting and mutating admission (packages defaults and
// admission), as the API server does, before handing it to a node; an Error reads as kubectl
// would print the API server's refusal.
//
// The rules are those of kube-apiserver v1.37 with its default feature gates, for an object being
// created (never an update of an existing one, where older objects keep rules since relaxed).
package validation
