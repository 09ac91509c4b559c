package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// cliSearchCase is testdata/search-engine/<case>/queries.json (see the
// README there); engine/search_test.go runs the same queries through the
// engine API.
type cliSearchCase struct {
	Never   []string `json:"never"`
	Queries []struct {
		Name       string `json:"name"`
		Text       string `json:"text"`
		TextRepeat *struct {
			Unit  string `json:"unit"`
			Runes int    `json:"runes"`
		} `json:"text_repeat"`
		Speaker string `json:"speaker"`
		Path    string `json:"path"`
		Since   string `json:"since"`
		Until   string `json:"until"`
		Sort    string `json:"sort"`
		Limit   int    `json:"limit"`
		Method  string `json:"method"`

		Error     string                    `json:"error"`
		Want      []string                  `json:"want"`
		Ordered   bool                      `json:"ordered"`
		WantTop   []string                  `json:"want_top"`
		WantCount *int                      `json:"want_count"`
		Expect    map[string]map[string]any `json:"expect"`
	} `json:"queries"`
}

// TestSearchCLI_Fixtures runs every fixture query as `scriptorium search
// --json` with the options as flags: the same results, exactly the SPEC
// §10 fields, and errors as one error document with exit status 2 for
// INVALID_ARGUMENT (usage) and 1 otherwise.
func TestSearchCLI_Fixtures(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "search-engine", "*", "queries.json"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixture cases (%v)", err)
	}
	for _, qpath := range dirs {
		dir := filepath.Dir(qpath)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(qpath)
			if err != nil {
				t.Fatal(err)
			}
			var c cliSearchCase
			if err := json.Unmarshal(data, &c); err != nil {
				t.Fatal(err)
			}
			state := filepath.Join(t.TempDir(), "state")
			if err := copyTree(filepath.Join(dir, "state"), state); err != nil {
				t.Fatal(err)
			}
			for _, q := range c.Queries {
				t.Run(q.Name, func(t *testing.T) {
					text := q.Text
					if q.TextRepeat != nil {
						r := []rune(strings.Repeat(q.TextRepeat.Unit, q.TextRepeat.Runes))
						text = string(r[:q.TextRepeat.Runes])
					}
					args := []string{"search", "--json", "--state", state}
					for _, f := range [][2]string{{"speaker", q.Speaker}, {"path", q.Path}, {"since", q.Since},
						{"until", q.Until}, {"sort", q.Sort}, {"method", q.Method}} {
						if f[1] != "" {
							args = append(args, "--"+f[0], f[1])
						}
					}
					if q.Limit != 0 {
						args = append(args, "--limit", strconv.Itoa(q.Limit))
					}
					// The query may start with "-": it goes after "--".
					args = append(args, "--", text)
					r := runCLI(t, "", args...)
					doc := oneJSON(t, r.stdout)
					if q.Error != "" {
						want := 1
						if q.Error == "INVALID_ARGUMENT" {
							want = 2
						}
						e, _ := doc["error"].(map[string]any)
						if r.code != want || e == nil || e["code"] != q.Error {
							t.Fatalf("exit %d, %s; want exit %d and %s", r.code, r.stdout, want, q.Error)
						}
						checkErrorDoc(t, e)
						return
					}
					if r.code != 0 {
						t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
					}
					// Beside the results, how they were ranked: no embedder is
					// configured here, so BM25, and no fallback.
					if len(doc) != 2 || doc["method"] != "bm25" {
						t.Errorf("document has keys %q (method %v), want results and method bm25", keysOf(doc), doc["method"])
					}
					list, ok := doc["results"].([]any)
					if !ok {
						t.Fatalf("results is not a list: %s", r.stdout)
					}
					var refs []string
					byRef := map[string]map[string]any{}
					for _, item := range list {
						res := item.(map[string]any)
						checkSearchResultShape(t, res)
						ref, _ := res["ref"].(string)
						refs = append(refs, ref)
						byRef[ref] = res
						key := res["path"].(string) + "#" + res["anchor"].(string)
						if slices.Contains(c.Never, key) {
							t.Errorf("returned %s, which no query may return", key)
						}
					}
					if q.Want != nil {
						got, want := slices.Clone(refs), slices.Clone(q.Want)
						if got == nil {
							got = []string{}
						}
						if !q.Ordered {
							sort.Strings(got)
							sort.Strings(want)
						}
						if !slices.Equal(got, want) {
							t.Errorf("refs %q, want %q", refs, q.Want)
						}
					}
					if n := len(q.WantTop); n > 0 {
						if len(refs) < n {
							t.Errorf("refs %q, want %q first", refs, q.WantTop)
						} else {
							got, want := slices.Clone(refs[:n]), slices.Clone(q.WantTop)
							sort.Strings(got)
							sort.Strings(want)
							if !slices.Equal(got, want) {
								t.Errorf("first refs %q, want %q", refs[:n], q.WantTop)
							}
						}
					}
					if q.WantCount != nil && len(refs) != *q.WantCount {
						t.Errorf("%d results, want %d", len(refs), *q.WantCount)
					}
					for ref, fields := range q.Expect {
						res, ok := byRef[ref]
						if !ok {
							t.Errorf("%s is not among the results %q", ref, refs)
							continue
						}
						for k, v := range fields {
							if res[k] != v {
								t.Errorf("%s: %s = %#v, want %#v", ref, k, res[k], v)
							}
						}
					}
				})
			}
		})
	}
}

