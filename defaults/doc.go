// Package defaults applies to a v1.Pod the defaults the Kubernetes v1.37 API server writes into it,
// the part that reaches kubelet and the CRI configs it generates.
//
// A Pod that reaches a kubelet has passed the API server, which filled every field its author left
// empty: terminationMessagePath, imagePullPolicy, dnsPolicy, probe periods, volume modes, requests
// copied from limits, and more. A manifest read from a file has not. SetObjectDefaultsPod fills the
// same fields with the same values, so podconfig renders a manifest as the cluster would run it.
//
// Every rule below names the API server function it mirrors (package
// k8s.io/kubernetes/pkg/apis/core/v1 unless said otherwise). A rule only fills a field that is
// unset (nil, "" or 0 as the API server tests it); the few API server rules that rewrite a set value
// are marked "rewrites".
//
// Pod (SetDefaults_Pod; Pods only, not templates):
//   - a negative terminationGracePeriodSeconds becomes 1 (rewrites);
//   - each container's and init container's limits are copied to its requests where a request is
//     missing;
//   - with PodLevelResources on and PodLevelResourcesFixDefaulting off: pod-level hugepage limits
//     from the containers' (defaultHugePagePodLimits), then pod-level requests from the
//     containers' requests and the pod's limits (defaultPodRequests);
//   - enableServiceLinks: true;
//   - hostNetwork: every port of a container or init container with hostPort 0 gets hostPort =
//     containerPort (defaultHostNetworkPorts; ephemeral containers are left alone, as upstream);
//   - with H2CContainerProbe on (alpha, off): httpGet.protocol HTTP1 in probes and lifecycle
//     handlers of every container (defaultHTTPProbeProtocol).
//
// Pod spec (SetDefaults_PodSpec; Pods and templates):
//   - serviceAccountName from the deprecated serviceAccount when empty, and serviceAccount always
//     set to serviceAccountName (rewrites serviceAccount);
//   - dnsPolicy: ClusterFirst; restartPolicy: Always; securityContext: {};
//     terminationGracePeriodSeconds: 30; schedulerName: default-scheduler.
//
// Containers, init containers and ephemeral containers (SetDefaults_Container and the generated
// SetObjectDefaults_Pod):
//   - imagePullPolicy: Always when the image has the tag "latest" or neither tag nor digest,
//     IfNotPresent otherwise, also for an image reference that does not parse (the API server's
//     parsers.ParseImageName, github.com/distribution/reference grammar);
//   - terminationMessagePath: /dev/termination-log; terminationMessagePolicy: File;
//   - ports[].protocol: TCP;
//   - env[].valueFrom.fieldRef.apiVersion: v1; env[].valueFrom.fileKeyRef.optional: false;
//   - resources: limits and requests rounded up to milli precision (SetDefaults_ResourceList;
//     rewrites a value finer than 1m, such as cpu 0.0001, to 1m);
//   - liveness, readiness and startup probes (SetDefaults_Probe): timeoutSeconds 1, periodSeconds
//     10, successThreshold 1, failureThreshold 3; httpGet (SetDefaults_HTTPGetAction) path "/" and
//     scheme HTTP; grpc.service "";
//   - lifecycle postStart and preStop httpGet: path "/" and scheme HTTP.
//
// Volumes (SetDefaults_Volume and the per-source defaulters):
//   - a volume with no source becomes emptyDir: {};
//   - image: pullPolicy as for containers (gate ImageVolume, GA and locked on in v1.37);
//   - hostPath.type: "" (HostPathUnset);
//   - secret, configMap, downwardAPI and projected defaultMode: 0644 (420);
//   - downwardAPI and projected downwardAPI items' fieldRef.apiVersion: v1;
//   - projected serviceAccountToken.expirationSeconds: 3600;
//   - ephemeral volumeClaimTemplate: volumeMode Filesystem, resources rounded to milli precision;
//   - the in-tree iscsi (iscsiInterface "default"), rbd (pool "rbd", user "admin", keyring
//     "/etc/ceph/keyring"), azureDisk (cachingMode ReadWrite, fsType ext4, readOnly false, kind
//     Shared) and scaleIO (storageMode ThinProvisioned, fsType xfs) defaults.
//
// Pod-level and status resources: overhead and spec.resources are rounded to milli precision; the
// status is defaulted as SetDefaults_PodStatus does (podIP and podIPs kept in step, podIP wins when
// they disagree: rewrites podIPs) and its resource lists are rounded.
//
// Pod create strategy (pkg/registry/core/pod PrepareForCreate, which calls
// pkg/api/pod.DefaultPodLevelResources): with PodLevelResources and PodLevelResourcesFixDefaulting
// on, as in v1.37 by default, the API server defaults pod-level resources after admission rather
// than in SetObjectDefaults_Pod: pod-level hugepage limits from the containers' limits, pod-level
// cpu and memory requests from the containers' requests, requests from the pod's limits, then
// pod-level limits from the containers' limits where every container has one (never below the
// pod-level request). SetObjectDefaultsPod applies this step last, so its result is what the API
// server stores; ObjectDefaultsOnly leaves it out, for a comparison with SetObjectDefaults_Pod
// alone. The rest of PrepareForCreate (a fresh status, generation, scheduling-gate conditions,
// affinity and topology-spread label selectors, AppArmor annotations) is not applied.
//
// SetRenderIdentity is separate and is not an API server default: it gives a pod read from a file
// the namespace "default" and a UID derived from its namespace and name, so that it can be
// rendered offline. A real pod's UID is random and comes from the API server.
//
// Feature gates follow v1.37's defaults (DefaultFeatureGates); change them with WithFeatureGates.
// Nothing here reads process state, and every function is safe for concurrent use on distinct pods.
package defaults
