// Package forget is the owner's right to have memory lose something for
// good: every record of a source, a speaker or a thread, and everything
// made from them. Archived records become tombstones (the core's one
// sanctioned rewrite of the append-only archives, engine.ForgetArchives),
// blocks that cite only forgotten sources are removed and the others lose
// those citations, the derived views and the search index are rebuilt
// without them, the sessions.db turns are blanked, the vector cache loses
// their vectors, and every earlier record of the text (history bytes and
// diffs, sleep pass diffs, events, proposals, runtime status files and
// logs) is scrubbed, with the SQLite files compacted so no freed page
// keeps it. The ledger keeps who, when, what was selected and the SHA-256
// of each removed record, never the content, and revert cannot bring it
// back.
//
// The install is the core's; everything after it is this package's
// finish step (engine.RegisterFinisher), which the core runs again after a
// crash: on open, on the next write lock, and in a long-lived engine
// before it reads.
package forget

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace/archive"
)

// Service is the finish step's name in the core's registry.
const Service = "forget"

func init() { engine.RegisterFinisher(Service, finishStep) }

// record is the ledger row of one forget and its finish step's payload:
// ids and hashes, never text.
type record struct {
	Selector result.ForgetSelector    `json:"selector"`
	Time     time.Time                `json:"time"`
	Actor    string                   `json:"actor"`
	Records  []result.ForgottenRecord `json:"records"`
	Blocks   []string                 `json:"blocks"` // block ids removed
	Labels   []string                 `json:"labels"` // footnote labels removed
}

func check(s result.ForgetSelector) error {
	n := 0
	if len(s.Sources) > 0 {
		n++
	}
	if s.Speaker != "" {
		n++
	}
	if s.Thread != "" {
		n++
		p, t, ok := strings.Cut(s.Thread, "/")
		if !ok || archive.ValidSegment(p) != nil || archive.ValidSegment(t) != nil {
			return errcode.Errorf(errcode.InvalidArgument, "thread %q is not <provider>/<thread>", s.Thread)
		}
	}
	if n != 1 {
		return errcode.Errorf(errcode.InvalidArgument, "forget needs exactly one of: source-ids, a speaker id, a thread")
	}
	for _, id := range s.Sources {
		if err := archive.ValidateSourceID(id); err != nil {
			return errcode.Errorf(errcode.InvalidArgument, "%v", err)
		}
	}
	return nil
}

// Run removes what sel selects (see the package comment). With dryRun it
// only reports every place the content is and what would happen there. An
// unknown source-id is NOT_FOUND; a selection that holds nothing (left to
// forget) is INVALID_ARGUMENT. A forget that would leave the workspace
// invalid is REJECTED and changes nothing. After the install, what lies
// outside the workspace files is finished at once; if that fails part-way
// (IO), the install stands and the finish step runs again later.
func Run(ctx context.Context, e *engine.Engine, sel result.ForgetSelector, dryRun bool) (result.ForgetResult, error) {
	res := result.ForgetResult{Sources: []string{}, Changes: []result.ForgetChange{}, Blocks: []string{}}
	if err := e.Authorize(trust.OpForget); err != nil {
		return res, err
	}
	if err := check(sel); err != nil {
		return res, err
	}
	err := e.Locked(ctx, !e.Options().Interactive, func(tx *engine.Tx) error {
		v, err := tx.View(ctx)
		if err != nil {
			return err
		}
		fp, err := planForget(e, v, sel)
		if err != nil {
			return err
		}
		rec := fp.record(e.Now().UTC())
		payload, _ := json.Marshal(rec)
		ch := engine.Change{Kind: "forget", Actor: trust.Owner, Edits: fp.edits, Archives: fp.archives,
			Sources: fp.sourceIDs(), Finish: &engine.Finish{Service: Service, Payload: payload}}
		plan, err := e.Plan(v, ch)
		if err != nil {
			return err
		}
		if bad := engine.NewViolations(v, plan.After); len(bad) > 0 {
			return &errcode.Error{Code: errcode.Rejected, Violations: bad,
				Message: fmt.Sprintf("forget rejected: it would leave %d violation(s); nothing was changed", len(bad))}
		}
		res, err = preview(ctx, e, v, plan, fp)
		if err != nil || dryRun {
			return err
		}
		// Runtime files are scrubbed while the text is known, before the
		// install: a crash past it leaves the finish step only the ids.
		if _, err := scrubRuntime(e, fp.needles, true); err != nil {
			return errcode.Wrap(errcode.IO, err, "forget %s: scrub runtime files (the memory files were not changed)", sel)
		}
		out, err := tx.Install(ctx, ch)
		if err != nil {
			return err
		}
		res.Revision = out.Revision
		e.CrashPoint(engine.ForgetCleanupCrashPoint)
		if err := insertLedger(ctx, e.Records(), out.Revision, rec); err != nil {
			return errcode.Wrap(errcode.IO, err, "forgot %s at revision %d, but its ledger row is not written yet "+
				"(it is, with the clean-up, when the workspace is next opened)", sel, out.Revision)
		}
		if err := finish(ctx, tx, out.Revision, rec, fp.needles); err != nil {
			return errcode.Wrap(errcode.IO, err, "forgot %s at revision %d, but cleaning up outside the files is not finished "+
				"(it is finished when the workspace is next opened)", sel, out.Revision)
		}
		// Marks the step done in the core's registry (it finds the ledger
		// row done and only confirms it).
		return tx.RunFinishes(ctx)
	})
	return res, err
}

// finishStep is the registered finish step: the forget's clean-up from
// its ledger record alone (the text is gone from the files by then).
func finishStep(ctx context.Context, tx *engine.Tx, rev int64, payload []byte) error {
	db := tx.Engine().Records()
	rec := &record{}
	if len(payload) > 0 {
		if err := json.Unmarshal(payload, rec); err != nil {
			return fmt.Errorf("read the forget of revision %d: %w", rev, err)
		}
		if err := insertLedger(ctx, db, rev, rec); err != nil {
			return err
		}
	}
	stored, done, err := ledgerRecord(ctx, db, rev)
	if err != nil || done {
		return err
	}
	return finish(ctx, tx, rev, stored, marksOf(stored))
}
