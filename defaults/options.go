package defaults

// FeatureGates are the API server feature gates that change how a Pod or a workload is defaulted
// and prepared for create. The zero value is not the API server's default: start from
// DefaultFeatureGates and change what your cluster changes.
//
// Gates locked on in v1.37 are not settable; podconfig always behaves as with them on:
// ImageVolume (image volumes get a pull policy and are kept), UserNamespacesSupport (hostUsers),
// SupplementalGroupsPolicy, ProcMountType, NodeInclusionPolicyInPodTopologySpread,
// MatchLabelKeysInPodAffinity, InPlacePodVerticalScaling (resizePolicy), RecursiveReadOnlyMounts,
// HostnameOverride, SELinuxChangePolicy, DynamicResourceAllocation (resource claims) and
// JobManagedBy. Gates that only drop status fields are not listed either: PrepareForCreate
// replaces the whole status first.
type FeatureGates struct {
	// PodLevelResources enables defaulting of spec.resources, keeps it on create and lets it
	// decide the QoS class (beta, on by default).
	PodLevelResources bool
	// PodLevelResourcesFixDefaulting moves pod-level resource defaulting from SetObjectDefaults_Pod
	// to the pod create strategy and adds pod-level limits defaulting (beta since v1.37, on by
	// default). It has no effect without PodLevelResources.
	PodLevelResourcesFixDefaulting bool
	// PodLevelResourcesFixKubeletQOSClass makes pod-level resources decide the QoS class only
	// when they set cpu, memory or hugepages, not whenever spec.resources is present (beta since
	// v1.37, on by default).
	PodLevelResourcesFixKubeletQOSClass bool
	// H2CContainerProbe defaults the protocol of httpGet probes and lifecycle handlers to HTTP1
	// and keeps a protocol set on create (alpha since v1.37, off by default: dropped).
	H2CContainerProbe bool

	// MatchLabelKeysInPodTopologySpread keeps topologySpreadConstraints[].matchLabelKeys on
	// create (beta, on by default).
	MatchLabelKeysInPodTopologySpread bool
	// MatchLabelKeysInPodTopologySpreadSelectorMerge merges the pod's labels named by
	// matchLabelKeys into the constraint's labelSelector on create (beta, on by default). It
	// has no effect without MatchLabelKeysInPodTopologySpread.
	MatchLabelKeysInPodTopologySpreadSelectorMerge bool
	// ContainerRestartRules keeps a container's restartPolicy and restartPolicyRules on create
	// (beta, on by default); off, only an init container's restartPolicy Always is kept.
	ContainerRestartRules bool
	// EnvFiles keeps env[].valueFrom.fileKeyRef on create (beta, on by default).
	EnvFiles bool
	// ClusterTrustBundleProjection keeps projected clusterTrustBundle sources on create (GA
	// since v1.37, on by default, not yet locked).
	ClusterTrustBundleProjection bool
	// PodCertificateRequest keeps projected podCertificate sources on create (GA since v1.37, on
	// by default, not yet locked).
	PodCertificateRequest bool
	// MaxUnavailableStatefulSet defaults a StatefulSet's rollingUpdate.maxUnavailable to 1 and
	// keeps it on create (beta, on by default since v1.37).
	MaxUnavailableStatefulSet bool

	// AtomicWriteVolumeUserFields keeps the user and defaultUser fields of secret, configMap,
	// downwardAPI and projected volumes on create (alpha since v1.37, off by default: dropped).
	AtomicWriteVolumeUserFields bool
	// EmptyDirVolumeMode keeps emptyDir.mode on create (alpha since v1.37, off: dropped).
	EmptyDirVolumeMode bool
	// VolumeBindMountOptions keeps volumeMounts[].bindMountOptions on create (alpha since v1.37,
	// off: dropped).
	VolumeBindMountOptions bool
	// ContainerStopSignals keeps lifecycle.stopSignal on create (alpha, off: dropped).
	ContainerStopSignals bool
	// GRPCContainerProbeTLS keeps a gRPC probe's mode on create (alpha since v1.37, off: dropped).
	GRPCContainerProbeTLS bool
	// EvictionRequestAPI keeps spec.evictionResponders on create (alpha since v1.37, off:
	// dropped).
	EvictionRequestAPI bool
	// GenericWorkload keeps spec.schedulingGroup on create (beta since v1.37 but off by default:
	// dropped).
	GenericWorkload bool
	// WorkloadWithJob keeps a Job's spec.scheduling on create (alpha, off: dropped).
	WorkloadWithJob bool
}

// DefaultFeatureGates returns the gates as the v1.37 API server has them by default.
func DefaultFeatureGates() FeatureGates {
	return FeatureGates{
		PodLevelResources:                   true,
		PodLevelResourcesFixDefaulting:      true,
		PodLevelResourcesFixKubeletQOSClass: true,

		MatchLabelKeysInPodTopologySpread:              true,
		MatchLabelKeysInPodTopologySpreadSelectorMerge: true,
		ContainerRestartRules:                          true,
		EnvFiles:                                       true,
		ClusterTrustBundleProjection:                   true,
		PodCertificateRequest:                          true,
		MaxUnavailableStatefulSet:                      true,
	}
}

// An Option changes how this package's functions default or prepare an object.
type Option func(*settings)

type settings struct {
	gates              FeatureGates
	objectDefaultsOnly bool
}

// WithFeatureGates defaults and prepares as an API server with these gates does.
func WithFeatureGates(gates FeatureGates) Option {
	return func(s *settings) { s.gates = gates }
}

// ObjectDefaultsOnly makes SetObjectDefaultsPod apply only what the API server's
// SetObjectDefaults_Pod applies, leaving out the pod-level resource defaulting its pod create
// strategy applies afterwards (see the package documentation). The result is then what
// SetObjectDefaults_Pod gives, not what the API server stores. The other functions ignore it.
func ObjectDefaultsOnly() Option {
	return func(s *settings) { s.objectDefaultsOnly = true }
}

func newSettings(opts []Option) settings {
	s := settings{gates: DefaultFeatureGates()}
	for _, opt := range opts {
		if opt != nil {
			opt(&s)
		}
	}
	return s
}
