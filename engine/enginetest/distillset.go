package enginetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/workspace"
)

// The labelled distillation set (testdata/distill, see its README) as the
// writer's tests and the recall measurements read it: its gold and its
// turns, imported into a state dir's sessions.db the way the importer
// stores a transcript (a coding session's working directory and a chat's
// title as node metadata, which the JSONL import has no field for).

// DistillConv is one conversation of the set's gold.json.
type DistillConv struct {
	File     string `json:"file"`
	Split    string `json:"split"`
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Session  string `json:"session"`
	Title    string `json:"title"`
	Project  string `json:"project"`
	Group    bool   `json:"group"`
	Turns    []struct {
		Ref   string `json:"ref"`
		Class string `json:"class"` // fact, question, narration, tool, chat
	} `json:"turns"`
	Facts []struct {
		ID       string   `json:"id"`
		Subject  string   `json:"subject"`
		Text     string   `json:"text"`
		Evidence []string `json:"evidence"`
	} `json:"facts"`
	Questions []struct {
		Text     string   `json:"text"`
		Evidence []string `json:"evidence"`
	} `json:"questions"`
}

// DistillTurn is one line of the set's turns.jsonl.
type DistillTurn struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Parent         string `json:"parent"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	Time           string `json:"time"`
	Tier           string `json:"tier"`
	Group          bool   `json:"group"`
	Project        string `json:"project"`
	Title          string `json:"title"`
}

// Ref is the turn's source-id.
func (t DistillTurn) Ref() string { return t.Provider + "/" + t.Session + "/" + t.ID }

// DistillSet is one split of the set.
type DistillSet struct {
	Convs []DistillConv
	Turns []DistillTurn
}

// SealedDistillSplits are parts of the set written for a later
// measurement and not yet measured (testdata/distill/README.md, "Splits"):
// LoadDistillSet refuses them, so no writer or recall test (AIC_SPLITS and
// AIC_DIAG included) shows what the writer makes of them before the one
// measurement at the end. engine/writer/distill's tests cannot import this
// package and keep their own sealedSplits; a test checks the two agree.
// Unseal a part by removing it from both. heldout6, written for round six,
// was measured once at its end, heldout7, written for round seven, at the
// end of that round, heldout8, written for round eight, at the end of
// that round, heldout9, written for round nine, at the end of that
// round, heldout10, written for round ten, at the end of that round,
// heldout11, written for round eleven, at the end of that round,
// heldout12, written for round twelve, at the end of that round,
// heldout13, written for round thirteen, at the end of that round,
// heldout14, written for round fourteen, at the end of that round,
// heldout15, written for round fifteen, at the end of that round,
// heldout16, written for round sixteen, at the end of that round,
// heldout17, written for round seventeen, at the end of that round,
// heldout18, written for round eighteen, at the end of that round.
// heldout19, written for round nineteen, stays sealed until that round's end.
var SealedDistillSplits = []string{"heldout19"}

// LoadDistillSet reads the conversations of split from the set in dir; a
// sealed split is refused.
func LoadDistillSet(t testing.TB, dir, split string) DistillSet {
	t.Helper()
	if slices.Contains(SealedDistillSplits, split) {
		t.Fatalf("distillation set: %s is sealed (SealedDistillSplits): no test measures it before the end of the round", split)
		return DistillSet{}
	}
	return loadDistillSet(t, dir, split)
}

// loadDistillSet reads split, sealed or not: only the import check uses it
// unguarded, and it distils nothing.
func loadDistillSet(t testing.TB, dir, split string) DistillSet {
	t.Helper()
	var gold struct {
		Conversations []DistillConv `json:"conversations"`
	}
	gb, err := os.ReadFile(filepath.Join(dir, "gold.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(gb, &gold); err != nil {
		t.Fatal(err)
	}
	var set DistillSet
	inSplit := map[string]bool{}
	for _, c := range gold.Conversations {
		if c.Split == split {
			set.Convs = append(set.Convs, c)
			inSplit[c.Provider+"/"+c.Session] = true
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "turns.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var tr DistillTurn
		if err := json.Unmarshal(sc.Bytes(), &tr); err != nil {
			t.Fatal(err)
		}
		if inSplit[tr.Provider+"/"+tr.Session] {
			set.Turns = append(set.Turns, tr)
		}
	}
	return set
}

// Import stores the set's turns in state's sessions.db.
func (s DistillSet) Import(t testing.TB, state string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(state, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	store, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	nodes := make([]sessions.Node, 0, len(s.Turns))
	for _, tr := range s.Turns {
		at, err := time.Parse(time.RFC3339, tr.Time)
		if err != nil {
			t.Fatal(err)
		}
		meta := map[string]string{}
		if tr.Project != "" {
			meta[sessions.MetaProject] = tr.Project
		}
		if tr.Title != "" {
			meta[sessions.MetaTitle] = tr.Title
		}
		mb, _ := json.Marshal(meta)
		nodes = append(nodes, sessions.Node{Provider: tr.Provider, Session: tr.Session, ID: tr.ID, Parent: tr.Parent,
			Role: tr.Role, Content: tr.Content, SpeakerID: tr.SpeakerID, SpeakerDisplay: tr.SpeakerDisplay,
			Time: at.UTC(), Tier: tr.Tier, Group: tr.Group, Metadata: mb})
	}
	b := store.BeginImport(context.Background())
	defer b.Rollback()
	if err := b.AddNodes(nodes); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(); err != nil {
		t.Fatal(err)
	}
}
