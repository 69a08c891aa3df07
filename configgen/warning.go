package configgen

import "github.com/podconfig/podconfig/resources"

// Warning is something kubelet would only log or record as an event while generating a pod's or a
// container's config: the generation goes on. Reason is a short CamelCase event reason, one of the
// Reason constants below, fit for a Kubernetes Event of type Warning (a client-go EventRecorder's
// Event(pod, "Warning", w.Reason, w.Message)); Message is the event's text.
type Warning struct {
	// Reason says what happened, as an event reason: kubelet's own where kubelet records an
	// event for the situation, virtual-kubelet's for environment resolution, podconfig's where
	// kubelet only logs.
	Reason string `json:"reason"`
	// Message is the human-readable text.
	Message string `json:"message"`
	// Container is the name of the container the warning is about; empty for the pod's sandbox.
	Container string `json:"container,omitempty"`
}

// String returns "Reason: Message".
func (w Warning) String() string { return w.Reason + ": " + w.Message }

// Reasons that kubelet records as events of type Warning on the pod.
const (
	// ReasonMissingClusterDNS: a pod asks for the cluster's DNS but the node has no cluster DNS
	// servers; the host's DNS is used instead (kubelet's dns.Configurer.GetPodDNS).
	ReasonMissingClusterDNS = "MissingClusterDNS"
	// ReasonDNSConfigForming: nameservers or search domains over the resolver's limits were left
	// out (kubelet's formDNSConfigFitsLimits).
	ReasonDNSConfigForming = "DNSConfigForming"
)

// Reasons for environment variables, named as virtual-kubelet's pod environment code names them.
// The Optional ones are warnings: the variable or envFrom source is left out, as kubelet does
// silently. The Mandatory and FailedToRead ones are the Reason of the *Error that fails the call.
const (
	// ReasonOptionalConfigMapNotFound: an optional ConfigMap (envFrom or configMapKeyRef) does
	// not exist; its variables are left out.
	ReasonOptionalConfigMapNotFound = "OptionalConfigMapNotFound"
	// ReasonOptionalConfigMapKeyNotFound: an optional configMapKeyRef names a key the ConfigMap
	// does not have; the variable is left out.
	ReasonOptionalConfigMapKeyNotFound = "OptionalConfigMapKeyNotFound"
	// ReasonOptionalSecretNotFound: an optional Secret (envFrom or secretKeyRef) does not
	// exist; its variables are left out.
	ReasonOptionalSecretNotFound = "OptionalSecretNotFound"
	// ReasonOptionalSecretKeyNotFound: an optional secretKeyRef names a key the Secret does not
	// have; the variable is left out.
	ReasonOptionalSecretKeyNotFound = "OptionalSecretKeyNotFound"
	// ReasonOptionalFileKeyNotFound: an optional fileKeyRef names a key its env file does not
	// have or leaves empty; the variable is left out.
	ReasonOptionalFileKeyNotFound = "OptionalFileKeyNotFound"

	// ReasonMandatoryConfigMapNotFound: a ConfigMap that is not optional does not exist.
	ReasonMandatoryConfigMapNotFound = "MandatoryConfigMapNotFound"
	// ReasonMandatoryConfigMapKeyNotFound: a configMapKeyRef that is not optional names a key
	// the ConfigMap does not have.
	ReasonMandatoryConfigMapKeyNotFound = "MandatoryConfigMapKeyNotFound"
	// ReasonFailedToReadMandatoryConfigMap: the ConfigMapGetter failed (or no getter was set)
	// for a ConfigMap that is not optional.
	ReasonFailedToReadMandatoryConfigMap = "FailedToReadMandatoryConfigMap"
	// ReasonFailedToReadOptionalConfigMap: the ConfigMapGetter failed with an error other than
	// NotFound for an optional ConfigMap. Virtual-kubelet skips the source; kubelet, and so
	// podconfig, fails.
	ReasonFailedToReadOptionalConfigMap = "FailedToReadOptionalConfigMap"
	// ReasonMandatorySecretNotFound: a Secret that is not optional does not exist.
	ReasonMandatorySecretNotFound = "MandatorySecretNotFound"
	// ReasonMandatorySecretKeyNotFound: a secretKeyRef that is not optional names a key the
	// Secret does not have.
	ReasonMandatorySecretKeyNotFound = "MandatorySecretKeyNotFound"
	// ReasonFailedToReadMandatorySecret: the SecretGetter failed (or no getter was set) for a
	// Secret that is not optional.
	ReasonFailedToReadMandatorySecret = "FailedToReadMandatorySecret"
	// ReasonFailedToReadOptionalSecret: the SecretGetter failed with an error other than
	// NotFound for an optional Secret; the call fails, as kubelet's.
	ReasonFailedToReadOptionalSecret = "FailedToReadOptionalSecret"
	// ReasonFailedToCreateEnvVars: the environment could not be built for any other reason (an
	// unsupported field reference, an unreadable env file, services not listed or not synced,
	// the node unknown, ...).
	ReasonFailedToCreateEnvVars = "FailedToCreateEnvVars"

	// ReasonFailedToParseEnvFile: the detail of an env file that could not be read or parsed.
	// The error that fails the call says only "couldn't parse env file", as kubelet's, so that
	// events do not reveal host paths or file contents; this warning carries the detail for the
	// node's log.
	ReasonFailedToParseEnvFile = "FailedToParseEnvFile"
	// ReasonPodIPNotKnown: status.podIP(s) is empty because the pod has no IP yet
	// (UnknownIPsEmpty).
	ReasonPodIPNotKnown = "PodIPNotKnown"
	// ReasonHostIPNotKnown: status.hostIP(s) is empty because the node's address is not known
	// (UnknownIPsEmpty).
	ReasonHostIPNotKnown = "HostIPNotKnown"
	// ReasonNodeNotKnown: a resourceFieldRef limit the container does not set, which the node's
	// allocatable resources would give, is empty because no node is known (UnknownIPsEmpty; with
	// UnknownIPsFail it is an ErrNode error instead of a plausible 0).
	ReasonNodeNotKnown = "NodeNotKnown"
	// ReasonServiceWithoutPorts: a Service the pod sees has a cluster IP but no ports, so it
	// gives no variables (kubelet would crash on it).
	ReasonServiceWithoutPorts = "ServiceWithoutPorts"
)

