// Package configgen turns a pod and one of its containers into the CRI container config, and the
// pod into its sandbox config, as kubelet v1.37 does on Linux.
//
// Build one Generator per node with New; its Options carry the node's facts, kubelet's settings,
// the sources of ConfigMaps, Secrets, Services and the Node, and the host backends (nil means the
// real Linux ones). Then, per pod, GeneratePodSandboxConfig, and per container
// GenerateContainerConfig, which takes what kubelet's generateContainerConfig takes as one
// ContainerRequest. The steps a caller needs without a whole config are exported on their own:
// MakeEnvironmentVariables, ExpandContainerCommandAndArgs, PodDNS, PodCgroupParent, HashContainer
// (to tell whether a running container was created from the current spec), ValidatePod (to
// refuse a pod before it starts), and the mounts, blockdev, hosts, logs, security and resources
// packages. The labels, annotations and port mappings kubelet puts on a config come only in the
// configs; their keys are the Label and Annotation constants.
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
// To render pods with no root, node or cluster, build the Generator on the offline node (package
// offline); configgentest puts test doubles around it for tests.
package configgen
