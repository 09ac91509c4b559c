package sessions

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestOwnerNames: the display names of the owner's own turns, most turns
// first; a paired or unpaired sender's name, a speakerless turn and a
// forgotten turn never count.
func TestOwnerNames(t *testing.T) {
	s := mustOpen(t)
	mustImport(t, s, jsonl(
		turn{ID: "1", Role: "user", Content: "hi", Tier: "owner", SpeakerID: "u1", SpeakerDisplay: "Sigrid"},
		turn{ID: "2", Parent: "1", Role: "user", Content: "yo", Tier: "paired", SpeakerID: "u2", SpeakerDisplay: "Mel"},
		turn{ID: "3", Parent: "2", Role: "user", Content: "later", Tier: "owner", SpeakerID: "u1", SpeakerDisplay: "Sigrid"},
		turn{ID: "4", Parent: "3", Role: "user", Content: "x", Tier: "unpaired", SpeakerID: "u3", SpeakerDisplay: "Mallory"},
		turn{ID: "5", Parent: "4", Role: "user", Content: "x", Tier: "unpaired", SpeakerID: "u3", SpeakerDisplay: "Mallory"},
		turn{ID: "6", Parent: "5", Role: "user", Content: "x", Tier: "unpaired", SpeakerID: "u3", SpeakerDisplay: "Mallory"},
		turn{Session: "s2", ID: "a", Role: "user", Content: "speakerless", Tier: "owner"},
		turn{Session: "s3", ID: "b", Role: "user", Content: "as Siggi", Tier: "owner", SpeakerID: "u9", SpeakerDisplay: "Siggi"},
	))
	got, err := s.OwnerNames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []NameCount{{"Sigrid", 2}, {"Siggi", 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OwnerNames = %+v, want %+v", got, want)
	}
	if _, err := s.Forget(Selector{SpeakerID: "u1"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got, _ = s.OwnerNames(context.Background()); !reflect.DeepEqual(got, []NameCount{{"Siggi", 1}}) {
		t.Errorf("after forgetting Sigrid's turns: %+v", got)
	}
	// The query reads the partial index, not the turns.
	var plan strings.Builder
	rows, err := s.db.Query(`EXPLAIN QUERY PLAN SELECT speaker_display, count(*) FROM nodes
	 WHERE tier = 'owner' AND speaker_display <> '' GROUP BY speaker_display`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	if !strings.Contains(plan.String(), "nodes_owner_names") {
		t.Errorf("the query does not use nodes_owner_names:\n%s", plan.String())
	}
}

// BenchmarkOwnerNames: the owner's name from 100k turns, a tenth of them
// the owner's named turns in chats, through the partial index (Index)
// against the same query over every turn (Scan, the baseline: NOT
// INDEXED). The writer asks once per run.
func BenchmarkOwnerNames(b *testing.B) {
	s := mustOpen(b)
	var file strings.Builder
	for i := range 100_000 {
		tr := turn{Session: fmt.Sprintf("s%d", i/100), ID: fmt.Sprintf("n%d", i), Role: "user", Content: "some words of conversation", Tier: "owner"}
		if i%100 > 0 {
			tr.Parent = fmt.Sprintf("n%d", i-1)
		}
		switch i % 10 {
		case 0:
			tr.SpeakerID, tr.SpeakerDisplay = "u1", []string{"Sigrid", "Siggi"}[i%3%2]
		case 1, 2, 3:
			tr.Tier, tr.SpeakerID, tr.SpeakerDisplay = "paired", "u2", "Ben Okoro"
		}
		file.WriteString(tr.line())
		file.WriteByte('\n')
	}
	mustImport(b, s, file.String())
	ctx := context.Background()
	b.Run("Index", func(b *testing.B) {
		for b.Loop() {
			if names, err := s.OwnerNames(ctx); err != nil || len(names) != 2 {
				b.Fatalf("OwnerNames = %v, %v", names, err)
			}
		}
	})
	b.Run("Scan", func(b *testing.B) {
		for b.Loop() {
			var n int
			if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT speaker_display, count(*) FROM nodes NOT INDEXED
			 WHERE tier = 'owner' AND speaker_display <> '' GROUP BY speaker_display)`).Scan(&n); err != nil || n != 2 {
				b.Fatalf("scan = %d, %v", n, err)
			}
		}
	})
}
