package defaults

// FeatureGates are the API server feature gates that change how a Pod is defaulted. The zero value
// is not the API server's default: start from DefaultFeatureGates and change what your cluster
// changes. ImageVolume is GA and locked on in v1.37, so it is not settable: image volumes always get
// a pull policy.
type FeatureGates struct {
	// PodLevelResources enables defaulting of spec.resources (beta, on by default).
	PodLevelResources bool
	// PodLevelResourcesFixDefaulting moves pod-level resource defaulting from SetObjectDefaults_Pod
	// to the pod create strategy and adds pod-level limits defaulting (beta since v1.37, on by
	// default). It has no effect without PodLevelResources.
	PodLevelResourcesFixDefaulting bool
	// H2CContainerProbe defaults the protocol of httpGet probes and lifecycle handlers to HTTP1
	// (alpha since v1.37, off by default).
	H2CContainerProbe bool
}

// DefaultFeatureGates returns the gates as the v1.37 API server has them by default.
func DefaultFeatureGates() FeatureGates {
	return FeatureGates{
		PodLevelResources:              true,
		PodLevelResourcesFixDefaulting: true,
	}
}

// An Option changes how SetObjectDefaultsPod defaults a pod.
type Option func(*settings)

type settings struct {
	gates              FeatureGates
	objectDefaultsOnly bool
}

// WithFeatureGates defaults as an API server with these gates does.
func WithFeatureGates(gates FeatureGates) Option {
	return func(s *settings) { s.gates = gates }
}

// ObjectDefaultsOnly applies only what the API server's SetObjectDefaults_Pod applies, leaving out
// the pod-level resource defaulting its pod create strategy applies afterwards (see the package
// documentation). The result is then what SetObjectDefaults_Pod gives, not what the API server
// stores.
func ObjectDefaultsOnly() Option {
	return func(s *settings) { s.objectDefaultsOnly = true }
}

func newSettings(opts []Option) settings {
	if len(opts) == 0 {
		return settings{gates: DefaultFeatureGates()}
	}
	s := settings{gates: DefaultFeatureGates()}
	for _, opt := range opts {
		if opt != nil {
			opt(&s)
		}
	}
	return s
}
