package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"scriptorium/engine/result"
)

// indexDamage is one way of damaging one index file in place.
type indexDamage struct {
	name string
	fn   func(data []byte) []byte
}

// indexDamages lists the damage done to each index file: emptied, zeroed,
// halved, and 16 bytes scribbled over at sixteen places spread across the
// file (one case each, so a panic names its offset). SCRIPTORIUM_SOAK=1
// scribbles at 256 places instead.
func indexDamages(size int) []indexDamage {
	places := 16
	if os.Getenv("SCRIPTORIUM_SOAK") != "" {
		places = 256
	}
	out := []indexDamage{
		{"truncated", func([]byte) []byte { return nil }},
		{"zeroed", func(d []byte) []byte { return make([]byte, len(d)) }},
		{"halved", func(d []byte) []byte { return d[:len(d)/2] }},
	}
	for k := 0; k < places && size > 0; k++ {
		off := k * size / places
		out = append(out, indexDamage{fmt.Sprintf("scribbled@%d", off), func(d []byte) []byte {
			d = slices.Clone(d)
			for i := off; i < min(off+16, len(d)); i++ {
				d[i] ^= 0x5a
			}
			return d
		}})
	}
	return out
}

// TestIndexDamage_SearchAndStatusRecover damages every file of a built
// search index in turn (truncated, zeroed, halved, scribbled at sixteen
// offsets), under a long-lived engine and under a fresh one. engine.Status and engine.Search must never panic; status must
// not call a damaged index fresh when searching it would have to rebuild;
// the first search answers correctly (it rebuilds the damaged cache on the
// spot) and so does the next one, from an index status now calls fresh.
func TestIndexDamage_SearchAndStatusRecover(t *testing.T) {
	ctx := context.Background()
	state := seState(t, "filters")
	e := ftOpen(t, state)
	// What the intact index answers is what a repaired one must answer
	// (the ranking rules are not this test's business).
	want := seFind(t, e, "anchovy")
	if len(want) < 5 {
		t.Fatalf("before the damage: %q, want the fixture's anchovy documents", want)
	}
	// Cases alternate between this engine, open all along as in the TUI or
	// a server, and a fresh one per case as in a CLI run.
	lived := e
	var files []string
	err := filepath.WalkDir(seIndexDir(state), func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) < 4 {
		t.Fatalf("index files %q: %v", files, err)
	}
	cases := 0
	for _, p := range files {
		rel, _ := filepath.Rel(seIndexDir(state), p)
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, dmg := range indexDamages(len(orig)) {
			cases++
			t.Run(filepath.ToSlash(rel)+"/"+dmg.name, func(t *testing.T) {
				// Every case starts from an intact, fresh index: the previous
				// case's search rebuilt it, so take the file from the tree as
				// it stands now.
				cur, err := os.ReadFile(p)
				if os.IsNotExist(err) {
					t.Skip("the rebuilt index has no such file")
				}
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, dmg.fn(cur), 0o600); err != nil {
					t.Fatal(err)
				}
				e := lived
				if cases%2 == 1 {
					e = ftOpen(t, state)
					defer e.Close()
				}
				st, err := e.Status(ctx)
				if err != nil {
					t.Fatalf("status: %v", err)
				}
				ino := seBleveIno(t, state)
				res, err := e.Search(ctx, searchAnchovy)
				if err != nil {
					t.Fatalf("first search after the damage: %v", err)
				}
				if got := sortedRefs(res); !slices.Equal(got, want) {
					t.Errorf("first search: %q, want %q", got, want)
				}
				if st.Index.Fresh && seBleveIno(t, state) != ino {
					t.Errorf("status called the damaged index fresh, and the search had to rebuild it")
				}
				if got := seFind(t, e, "anchovy"); !slices.Equal(got, want) {
					t.Errorf("second search: %q, want %q", got, want)
				}
				if st := seIndex(t, e); !st.Fresh {
					t.Errorf("index after the searches: %+v, want fresh", st)
				}
			})
		}
	}
	if cases < 40 {
		t.Errorf("only %d damage cases", cases)
	}
}

var searchAnchovy = result.SearchQuery{Text: "anchovy", Limit: 100}

// sortedRefs returns the refs of results, sorted.
func sortedRefs(res []result.SearchResult) []string {
	refs := seRefs(res)
	slices.Sort(refs)
	return refs
}
