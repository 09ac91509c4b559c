package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchCLI_Explain: --explain says per hit which fields and terms
// scored, as a "why:" line and, with --json, as an explanation object;
// without it there is no explanation at all.
func TestSearchCLI_Explain(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := copyTree(filepath.Join("testdata", "search-engine", "speakers", "state"), state); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "search", "--state", state, "--explain", "Carol copper")
	if r.code != 0 || !strings.Contains(r.stdout, "why: bm25 (") || !strings.Contains(r.stdout, "text:copper") {
		t.Fatalf("exit %d, output:\n%s%s", r.code, r.stdout, r.stderr)
	}
	doc := oneJSON(t, runCLI(t, "", "search", "--json", "--state", state, "--explain", "Carol copper").stdout)
	if doc["method"] != "bm25" {
		t.Errorf("method %v, want bm25", doc["method"])
	}
	results, _ := doc["results"].([]any)
	if len(results) == 0 {
		t.Fatalf("no results: %v", doc)
	}
	sawWho := false
	for _, it := range results {
		res := it.(map[string]any)
		ex, ok := res["explanation"].(map[string]any)
		if !ok {
			t.Fatalf("%v has no explanation object", res["ref"])
		}
		matches, _ := ex["matches"].([]any)
		if len(matches) == 0 || ex["coord"] == "" || ex["tree"] == nil {
			t.Errorf("%v: explanation %v", res["ref"], ex)
		}
		for _, m := range matches {
			mm := m.(map[string]any)
			if mm["field"] == "who" {
				sawWho = true
			}
		}
	}
	if !sawWho {
		t.Error("no result scored on who said it, though Carol speaks in the fixture")
	}
	plain := oneJSON(t, runCLI(t, "", "search", "--json", "--state", state, "Carol copper").stdout)
	for _, it := range plain["results"].([]any) {
		if _, ok := it.(map[string]any)["explanation"]; ok {
			t.Fatal("an explanation without --explain")
		}
	}
}
