// Package configgen turns a pod and one of its containers into the CRI container config, and the
// pod into its sandbox config, as kubelet v1.37 does on Linux.
//
// Build one Generator per node with New; its Options carry the node's facts, kubelet's settings,
// the sources of ConfigMaps, Secrets, Services and the Node, and the host backends (nil means the
// real Linux ones). Then, per pod, GeneratePodSandboxConfig, and per container
// GenerateContainerConfig, which takes what kubelet's generateContainerConfig takes as one
// ContainerRequest. The steps are also exported on their own: MakeEnvironmentVariables,
// ExpandContainerCommandAndArgs, PodDNS, ContainerAnnotations and the others below, and the
// mounts, blockdev, hosts, logs, security and resources packages.
//
// Providers that do not run CRI resolve a whole pod with no Generator:
// MakePodEnvironmentVariables (every container's environment, as []v1.EnvVar and as the []EnvVar
// MakeEnvironmentVariables returns, with a policy for IPs not known yet; PodEnv.ApplyTo writes it
// back into the pod's init, regular and ephemeral containers in one call) and MakePodVolumeMounts
// (volumeMounts with no host paths).
//
// What kubelet only logs or records as an event comes back as a Warning with an event reason
// (the Reason constants); every error is an *Error whose Category says whether to retry
// (ErrDependencyFailed) or not (ErrInvalidPod, ErrInvalidOptions). The clientgo module adapts
// client-go listers, informers and event recorders to both.
//
// To render pods with no root, node or cluster, build the Generator with the configgentest package.
package configgen
