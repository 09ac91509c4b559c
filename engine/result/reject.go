package result

// RejectResult is the outcome of reject.
type RejectResult struct {
	// Rejected are the source-ids newly rejected; sources rejected
	// already are left out, so rejecting twice returns none.
	Rejected []string `json:"rejected"`
}

// RejectedSource is one row of `pending --rejected`: a pending source the
// owner rejected, with the decision.
type RejectedSource struct {
	PendingSource
	Reason     string `json:"reason"`
	RejectedAt string `json:"rejected_at"`
	RejectedBy string `json:"rejected_by"`
}
