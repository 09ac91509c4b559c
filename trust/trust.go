package trust

import (
	"bytes"
	"errors"
	"fmt"
)

// Tier is an authority tier (SPEC §5). The same words label event
// visibility.
type Tier string

// The tiers, strongest first.
const (
	Owner    Tier = "owner"    // the local interactive user: TUI, CLI on a terminal
	Paired   Tier = "paired"   // paired channel users
	Unpaired Tier = "unpaired" // everyone else; their group-chat messages are pending sources
)

// ParseTier accepts the tier words of SPEC §5.
func ParseTier(s string) (Tier, error) {
	switch Tier(s) {
	case Owner, Paired, Unpaired:
		return Tier(s), nil
	}
	return "", fmt.Errorf("unknown tier %q (want owner, paired or unpaired)", s)
}

// Op is an engine operation that goes through the gate.
type Op string

// The engine operations.
const (
	OpStatus   Op = "status"
	OpVerify   Op = "verify"
	OpGet      Op = "get"
	OpSearch   Op = "search"
	OpCore     Op = "core"
	OpPending  Op = "pending"
	OpHistory  Op = "history"
	OpUpdate   Op = "update"
	OpWrite    Op = "write"
	OpImport   Op = "import"
	OpPromote  Op = "promote"
	OpBackfill Op = "backfill"
	OpSleep    Op = "sleep"
	// OpRevert installs the inverse of an earlier transaction.
	OpRevert Op = "revert"
	// OpPropose stores, accepts or declines proposals: passes and writer
	// batches that wait for the owner.
	OpPropose Op = "propose"
	// OpReject takes pending sources out of the review queue; they stay
	// untrusted.
	OpReject Op = "reject"
	// OpAudit reads the audit trail: installs, promotions, rejections,
	// passes and declined proposals.
	OpAudit Op = "audit"
	// OpForget removes records, and everything derived from them, for good.
	OpForget Op = "forget"
)

// ErrForbidden is returned when a tier may not perform an operation or edit.
var ErrForbidden = errors.New("forbidden")

// allowed is the one fixed gate table: which tiers may call which operation.
// paired may read status and update (append-only, see CheckPairedEdit);
// everything else is the owner's. unpaired callers never reach the engine.
func allowed(op Op) []Tier {
	switch op {
	case OpStatus, OpUpdate:
		return []Tier{Owner, Paired}
	case OpVerify, OpGet, OpSearch, OpCore, OpPending, OpHistory, OpWrite, OpImport,
		OpPromote, OpBackfill, OpSleep, OpRevert, OpPropose, OpReject, OpAudit, OpForget:
		return []Tier{Owner}
	}
	return nil
}

// Check is the gate every engine operation passes through.
func Check(tier Tier, op Op) error {
	for _, t := range allowed(op) {
		if t == tier {
			return nil
		}
	}
	return fmt.Errorf("%w: tier %q may not %s", ErrForbidden, tier, op)
}

// EditKind is the kind of one edit in a transaction, as the gate sees it.
type EditKind string

// The edit kinds of SPEC §6.
const (
	EditCreate  EditKind = "create"
	EditReplace EditKind = "replace"
	EditAppend  EditKind = "append"
	EditDelete  EditKind = "delete"
	EditMove    EditKind = "move"
)

// CheckEdit says whether tier may make an edit that turns old into new
// (exists tells whether the file existed). paired may only create new topic
// files or byte-append: the new content must start with the old, byte for
// byte. The owner may do anything.
func CheckEdit(tier Tier, kind EditKind, path string, exists bool, old, new []byte) error {
	switch tier {
	case Owner:
		return nil
	case Paired:
		switch kind {
		case EditCreate:
			if !exists {
				return nil
			}
		case EditReplace, EditAppend:
			if exists && bytes.HasPrefix(new, old) {
				return nil
			}
			if !exists && kind == EditAppend {
				return nil
			}
		}
		return fmt.Errorf("%w: paired may only create new topic files or append to them; %s of %s would change existing bytes", ErrForbidden, kind, path)
	}
	return fmt.Errorf("%w: tier %q may not edit topics", ErrForbidden, tier)
}

// SourceState is what the trust resolver knows about one cited source.
type SourceState int

// Source states.
const (
	SourceMissing SourceState = iota // cannot be resolved
	SourceTrusted
	SourcePending
)

// BlockTrusted resolves a block's trust after the whole workspace is read:
// all or nothing over its citations. A block that cites any pending or
// unresolvable source is pending; a block that cites nothing is trusted.
// C is whatever names a citation for the caller (a source-id, or a full
// path+anchor+source-id citation).
func BlockTrusted[C any](cited []C, state func(C) SourceState) bool {
	for _, id := range cited {
		if state(id) != SourceTrusted {
			return false
		}
	}
	return true
}

// SourcePendingNow says whether a source whose frame carries trust:pending is
// still pending: it is, unless the ledger holds a promotion for it.
func SourcePendingNow(framePending, promoted bool) bool {
	return framePending && !promoted
}
