// Package defaults applies to a v1.Pod, and to the workloads that carry pod templates, the defaults
// the Kubernetes v1.37 API server writes into them and what its create strategies change before
// validating and storing them.
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
// Pod create strategy (pkg/registry/core/pod podStrategy.PrepareForCreate): after mutating
// admission and before validation the API server prepares the pod it stores. PrepareForCreate
// applies all of it, in its order: metadata.generation 1; the status replaced by {phase:
// Pending}; the fields the gates leave out dropped (below); a gated pod's PodScheduled
// condition; the pod's labels named by pod (anti-)affinity terms' matchLabelKeys and
// mismatchLabelKeys, and by topology spread constraints' matchLabelKeys, merged into their
// label selectors; deprecated per-container AppArmor annotations copied into the fields; the
// pod-level resource defaulting; status.qosClass. The pod-level resource defaulting
// (DefaultPodLevelResources: with PodLevelResources and PodLevelResourcesFixDefaulting on, as in
// v1.37 by default, pod-level hugepage limits from the containers' limits, pod-level cpu and
// memory requests from the containers' requests, requests from the pod's limits, then pod-level
// limits from the containers' limits where every container has one, never below the pod-level
// request) is also applied last by SetObjectDefaultsPod, unless ObjectDefaultsOnly, and by
// admission.Admit before its validating plugins; it changes nothing the second time.
//
// Fields dropped on create, for a Pod and for every workload's pod template
// (DropDisabledPodFields and DropDisabledTemplateFields with no previous object; the gate that
// keeps each, off by default unless said otherwise):
//   - emptyDir.mode (EmptyDirVolumeMode);
//   - user and defaultUser of secret, configMap, downwardAPI and projected volumes and of their
//     items and projected sources, for the first source of a volume only
//     (AtomicWriteVolumeUserFields);
//   - volumeMounts[].bindMountOptions (VolumeBindMountOptions);
//   - lifecycle.stopSignal, and a lifecycle left empty (ContainerStopSignals);
//   - a gRPC probe's mode (GRPCContainerProbeTLS);
//   - httpGet.protocol of probes and lifecycle handlers (H2CContainerProbe);
//   - spec.evictionResponders (EvictionRequestAPI);
//   - spec.schedulingGroup (GenericWorkload, beta but off);
//   - the annotations pod.alpha.kubernetes.io/init-containers,
//     pod.beta.kubernetes.io/init-containers and their -statuses forms (always);
//   - with a gate that is on by default turned off: spec.resources (PodLevelResources),
//     topologySpreadConstraints[].matchLabelKeys (MatchLabelKeysInPodTopologySpread),
//     restartPolicy and restartPolicyRules but a sidecar's restartPolicy Always
//     (ContainerRestartRules), env fileKeyRef (EnvFiles), projected clusterTrustBundle
//     (ClusterTrustBundleProjection) and podCertificate (PodCertificateRequest) sources.
//
// Gates locked on in v1.37 drop nothing (hostUsers, supplementalGroupsPolicy, procMount,
// nodeAffinityPolicy and nodeTaintsPolicy, affinity label keys, resource claims, resizePolicy,
// recursiveReadOnly, hostnameOverride, image volumes, seLinuxChangePolicy are kept).
//
// A cluster handles a pod in this order, and so should a caller of this package:
//
//	defaults.SetRenderIdentity(pod)                                  // offline only
//	defaults.SetObjectDefaultsPod(pod, defaults.ObjectDefaultsOnly()) // decoding
//	err := admission.Admit(pod, objects)                             // mutating and validating admission
//	defaults.PrepareForCreate(pod)                                   // the create strategy
//	errs := validation.ValidatePodCreate(pod)                        // the strategy's validation
//
// (the API server runs the validating admission plugins after its validation; both must pass).
// A pod read back from a cluster (kubectl get -o yaml) has been through all of this already:
// PrepareForCreate would replace its status (podIPs, hostIPs, qosClass) and repeat the selector
// expressions it merged.
//
// Workloads (SetObjectDefaultsWorkload; the SetObjectDefaults_<Kind> of
// k8s.io/kubernetes/pkg/apis/apps/v1, batch/v1 and core/v1):
//   - Deployment: replicas 1; strategy RollingUpdate, and for RollingUpdate maxUnavailable and
//     maxSurge 25%; revisionHistoryLimit 10; progressDeadlineSeconds 600;
//   - ReplicaSet: replicas 1;
//   - StatefulSet: podManagementPolicy OrderedReady; an unset updateStrategy becomes
//     RollingUpdate with a rollingUpdate block, and a RollingUpdate block gets partition 0 and
//     (MaxUnavailableStatefulSet, on) maxUnavailable 1; persistentVolumeClaimRetentionPolicy
//     whenDeleted and whenScaled Retain; replicas 1; revisionHistoryLimit 10; each
//     volumeClaimTemplate status.phase Pending, volumeMode Filesystem, resource lists rounded;
//   - DaemonSet: updateStrategy RollingUpdate, and for RollingUpdate maxUnavailable 1 and
//     maxSurge 0; revisionHistoryLimit 10;
//   - Job: completions and parallelism 1 when both are unset, else parallelism 1; backoffLimit 6
//     (2147483647 with backoffLimitPerIndex); the template's labels as the Job's when it has
//     none (the same map, as the API server shares it); completionMode NonIndexed; suspend
//     false; podReplacementPolicy TerminatingOrFailed (Failed with a podFailurePolicy);
//     manualSelector false; podFailurePolicy onPodConditions status True;
//   - CronJob: concurrencyPolicy Allow; suspend false; successfulJobsHistoryLimit 3;
//     failedJobsHistoryLimit 1; its job template's podFailurePolicy patterns and pod template,
//     not the job template's other fields;
//   - ReplicationController: selector and labels from the template's labels when empty (the
//     same map); replicas 1;
//   - every pod template (PodTemplate's too) as SetDefaultsPodTemplateSpec defaults it.
//
// PrepareWorkloadForCreate then applies the kinds' create strategies: generation 1, status
// cleared, the template's fields dropped as above, a Job's generated selector and labels, and
// what the stored version writes (a DaemonSet's template-generation annotation, a StatefulSet's
// claim templates' apiVersion and kind). A workload goes SetObjectDefaultsWorkload, then
// PrepareWorkloadForCreate, then validation; package manifest's expansion defaults templates
// itself (SetDefaultsPodTemplateSpec), which SetObjectDefaultsWorkload repeats without change.
//
// SetRenderIdentity is separate and is not an API server default: it gives a pod read from a file
// the namespace "default" and a UID derived from its namespace and name, so that it can be
// rendered offline. A real pod's UID is random and comes from the API server.
//
// Feature gates follow v1.37's defaults (DefaultFeatureGates); change them with WithFeatureGates.
// Nothing here reads process state, and every function is safe for concurrent use on distinct pods.
package defaults
