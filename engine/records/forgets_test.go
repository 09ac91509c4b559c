package records

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestStore_ForgetLedgerAndScrub: a forget's ledger row is written once
// and read back; a scrub rewrites exactly the rows it is told to, adds to
// the ledger's cleaned list and marks the forget done; the copies it reads
// skip the forget's own install.
func TestStore_ForgetLedgerAndScrub(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Forget(ctx, 3); !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("no ledger row yet: %v", err)
	}
	at := time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)
	for _, h := range []History{
		{Revision: 1, Time: at, Actor: "owner", Kind: "update", Changed: []string{"topics/a.md"},
			Diffs: map[string]string{"topics/a.md": "+secret"}, Files: map[string]FileChange{"topics/a.md": {After: []byte("secret")}}},
		{Revision: 2, Time: at, Actor: "owner", Kind: "forget", Changed: []string{"topics/a.md"}},
	} {
		if err := InsertHistory(ctx, s.DB(), h); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddEvent(ctx, at.Format(time.RFC3339), "note", []byte(`{"text":"secret"}`)); err != nil {
		t.Fatal(err)
	}
	row := ForgetRow{Revision: 2, Time: at.Format(time.RFC3339), Actor: "owner", Selector: []byte(`{"sources":["a"]}`),
		Records: []byte(`[]`), Blocks: []byte(`["e0000001"]`), Labels: []byte(`[]`)}
	for range 2 { // the finish step may add it again
		if err := s.AddForget(ctx, row); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Forget(ctx, 2)
	if err != nil || got.Done || string(got.Blocks) != `["e0000001"]` || got.Cleaned == nil {
		t.Fatalf("ledger row %+v, %v", got, err)
	}
	copies, err := s.Copies(ctx, 2)
	if err != nil || len(copies.History) != 1 || copies.History[0].Revision != 1 || len(copies.Events) != 1 {
		t.Fatalf("copies %+v, %v", copies, err)
	}
	err = s.Scrub(ctx, func(w *Scrubber) error {
		if err := w.SetHistory(ctx, 1, `{}`, `{}`, 2); err != nil {
			return err
		}
		if err := w.SetEvent(ctx, copies.Events[0].ID, `{"kind":"note","scrubbed_by":2}`); err != nil {
			return err
		}
		for _, line := range []string{"history revision 1", "event 1"} {
			if err := w.AddCleaned(ctx, 2, 1, []string{line}); err != nil {
				return err
			}
		}
		if err := w.Compact(ctx); err != nil {
			return err
		}
		return w.Done(ctx, 2)
	})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.Forgets(ctx)
	if err != nil || len(all) != 1 || !all[0].Done || all[0].Turns != 2 ||
		!slices.Equal(all[0].Cleaned, []string{"history revision 1", "event 1"}) {
		t.Fatalf("ledger after the scrub %+v, %v", all, err)
	}
	after, err := s.Copies(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(after.History[0].Diffs+after.History[0].Files+after.Events[0].Data, "secret") {
		t.Errorf("the scrubbed rows still hold the text: %+v", after)
	}
	if r, err := s.Files(ctx, 1); err != nil || r.ScrubbedBy != 2 || len(r.Files) != 0 {
		t.Errorf("history 1 after the scrub: %+v, %v (want no files, scrubbed by 2)", r, err)
	}
}
