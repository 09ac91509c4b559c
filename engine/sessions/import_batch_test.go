package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// batch imports files (JSONL text) as one ImportBatch.
func batch(t *testing.T, s *Store, files ...string) (ImportResult, error) {
	t.Helper()
	b := s.BeginImport(context.Background())
	defer b.Rollback()
	for _, f := range files {
		if err := b.AddJSONL(strings.NewReader(f)); err != nil {
			t.Fatalf("AddJSONL: %v", err)
		}
	}
	return b.Commit()
}

// TestImportBatch_AcrossFiles: a parent may sit in a later file, a turn
// repeated in another file is a duplicate, and the result counts the
// whole batch.
func TestImportBatch_AcrossFiles(t *testing.T) {
	s := mustOpen(t)
	res, err := batch(t, s,
		jsonl(turn{ID: "c", Parent: "b", Role: "user", Content: "third"}, turn{ID: "d", Parent: "c", Role: "assistant", Content: "fourth"}),
		jsonl(turn{ID: "a", Role: "user", Content: "first"}, turn{ID: "b", Parent: "a", Role: "assistant", Content: "second"}),
		jsonl(turn{ID: "a", Role: "user", Content: "first"}, turn{Session: "s2", ID: "x", Role: "user", Content: "other"}),
	)
	if err != nil {
		t.Fatal(err)
	}
	if want := (ImportResult{Imported: 5, Sessions: 2, Duplicate: 1}); res != want {
		t.Errorf("result %+v, want %+v", res, want)
	}
	got, err := s.PendingTurns(k("d"), "ws")
	if err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(ids(got), ","); g != "a,b,c,d" {
		t.Errorf("pending = %s, want a,b,c,d", g)
	}
	// Again: every turn is stored already.
	res, err = batch(t, s, jsonl(turn{ID: "a", Role: "user", Content: "first"}), jsonl(turn{ID: "c", Parent: "b", Role: "user", Content: "third"}))
	if err != nil || res != (ImportResult{Duplicate: 2}) {
		t.Errorf("second batch = %+v, %v", res, err)
	}
}

// TestImportBatch_OneBadFileStoresNothing: every file's problems are
// reported with the file's index, and nothing of any file is stored.
func TestImportBatch_OneBadFileStoresNothing(t *testing.T) {
	s := mustOpen(t)
	_, err := batch(t, s,
		jsonl(turn{ID: "a", Role: "user", Content: "fine"}, turn{ID: "b", Parent: "a", Role: "assistant", Content: "fine"}),
		jsonl(turn{ID: "c", Parent: "b", Role: "user", Content: "child of the first file"})+"{oops\n",
		jsonl(turn{ID: "a", Role: "user", Content: "edited"}, turn{ID: "e", Parent: "nowhere", Role: "user"}),
	)
	var ie *ImportError
	if !errors.As(err, &ie) {
		t.Fatalf("Commit = %v, want *ImportError", err)
	}
	want := []struct {
		file, line int
		msg        string
	}{
		{1, 2, "bad JSON"},
		{2, 1, `duplicate id "a" in session "s1" (provider openprogram): content differs from the same id in another file of this import`},
		{2, 2, `parent "nowhere" not found`},
	}
	if len(ie.Lines) != len(want) {
		t.Fatalf("problems %+v", ie.Lines)
	}
	for i, w := range want {
		if l := ie.Lines[i]; l.File != w.file || l.Line != w.line || !strings.Contains(l.Message, w.msg) {
			t.Errorf("problem %d = %+v, want file %d line %d %q", i, l, w.file, w.line, w.msg)
		}
	}
	assertEmpty(t, s)
}

// TestImportBatch_ChildOfBadLine: a turn whose parent is a bad line of an
// earlier file is not reported a second time.
func TestImportBatch_ChildOfBadLine(t *testing.T) {
	s := mustOpen(t)
	_, err := batch(t, s,
		jsonl(turn{ID: "a", Role: "User"}),
		jsonl(turn{ID: "b", Parent: "a", Role: "user"}, turn{ID: "c", Parent: "b", Role: "assistant"}),
	)
	var ie *ImportError
	if !errors.As(err, &ie) || len(ie.Lines) != 1 || ie.Lines[0].File != 0 || !strings.Contains(ie.Lines[0].Message, "bad role") {
		t.Fatalf("Commit = %v", err)
	}
	assertEmpty(t, s)
}

