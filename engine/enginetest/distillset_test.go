package enginetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"scriptorium/engine/sessions"
	"scriptorium/workspace"
)

const distillSetDir = "../../testdata/distill"

// Every part of the labelled set, sealed ones included, imports as the
// importer stores it, and each stored turn's source-id is its gold ref: a
// session id the store must escape (a Teams id's ":") would leave every
// citation of that conversation unmatched in the write-level figures. Only
// the importer runs here; nothing is distilled.
func TestDistillSet_RefsAreSourceIDs(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(distillSetDir, "gold.json"))
	if err != nil {
		t.Fatal(err)
	}
	var gold struct {
		Conversations []struct {
			Split string `json:"split"`
		} `json:"conversations"`
	}
	if err := json.Unmarshal(raw, &gold); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range gold.Conversations {
		if seen[c.Split] {
			continue
		}
		seen[c.Split] = true
		set := loadDistillSet(t, distillSetDir, c.Split)
		state := t.TempDir()
		set.Import(t, state)
		store, err := sessions.Open(workspace.SessionsDB(state), nil)
		if err != nil {
			t.Fatal(err)
		}
		refs := map[string]bool{}
		for _, tr := range set.Turns {
			n, err := store.Node(sessions.Key{Provider: tr.Provider, Session: tr.Session, ID: tr.ID})
			if err != nil {
				t.Errorf("%s: %s not stored: %v", c.Split, tr.Ref(), err)
				continue
			}
			if n.SourceID() != tr.Ref() {
				t.Errorf("%s: %s is stored as source-id %s", c.Split, tr.Ref(), n.SourceID())
			}
			refs[tr.Ref()] = true
		}
		store.Close()
		for _, conv := range set.Convs {
			for _, tt := range conv.Turns {
				if !refs[tt.Ref] {
					t.Errorf("%s: %s: gold turn %s is not in turns.jsonl", c.Split, conv.File, tt.Ref)
				}
			}
			for _, f := range conv.Facts {
				for _, e := range f.Evidence {
					if !refs[e] {
						t.Errorf("%s: %s: fact %s cites %s, which is not a turn", c.Split, conv.File, f.ID, e)
					}
				}
			}
		}
		t.Logf("%s: %d turns, %d conversations", c.Split, len(set.Turns), len(set.Convs))
	}
}
