// Package resourcelist sums and raises v1.ResourceLists, as the API server's and kubelet's
// resource helpers (addResourceList, maxResourceList) do when they total a pod's requests and
// limits. Validation, defaulting and admission total pods alike.
package resourcelist
