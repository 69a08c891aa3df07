package configgen

import "github.com/podconfig/podconfig/features"

// FeatureGates is features.Gates, kubelet's feature gates, under the name Options has used.
//
// Deprecated: use features.Gates, the one gate type of the node-side packages.
type FeatureGates = features.Gates

// DefaultFeatureGates returns kubelet v1.37's default gates.
//
// Deprecated: use features.Default.
func DefaultFeatureGates() FeatureGates { return features.Default() }
