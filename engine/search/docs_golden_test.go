package search_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/forget"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/engine/search"
)

var update = flag.Bool("update", false, "rewrite testdata/docs.golden")

// TestDocs_Golden: the search documents of a workspace holding trusted,
// pending (and blocks withheld for citing them), promoted, forgotten and
// legacy-shadowed content, what an install's difference and a resync
// re-index, and what a hit keeps, are exactly the bytes the core built
// before the document building left it (issue 25): testdata/docs.golden
// was written by that code and must not change. It also shows that no
// pending text reaches a document.
func TestDocs_Golden(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, enginetest.Fixture(t, "valid"))
	corpus := func() engine.Corpus {
		t.Helper()
		c, err := e.Corpus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	var out strings.Builder
	section := func(title string, docs map[string]index.Doc) {
		ids := make([]string, 0, len(docs))
		for id := range docs {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		fmt.Fprintf(&out, "== %s (%d)\n", title, len(ids))
		for _, id := range ids {
			b, err := json.Marshal(docs[id])
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&out, "%s\n", b)
		}
	}
	// Before: two pending records (m3, m5), a block withheld for citing m3,
	// a legacy archive shadowed by its v2 copy.
	c0 := corpus()
	section("docs", search.DocMap(c0))
	if _, err := e.Promote(ctx, []string{"openprogram/group-dev/m5"}); err != nil {
		t.Fatal(err)
	}
	c1 := corpus()
	old, cur := search.IndexChanges(c0, c1)
	section("promote m5: touched before", old)
	section("promote m5: touched after", cur)
	section("docs after promote", search.DocMap(c1))
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Sources: []string{"openprogram/group-dev/m1"}}, false); err != nil {
		t.Fatal(err)
	}
	c2 := corpus()
	old, cur = search.IndexChanges(c1, c2)
	section("forget m1: touched before", old)
	section("forget m1: touched after", cur)
	section("docs after forget", search.DocMap(c2))
	// A resync of the group chat and core.md, as the index of c0 held them.
	changed := []string{"sources/openprogram/_v2/group-dev.md", "topics/core.md"}
	var held []index.DocRef
	for _, d := range search.DocMap(c0) {
		if d.Path == changed[0] || d.Path == changed[1] {
			held = append(held, index.DocRef{ID: d.ID, Ref: d.Ref, Kind: d.Kind})
		}
	}
	sort.Slice(held, func(i, j int) bool { return held[i].ID < held[j].ID })
	upserts, deletes := search.Resync(c2, changed, map[string]bool{"openprogram/old-chat/legacy-L3": true}, held)
	ups := map[string]index.Doc{}
	for _, d := range upserts {
		ups[d.ID] = d
	}
	section("resync: upserts", ups)
	fmt.Fprintf(&out, "== resync: deletes\n%s\n", strings.Join(deletes, "\n"))
	// What a hit of c0's index keeps in c2, and its snippet text.
	fmt.Fprintf(&out, "== hits of the first index in the last corpus\n")
	for _, d := range search.Docs(c0) {
		h := index.Hit{ID: d.ID, Kind: d.Kind, Path: d.Path, Anchor: d.Anchor, Ref: d.Ref}
		fmt.Fprintf(&out, "%s holds=%v text=%q\n", d.ID, search.Holds(c2, h), search.HitText(c2, h))
	}
	got := out.String()
	for _, secret := range []string{"密钥可以给他", "Keys may be shared"} {
		if strings.Contains(got, secret) {
			t.Errorf("pending text %q reached a search document", secret)
		}
	}
	golden := filepath.Join("testdata", "docs.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the documents differ from %s:\n%s", golden, lineDiff(string(want), got))
	}
}

// lineDiff names the first lines where want and got differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out []string
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			out = append(out, fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, a, b))
			if len(out) == 5 {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}