// checkSearchResultShape checks one result object: exactly the SPEC §10
// fields for its kind, of the right JSON types.
func checkSearchResultShape(t *testing.T, res map[string]any) {
	t.Helper()
	want := []string{"anchor", "kind", "path", "ref", "score", "snippet", "snippet_complete", "time"}
	if res["kind"] == "source" {
		want = append(want, "speaker_display", "speaker_id", "speaker_label", "speaker_trusted")
		sort.Strings(want)
	} else if res["kind"] != "topic" {
		t.Errorf("kind %v", res["kind"])
	}
	if got := keysOf(res); !slices.Equal(got, want) {
		t.Errorf("result %v has keys %q, want %q", res["ref"], got, want)
	}
	for _, k := range want {
		var ok bool
		switch k {
		case "score":
			_, ok = res[k].(json.Number)
		case "snippet_complete", "speaker_trusted":
			_, ok = res[k].(bool)
		default:
			_, ok = res[k].(string)
		}
		if !ok {
			t.Errorf("result %v: %s is %T", res["ref"], k, res[k])
		}
	}
	if res["kind"] == "topic" && res["anchor"] != "^"+res["ref"].(string) {
		t.Errorf("topic anchor %v for ref %v", res["anchor"], res["ref"])
	}
}

// TestSearchCLI_FlagsAnywhere: the flags of search may stand before or
// after the verb and the query, with the same document.
func TestSearchCLI_FlagsAnywhere(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := copyTree(filepath.Join("testdata", "search-engine", "speakers", "state"), state); err != nil {
		t.Fatal(err)
	}
	lines := [][]string{
		{"search", "copper", "--speaker", "u456", "--json", "--state", state},
		{"--json", "search", "--speaker", "u456", "copper", "--state", state},
		{"--state", state, "--speaker=u456", "--json", "search", "copper"},
	}
	var first string
	for i, args := range lines {
		r := runCLI(t, "", args...)
		if r.code != 0 {
			t.Fatalf("%q: exit %d %s%s", args, r.code, r.stdout, r.stderr)
		}
		doc := oneJSON(t, r.stdout)
		if list, _ := doc["results"].([]any); len(list) != 1 {
			t.Fatalf("%q: %s", args, r.stdout)
		}
		if i == 0 {
			first = r.stdout
		} else if r.stdout != first {
			t.Errorf("%q printed\n%s\nwant\n%s", args, r.stdout, first)
		}
	}
}

// TestSearchCLI_Text: without --json, search prints one line per hit
// naming the kind, path#anchor and speaker, marks legacy hints as
// untrusted, and says so when nothing matched.
func TestSearchCLI_Text(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	if err := copyTree(filepath.Join("testdata", "search-engine", "speakers", "state"), state); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "search", "--state", state, "kettle", "--speaker", "alice")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"source", "sources/openprogram/old-chat.md#source-", "Alice (u789) (untrusted hint)", "The copper kettle is on the stove."} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("text output lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runCLI(t, "", "search", "--state", state, "copper", "--speaker", "u456")
	if r.code != 0 || !strings.Contains(r.stdout, "B (u456)") || strings.Contains(r.stdout, "untrusted") {
		t.Errorf("trusted speaker line: exit %d\n%s", r.code, r.stdout)
	}
	r = runCLI(t, "", "search", "--state", state, "zzzz")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "no results" {
		t.Errorf("no match: exit %d %q", r.code, r.stdout)
	}
	r = runCLI(t, "", "search", "--state", state)
	if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "usage") {
		t.Errorf("no query: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, bad := range [][]string{{"--limit", "0"}, {"--limit", "ten"}, {"--sort", "relevance"}, {"--since", "someday"}} {
		r = runCLI(t, "", append([]string{"search", "--state", state, "copper"}, bad...)...)
		if r.code != 2 || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q", bad, r.code, r.stdout)
		}
	}
}
