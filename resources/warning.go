package resources

// Warning is something kubelet only logs while it computes a container's resources.
type Warning struct {
	// Kind says which case it is.
	Kind WarningKind
	// Message is the text.
	Message string
}

// WarningKind is the case a Warning reports.
type WarningKind int

// The cases of Warning.
const (
	// WarningDRANotApplied: a DRA claim's node-allocatable resources are not applied.
	WarningDRANotApplied WarningKind = iota + 1
	// WarningHugePageLimitIgnored: a hugepage limit whose name does not parse was ignored.
	WarningHugePageLimitIgnored
	// WarningSwapDisallowed: the swap amount could not be computed, so swap is disallowed.
	WarningSwapDisallowed
)
