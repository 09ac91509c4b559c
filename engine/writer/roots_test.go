package writer_test

import (
	"context"
	"path/filepath"
	"testing"

	"scriptorium/engine/writer"
)

// TestWrite_RootsOneInstallPerBatch: a session whose turns have no parent
// (a group chat exported without replies: every turn its own branch) is
// written like the same turns chained: the same batches, one install
// each, the same memory. Before issue 26 it took one batch and one install
// per turn.
func TestWrite_RootsOneInstallPerBatch(t *testing.T) {
	ctx := context.Background()
	chained := genLongHistory(1, 120, 14)
	roots := unparent.ReplaceAllString(chained, "")
	if roots == chained {
		t.Fatal("the history has no parents to remove")
	}
	write := func(jsonl string) (state string, batches int, revision int64) {
		state = filepath.Join(t.TempDir(), "state")
		wtImportJSONL(t, state, jsonl)
		e := wtOpen(t, state, nil)
		res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
		if err != nil {
			t.Fatal(err)
		}
		st := wtStore(t, state)
		if n, err := st.PendingTurnTotal(wtWorkspaceID(t, e)); err != nil || n != 0 {
			t.Fatalf("%d turn(s) still pending, %v", n, err)
		}
		return state, res.Batches, res.Revision
	}
	cState, cBatches, cRev := write(chained)
	rState, rBatches, rRev := write(roots)
	if rBatches != cBatches || rRev != cRev {
		t.Errorf("roots: %d batch(es) at revision %d; chained: %d at %d", rBatches, rRev, cBatches, cRev)
	}
	if rBatches > 3 {
		t.Errorf("%d batches for 120 turns: one per branch?", rBatches)
	}
	ct, rt := wtTopics(t, cState), wtTopics(t, rState)
	if len(ct) == 0 || len(rt) != len(ct) {
		t.Fatalf("topics: %d chained, %d roots", len(ct), len(rt))
	}
	for p, c := range ct {
		if rt[p] != c {
			t.Errorf("%s differs between roots and chained", p)
		}
	}
}
