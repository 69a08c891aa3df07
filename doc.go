// Package podconfig is the module's overview; it holds no code. podconfig does what kubelet v1.37
// does on Linux between "this pod's volumes are mounted" and "call the runtime": it turns a v1.Pod
// and its containers into CRI PodSandboxConfig and ContainerConfig, and writes the files kubelet
// itself makes (the pod's /etc/hosts, its directories, the contents of configMap, secret,
// downwardAPI and projected volumes).
//
// # Where to start
//
// Render a pod offline (tests, CI, reviewing a manifest; no root, no node, no cluster):
//   - the podconfig command (cmd/podconfig): podconfig render app.yaml;
//   - in Go (see the example below): manifest.Read turns manifests into the Pods their
//     controllers would create (manifest.Open streams them, for inputs too large to hold);
//     defaults and admission make each Pod what the API server would store; a Generator from
//     offline.NewNode renders it on a node with no host (configgen/configgentest wraps that node
//     in test doubles for tests).
//
// Embed it in a kubelet or a runtime shim (a CRI runtime on a real node):
//   - configgen.New(configgen.Options{...}) once per node, then per pod GeneratePodSandboxConfig,
//     MakePodLogsDirectory and, per container, GenerateContainerConfig;
//   - volumes fills and sets up the volumes kubelet makes itself, giving the mounts.VolumeMap the
//     Generator takes; images decides pulls and the image reference; backoff paces restarts;
//   - podruntime runs the pod on the CRI runtime as kubelet's runtime manager does (SyncPod,
//     KillPod) and reports its status as kubelet computes it (GenerateAPIPodStatus);
//   - examples/minikubelet runs the whole sequence against containerd.
//
// A provider without CRI (virtual-kubelet and the like, which pass plain values to a remote
// runtime):
//   - configgen.MakePodEnvironmentVariables and configgen.MakePodVolumeMounts resolve a whole pod
//     with no Generator, no host paths and no node;
//   - the clientgo module adapts client-go listers, informers, events and token requests to
//     podconfig's getters; clientgo/examples/vkprovider puts them together.
//
// # The packages beneath
//
// configgen orchestrates mounts (volumeMounts and subPath), blockdev (volumeDevices), hosts
// (hostname and /etc/hosts), logs (log paths and termination messages), security (security
// contexts, namespaces, runAsNonRoot) and resources (CPU, memory, OOM score); each is usable on its
// own under kubelet's function names. subpath and hostfs are the Linux backends (hostfs has an
// in-memory one too); offline is the node with no host, on in-memory backends of its own;
// mounts/mountstest, blockdev/blockdevtest and hostfs/hostfstest are test doubles that record calls
// and inject errors; features holds kubelet's feature gates. Errors of every package carry one of
// three categories (configgen.ErrInvalidPod, ErrInvalidOptions, ErrDependencyFailed) that say
// whether to retry.
package podconfig