// Reasons for what kubelet only logs.
const (
	// ReasonInvalidClusterDNS: an Options.ClusterDNS entry is not an IP and is left out
	// (kubelet refuses such a configuration when it starts).
	ReasonInvalidClusterDNS = "InvalidClusterDNS"
	// ReasonInvalidDNSPolicy: the pod's dnsPolicy is unknown; ClusterFirst applies.
	ReasonInvalidDNSPolicy = "InvalidDNSPolicy"
	// ReasonHostnameTruncated: the pod's hostname was longer than 63 characters and was cut.
	ReasonHostnameTruncated = "HostnameTruncated"
	// ReasonPortNameConflict: a container port repeats an earlier one and is left out of the
	// sandbox's port mappings.
	ReasonPortNameConflict = "PortNameConflict"
	// ReasonUnknownPortProtocol: a container port's protocol is empty or unknown; TCP applies.
	ReasonUnknownPortProtocol = "UnknownPortProtocol"
	// ReasonAnnotationNotEncoded: a container's preStop handler or ports could not be encoded
	// into its annotations and were left out.
	ReasonAnnotationNotEncoded = "AnnotationNotEncoded"
	// ReasonBlockDeviceMissing: a volumeDevice's block device symlink does not exist; the
	// device is left out.
	ReasonBlockDeviceMissing = "BlockDeviceMissing"
	// ReasonSubPathCheckFailed: whether a subPath exists could not be checked, so it was not
	// created.
	ReasonSubPathCheckFailed = "SubPathCheckFailed"
	// ReasonTerminationLogPermissions: the termination-message file's mode could not be set.
	ReasonTerminationLogPermissions = "TerminationLogPermissions"
	// ReasonContainerDirFailed: the container's directory under the pod's could not be made,
	// so the container gets no termination-message file.
	ReasonContainerDirFailed = "ContainerDirFailed"
	// ReasonRuntimeHandlerLookupFailed: the pod's runtime class could not be resolved to a
	// handler; recursive read-only mounts are treated as unsupported.
	ReasonRuntimeHandlerLookupFailed = "RuntimeHandlerLookupFailed"
	// ReasonUnknownRuntimeHandler: the pod's runtime handler is not among
	// Options.RuntimeHandlers; recursive read-only mounts are treated as unsupported.
	ReasonUnknownRuntimeHandler = "UnknownRuntimeHandler"
	// ReasonDRAResourcesNotApplied: a DRA claim's node-allocatable resources are not applied to
	// the container's resources.
	ReasonDRAResourcesNotApplied = "DRAResourcesNotApplied"
	// ReasonHugePageLimitIgnored: a hugepage limit whose size does not parse was ignored.
	ReasonHugePageLimitIgnored = "HugePageLimitIgnored"
	// ReasonSwapDisallowed: the container's swap could not be computed, so it gets none.
	ReasonSwapDisallowed = "SwapDisallowed"
	// ReasonUnparseablePodIP: the sandbox's status holds an IP that does not parse, so the pod
	// has no IPs (PodSandboxIPs).
	ReasonUnparseablePodIP = "UnparseablePodIP"
)

// warnings converts a lower package's warning texts, all of one case, to Warnings.
func warnings(reason, container string, msgs []string) []Warning {
	if len(msgs) == 0 {
		return nil
	}
	out := make([]Warning, len(msgs))
	for i, m := range msgs {
		out[i] = Warning{Reason: reason, Message: m, Container: container}
	}
	return out
}

// resourceWarnings converts the resources package's warnings.
func resourceWarnings(container string, ws []resources.Warning) []Warning {
	if len(ws) == 0 {
		return nil
	}
	out := make([]Warning, len(ws))
	for i, w := range ws {
		reason := ReasonSwapDisallowed
		switch w.Kind {
		case resources.WarningDRANotApplied:
			reason = ReasonDRAResourcesNotApplied
		case resources.WarningHugePageLimitIgnored:
			reason = ReasonHugePageLimitIgnored
		}
		out[i] = Warning{Reason: reason, Message: w.Message, Container: container}
	}
	return out
}