// TestImportBatch_Nodes: handed-over nodes are checked as lines are, get
// the same defaults, and keep their metadata (the store's own keys are
// refused).
func TestImportBatch_Nodes(t *testing.T) {
	s := mustOpen(t)
	at := time.Date(2026, 8, 10, 12, 0, 0, 700e6, time.FixedZone("CEST", 2*3600))
	b := s.BeginImport(context.Background())
	defer b.Rollback()
	if err := b.AddNodes([]Node{
		{Session: "g", ID: "1", Role: "user", Content: "hi all", SpeakerID: "u1", SpeakerDisplay: "Ann\nSmith", Time: at,
			Tier: TierUnpaired, Group: true, Metadata: json.RawMessage(`{ "title": "Team chat", "reply_to": "0" }`)},
		{Session: "g", ID: "2", Parent: "1", Role: "assistant", Content: "hello", Time: at},
	}); err != nil {
		t.Fatal(err)
	}
	res, err := b.Commit()
	if err != nil || res != (ImportResult{Imported: 2, Sessions: 1}) {
		t.Fatalf("Commit = %+v, %v", res, err)
	}
	n, err := s.Node(Key{Session: "g", ID: "1"})
	if err != nil {
		t.Fatal(err)
	}
	if n.Provider != DefaultProvider || n.Tier != TierUnpaired || !n.Group || n.SpeakerDisplay != "Ann Smith" ||
		!n.Time.Equal(time.Date(2026, 8, 10, 10, 0, 0, 0, time.UTC)) || string(n.Metadata) != `{"title":"Team chat","reply_to":"0"}` {
		t.Errorf("stored %+v (metadata %s)", n, n.Metadata)
	}
	if n2, _ := s.Node(Key{Session: "g", ID: "2"}); n2.Tier != TierOwner || string(n2.Metadata) != "{}" {
		t.Errorf("defaults: %+v", n2)
	}

	b = s.BeginImport(context.Background())
	defer b.Rollback()
	if err := b.AddNodes([]Node{
		{Session: "g", ID: "3", Role: "user", Content: "x"},
		{Session: "g", ID: "4", Role: "user", Content: "x", Time: at, Metadata: json.RawMessage(`{"` + MarkerKey + `":"ws"}`)},
		{Session: "g", ID: "5", Role: "user", Content: "x", Time: at, Metadata: json.RawMessage(`[1]`)},
	}); err != nil {
		t.Fatal(err)
	}
	if b.Problems() != 3 {
		t.Errorf("Problems() = %d, want 3", b.Problems())
	}
	_, err = b.Commit()
	var ie *ImportError
	if !errors.As(err, &ie) || len(ie.Lines) != 3 || !strings.Contains(ie.Lines[0].Message, "missing time") ||
		!strings.Contains(ie.Lines[1].Message, "only the store writes") || !strings.Contains(ie.Lines[2].Message, "not a JSON object") {
		t.Fatalf("Commit = %v", err)
	}
}

// TestImportBatch_ReadErrorEndsIt: a read failure ends the batch; nothing
// is stored and Commit repeats the failure.
func TestImportBatch_ReadErrorEndsIt(t *testing.T) {
	s := mustOpen(t)
	b := s.BeginImport(context.Background())
	if err := b.AddJSONL(strings.NewReader(jsonl(turn{ID: "a", Role: "user"}))); err != nil {
		t.Fatal(err)
	}
	if err := b.AddJSONL(failingReader{}); err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("AddJSONL = %v", err)
	}
	if _, err := b.Commit(); err == nil {
		t.Fatal("Commit after a failure succeeded")
	}
	assertEmpty(t, s)
}

// TestImport_HasChildrenSetAtInsert: a node whose child comes in the same
// insert is stored with has_children set (the trigger then has nothing to
// rewrite), one whose child comes later gets it from the trigger, and the
// flag says exactly whether a node has a child, as the trigger alone
// made it; the tips are the childless nodes.
func TestImport_HasChildrenSetAtInsert(t *testing.T) {
	s := mustOpen(t)
	mustImport(t, s, jsonl(append(chain("", "a", "b", "c"), turn{ID: "x", Parent: "a", Role: "user", Content: "fork"})...))
	mustImport(t, s, jsonl(chain("c", "d", "e")...))
	var wrong int
	if err := s.db.QueryRow(`SELECT count(*) FROM nodes p
		WHERE has_children != EXISTS (SELECT 1 FROM nodes c WHERE c.parent_seq = p.seq)`).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if wrong != 0 {
		t.Errorf("%d nodes with a wrong has_children", wrong)
	}
	branches, err := s.Branches(s1)
	if err != nil {
		t.Fatal(err)
	}
	var tips []string
	for _, b := range branches {
		tips = append(tips, b.Tip.ID)
	}
	slices.Sort(tips)
	if !slices.Equal(tips, []string{"e", "x"}) {
		t.Errorf("tips %v, want [e x]", tips)
	}
}
