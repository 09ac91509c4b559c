package trust

import "time"

// Promotion is one audit record of the promotion ledger (state.db's
// promotions table, which engine/records owns). The ledger is a record,
// not a cache: it is never rebuilt from anything else.
type Promotion struct {
	SourceID      string
	PromotedBy    Tier
	PromotedAt    time.Time
	PreviousState string // "pending"
	RecordSHA256  string // SHA-256 of the record bytes the owner saw
	Path, Anchor  string
}

// Rejection is one row of the rejection log beside the ledger. A
// rejection takes a pending source out of the owner's review queue; it
// changes no trust: the source stays pending (never searched, recalled or
// rendered) and a later promotion still trusts it.
type Rejection struct {
	SourceID     string
	RejectedBy   Tier
	RejectedAt   time.Time
	Reason       string // the owner's words, "" when none was given
	RecordSHA256 string // SHA-256 of the record bytes the owner saw
	Path, Anchor string
}
