// Package features holds the kubelet feature gates that change what podconfig generates, with
// kubelet v1.37's defaults: one type, read by configgen and resources alike.
//
// The API server's gates, which change how a Pod is defaulted before kubelet sees it, are a
// different process's settings and live with that layer (defaults.FeatureGates).
package features
