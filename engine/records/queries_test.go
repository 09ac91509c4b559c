package records

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestStore_Queries: what an install, a pass and an event write is what
// the readers give back, and the newest-first orders hold.
func TestStore_Queries(t *testing.T) {
	ctx := context.Background()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if rev, topics := s.LastInstall(ctx); rev != 0 || len(topics) != 0 {
		t.Fatalf("empty: last install %d %v", rev, topics)
	}
	at := time.Date(2026, 8, 1, 9, 0, 0, 0, time.UTC)
	for i, h := range []History{
		{Revision: 1, Time: at, Actor: "owner", Kind: "update", Changed: []string{"topics/a.md"},
			Diffs: map[string]string{"topics/a.md": "+x"}, Files: map[string]FileChange{"topics/a.md": {After: []byte("x")}}},
		{Revision: 2, Time: at.Add(time.Hour), Actor: "owner", Kind: "revert", Reverts: 1, Sources: []string{"s1"},
			Changed: []string{"sources/2026-08.md", "topics/a.md"}, Files: map[string]FileChange{"topics/a.md": {Before: []byte("x")}}},
	} {
		for range 2 { // a replayed install is recorded once
			if err := InsertHistory(ctx, s.DB(), h); err != nil {
				t.Fatalf("insert %d: %v", i, err)
			}
		}
	}
	hs, err := s.Histories(ctx)
	if err != nil || len(hs) != 2 {
		t.Fatalf("histories: %+v, %v", hs, err)
	}
	if rev, topics := s.LastInstall(ctx); rev != 2 || len(topics) != 1 || topics[0] != "topics/a.md" {
		t.Errorf("last install %d %v", rev, topics)
	}
	r, err := s.Files(ctx, 1)
	if err != nil || r.Kind != "update" || string(r.Files["topics/a.md"].After) != "x" || r.Files["topics/a.md"].Before != nil {
		t.Errorf("files of 1: %+v, %v", r, err)
	}
	if _, err := s.Files(ctx, 9); !errors.Is(err, ErrNoRevision) {
		t.Errorf("files of 9: %v", err)
	}
	later, err := s.FilesAfter(ctx, 1)
	if err != nil || len(later) != 1 || later[0].Revision != 2 || later[0].Kind != "revert" {
		t.Errorf("after 1: %+v, %v", later, err)
	}
	for _, d := range []string{`{"n":1}`, `{"n":2}`} {
		if err := s.AddEvent(ctx, "2026-08-01T09:00:00Z", "ingest_ended", []byte(d)); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := s.Events(ctx, "ingest_ended")
	if err != nil || len(evs) != 2 || evs[0].Data != `{"n":2}` {
		t.Errorf("events newest first: %+v, %v", evs, err)
	}
	if other, _ := s.Events(ctx, "proposal_declined"); len(other) != 0 {
		t.Errorf("events of another kind: %+v", other)
	}
	for i := range 2 {
		id, err := s.AddPass(ctx, Pass{Time: "t", Model: "offline", Revision: int64(i), Changed: []FileDiff{{Path: "topics/a.md", Diff: "+y"}}})
		if err != nil || id != int64(i+1) {
			t.Fatalf("pass %d: id %d, %v", i, id, err)
		}
	}
	ps, err := s.Passes(ctx)
	if err != nil || len(ps) != 2 || ps[0].ID != 2 || ps[1].Changed[0].Diff != "+y" || ps[0].CoreGap == nil && len(ps[0].CoreGap) != 0 {
		t.Errorf("passes newest first: %+v, %v", ps, err)
	}
}
