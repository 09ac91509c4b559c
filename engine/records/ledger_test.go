package records

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"scriptorium/trust"
)

// TestStore_LedgerAndFinishes: the promotion ledger, the rejection log and
// the finish steps, as the core and the review service use them.
func TestStore_LedgerAndFinishes(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Date(2026, 8, 11, 9, 0, 0, 0, time.UTC)
	if _, err := s.Promote(ctx, []trust.Promotion{{SourceID: "a", PromotedBy: trust.Paired}}); !errors.Is(err, trust.ErrForbidden) {
		t.Fatalf("a paired promotion: %v, want forbidden", err)
	}
	p := trust.Promotion{SourceID: "a", PromotedBy: trust.Owner, PromotedAt: at, PreviousState: "pending", RecordSHA256: "h", Path: "sources/x.md", Anchor: "source-a"}
	for i, want := range [][]string{{"a"}, nil} { // twice is a no-op
		if got, err := s.Promote(ctx, []trust.Promotion{p}); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("promotion %d: %v %v, want %v", i, got, err, want)
		}
	}
	if got, err := s.Promoted(ctx); err != nil || !reflect.DeepEqual(got, map[string]bool{"a": true}) {
		t.Fatalf("Promoted: %v %v", got, err)
	}
	if got, err := s.Promotions(ctx); err != nil || len(got) != 1 || got[0] != p {
		t.Fatalf("Promotions: %+v %v, want %+v", got, err, p)
	}
	r := trust.Rejection{SourceID: "b", RejectedBy: trust.Owner, RejectedAt: at, Reason: "spam", RecordSHA256: "h", Path: "sources/x.md", Anchor: "source-b"}
	promotedToo := r
	promotedToo.SourceID = "a"
	if got, err := s.Reject(ctx, []trust.Rejection{r, promotedToo, r}); err != nil || !reflect.DeepEqual(got, []string{"b"}) {
		t.Fatalf("Reject: %v %v, want [b] (a is promoted, b once)", got, err)
	}
	if got, err := s.Rejections(ctx); err != nil || len(got) != 1 || got[0] != r {
		t.Fatalf("Rejections: %+v %v, want %+v", got, err, r)
	}

	h := History{Revision: 3, Time: at, Actor: "owner", Kind: "forget"}
	for range 2 { // recovery replays it
		if err := s.AddInstall(ctx, h, &Finish{Service: "forget", Payload: `{"x":1}`}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddInstall(ctx, History{Revision: 4, Time: at, Actor: "owner", Kind: "update"}, nil); err != nil {
		t.Fatal(err)
	}
	if s.FinishesOwed([]string{"other"}) || s.FinishesOwed(nil) || !s.FinishesOwed([]string{"other", "forget"}) {
		t.Fatal("FinishesOwed does not name exactly the forget step")
	}
	owed, err := s.OwedFinishes(ctx)
	if err != nil || !reflect.DeepEqual(owed, []Finish{{Revision: 3, Service: "forget", Payload: `{"x":1}`}}) {
		t.Fatalf("OwedFinishes: %+v %v", owed, err)
	}
	if err := s.FinishDone(ctx, 3, "forget"); err != nil {
		t.Fatal(err)
	}
	if owed, err := s.OwedFinishes(ctx); err != nil || len(owed) != 0 || s.FinishesOwed([]string{"forget"}) {
		t.Fatalf("after FinishDone: %+v %v", owed, err)
	}
	if hs, err := s.Histories(ctx); err != nil || len(hs) != 2 {
		t.Fatalf("history rows: %d %v, want 2", len(hs), err)
	}
}
