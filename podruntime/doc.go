// Package podruntime runs pods on a CRI runtime as kubelet v1.37's runtime manager
// (pkg/kubelet/kuberuntime) does, with configgen generating every sandbox and container config,
// and reports their status as kubelet computes it. It is what a custom kubelet, a
// virtual-kubelet provider or a test node needs between "the pod's volumes are mounted" and
// "the pod's status goes to the API server".
//
// A [Manager], over the CRI runtime and image clients and a [Generator], does what kubelet's
// kubeGenericRuntimeManager does, under the same names:
//
//   - [Manager.GetPodStatus] reads what the runtime holds of a pod ([PodStatus]: its sandboxes and
//     every container attempt, termination messages read as kubelet reads them);
//   - [Manager.SyncPod] drives the pod one pass towards its spec: [ComputePodActions] decides, then
//     the pod is killed when its sandbox must be replaced or nothing is left to run, the sandbox is
//     created, images are pulled by pull policy (with kubelet's pull back-off), and ephemeral, init
//     (one at a time, in order; sidecars beside), then regular containers are started, each after
//     its crash-loop back-off (backoff.CrashLoop). Each action's outcome is a [SyncResult] whose
//     error is kubelet's reason (CrashLoopBackOff, ErrImagePull, CreateContainerConfigError, ...);
//   - [Manager.KillPod] stops the pod: each container within its grace period, sidecars after the
//     regular containers, then the sandboxes;
//   - [Manager.GarbageCollectPod] removes dead containers (keeping the newest of each) and
//     sandboxes, or everything of a removed pod;
//   - [Manager.GenerateAPIPodStatus] and the pure [GenerateAPIPodStatus] give the v1.PodStatus
//     kubelet reports: phase ([PodPhase]), conditions, container states with reasons, restart
//     counts, IPs, start time, QoS class.
//
// Kubelet's pod worker calls these in a loop; so does the caller (see the package example and
// examples/minikubelet): GetPodStatus, GenerateAPIPodStatus, and SyncPod while the phase is not
// terminal; on the pod's end or deletion, KillPod, a last status with terminal set, and
// GarbageCollectPod. The pure parts ([ComputePodActions], [PodSandboxChanged],
// [ShouldContainerBeRestarted], [ContainerShouldRestart], [PodPhase], [GenerateAPIPodStatus],
// [ContainerStatusFromCRI]) take their inputs only and can be used on their own.
//
// What stays with the caller, as it stays outside kubelet's runtime manager: the pod's
// directories and volumes (configgen's MakePodDataDirs, package volumes; image volumes are
// pulled here), admission, and sending the status and events to an API server ([Event],
// Options.Events).
//
// Not done, as the package models kubelet without a prober, a device manager or in-place
// resize: probes (a container is started and ready while it runs), lifecycle hooks (postStart
// and preStop are not run), pull secrets and credential providers, in-place resize, the legacy
// /var/log/containers symlinks, and restarting every container on a RestartAllContainers rule
// (the exited container alone restarts; the AllContainersRestarting condition stays False).
//
// A Manager holds no global state and is safe for concurrent use by several pods; the calls for
// one pod must not overlap, as kubelet's pod worker never runs two syncs of a pod at once. The
// pure functions are safe for concurrent use. The podruntimetest package is a CRI runtime in
// memory for tests.
package podruntime
