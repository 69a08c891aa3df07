// Package volumeside sets a pod volume up with kubelet v1.37's own configMap, secret,
// downwardAPI, projected, emptyDir and hostPath plugins (SetUp over a temporary root, kubelet's
// AtomicWriter and ownership pass, its token manager and its ClusterTrustBundle manager) and with
// podconfig's volumes.Manager, and lists what each left on disk, in the volume and in the pod's
// directory, so the two can be compared.
//
// Both sides read the same fake clientset, whose TokenRequests are validated as the API server
// validates them. Mounts are not made on either side (kubelet's fake mounter records them;
// podconfig's Host is wrapped the same way), so what is compared is what the plugins write;
// podconfig's real tmpfs mounts are tested in the volumes package.
package volumeside
