package trust

import (
	"bytes"
	"errors"
	"fmt"

	"scriptorium/workspace/topic"
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
	// OpSubmit stores a change of topics/core.md as a proposal for the
	// owner to review instead of installing it: how a paired caller
	// reaches the core (SPEC §5).
	OpSubmit Op = "submit"
)

// ErrForbidden is returned when a tier may not perform an operation or edit.
var ErrForbidden = errors.New("forbidden")

// allowed is the one fixed gate table: which tiers may call which operation.
// paired may read status, update (add only, see CheckEdit) and submit a
// proposal; everything else is the owner's. unpaired callers never reach
// the engine.
func allowed(op Op) []Tier {
	switch op {
	case OpStatus, OpUpdate, OpSubmit:
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

// CorePath is the topic file rendered into core.md and so into every
// prompt: the owner's alone (render.CoreTopicPath names the same file).
const CorePath = "topics/core.md"

// CheckEdit says whether tier may make an edit that turns old into new
// (exists tells whether the file existed). The owner may do anything.
// paired may only create new topic files or add to existing ones (SPEC §5):
// the new content starts with the old, byte for byte, and every element of
// the old file (block, heading, footnote, its id and its text) is still
// there as it was, so added text that joins the last paragraph is refused.
// CorePath is the owner's alone: paired may propose a change to it, never
// make one.
func CheckEdit(tier Tier, kind EditKind, path string, exists bool, old, new []byte) error {
	switch tier {
	case Owner:
		return nil
	case Paired:
		if path == CorePath {
			return fmt.Errorf("%w: %s is the owner's alone (it goes into every prompt): a paired caller may not install a %s of it; "+
				"send the same edits as a proposal for the owner to review instead (update --propose, memory_update with propose: true, "+
				"or POST /api/memory/update?propose=true)", ErrForbidden, CorePath, kind)
		}
		switch kind {
		case EditCreate:
			if !exists {
				return nil
			}
		case EditReplace, EditAppend:
			if !exists {
				if kind == EditAppend {
					return nil
				}
				break
			}
			if !bytes.HasPrefix(new, old) {
				break
			}
			if msg := changedElement(old, new); msg != "" {
				return fmt.Errorf("%w: paired may only add to %s, never change what is there: %s", ErrForbidden, path, msg)
			}
			return nil
		}
		return fmt.Errorf("%w: paired may only create new topic files or append to them; %s of %s would change existing bytes", ErrForbidden, kind, path)
	}
	return fmt.Errorf("%w: tier %q may not edit topics", ErrForbidden, tier)
}

// changedElement returns how new, whose bytes start with old's, changes an
// element of old, or "": old's elements must open new's, each with the
// same kind and raw bytes. Bytes are not enough: text added without a
// blank line continues the last paragraph and takes its place (the owner's
// block ^id vanishes into the added one).
func changedElement(old, new []byte) string {
	before, _ := topic.Parse(old)
	after, _ := topic.Parse(new)
	for i, el := range before.Elements {
		if i < len(after.Elements) {
			got := after.Elements[i]
			if got.Kind == el.Kind && got.Raw == el.Raw && got.Line == el.Line {
				continue
			}
		}
		what := fmt.Sprintf("the %s at line %d", el.Kind, el.Line)
		if el.Kind == topic.KindBlock {
			what = fmt.Sprintf("block ^%s (line %d)", el.BlockID, el.Line)
		}
		return what + " would no longer be as it was (added text must start after a blank line, outside any open code fence)"
	}
	return ""
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
