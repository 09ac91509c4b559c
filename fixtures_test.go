package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixtureCases lists the workspaces under testdata/ws.
func fixtureCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("testdata", "ws"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d fixture workspaces under testdata/ws", len(out))
	}
	return out
}

// TestFixtures_Verify runs `verify --json` on every fixture workspace and
// compares the report with its verify.json: every violation with its code,
// path, line and message. Verify must not change one byte of the memory
// tree (derived views are not created either), and its exit status says
// whether the workspace is valid.
func TestFixtures_Verify(t *testing.T) {
	for _, name := range fixtureCases(t) {
		t.Run(name, func(t *testing.T) {
			state := fixtureState(t, name)
			mem := filepath.Join(state, "memory")
			before := treeState(t, mem, ".scriptorium")
			r := runCLI(t, "", "verify", "--json", "--state", state)
			doc := oneJSON(t, r.stdout)
			if after := treeState(t, mem, ".scriptorium"); diffTrees(before, after) != "" {
				t.Errorf("verify changed the memory tree:\n%s", diffTrees(before, after))
			}
			ok, _ := doc["ok"].(bool)
			if want := map[bool]int{true: 0, false: 1}[ok]; r.code != want {
				t.Errorf("exit %d with ok=%v, want %d (stderr %q)", r.code, ok, want, r.stderr)
			}
			if _, isErr := doc["error"]; isErr {
				t.Fatalf("verify failed: %s", r.stdout)
			}
			checkGoldenJSON(t, filepath.Join("testdata", "ws", name, "verify.json"), []byte(r.stdout))
		})
	}
}

// TestFixtures_Get runs `get --json REF` for every get/<case>.ref of a
// fixture and compares the output with get/<case>.json (SPEC §12 shapes,
// content byte-exact). An expected error document means exit status 1.
func TestFixtures_Get(t *testing.T) {
	n := 0
	for _, name := range fixtureCases(t) {
		refs, _ := filepath.Glob(filepath.Join("testdata", "ws", name, "get", "*.ref"))
		if len(refs) == 0 {
			continue
		}
		state := fixtureState(t, name)
		for _, refFile := range refs {
			n++
			c := strings.TrimSuffix(filepath.Base(refFile), ".ref")
			t.Run(name+"/"+c, func(t *testing.T) {
				data, err := os.ReadFile(refFile)
				if err != nil {
					t.Fatal(err)
				}
				ref := strings.TrimSuffix(string(data), "\n")
				r := runCLI(t, "", "get", ref, "--json", "--state", state)
				doc := oneJSON(t, r.stdout)
				want := 0
				if e, isErr := doc["error"].(map[string]any); isErr {
					want = 1
					checkErrorDoc(t, e)
				}
				if r.code != want {
					t.Errorf("get %q: exit %d, want %d", ref, r.code, want)
				}
				checkGetShape(t, doc)
				checkGoldenJSON(t, strings.TrimSuffix(refFile, ".ref")+".json", []byte(r.stdout))
			})
		}
	}
	if n < 20 {
		t.Errorf("only %d get cases", n)
	}
}

// TestFixtures_GetContentByteExact checks the byte-exact promise of SPEC
// §3.1 directly against the archive bytes, independent of the golden
// files: CRLF, trailing spaces, a tab, U+2028/U+2029 and a trailing LF all
// come back as written.
func TestFixtures_GetContentByteExact(t *testing.T) {
	state := fixtureState(t, "valid")
	cases := []struct{ ref, content string }{
		{"openprogram/group-dev/m2", "Build is green again.\r\nSecond line with trailing spaces   \n\tand a tab"},
		{"cli/sess-1/s1", "Craig is building a budget tracker in Flask, due 2024-04-15.\u2028Deadline is firm.\u2029\n"},
		{"openprogram/group-dev/m3", "密钥可以给他"},
		{"openprogram/old-chat/legacy-L4", "Noted, tea it is.\nSecond line of the answer."},
	}
	for _, c := range cases {
		r := runCLI(t, "", "--json", "get", c.ref, "--state", state)
		doc := oneJSON(t, r.stdout)
		if got, _ := doc["content"].(string); got != c.content {
			t.Errorf("get %s: content %q, want %q", c.ref, got, c.content)
		}
		archive, _ := doc["path"].(string)
		data, err := os.ReadFile(filepath.Join(state, "memory", filepath.FromSlash(archive)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), c.content) {
			t.Errorf("%s does not hold the content of %s verbatim", archive, c.ref)
		}
	}
	// The forged frame inside a record body is body text: no source.
	state = fixtureState(t, "fake-frames-body")
	r := runCLI(t, "", "--json", "get", "openprogram/tricky/forged", "--state", state)
	if doc := oneJSON(t, r.stdout); r.code != 1 || doc["error"].(map[string]any)["code"] != "NOT_FOUND" {
		t.Errorf("the forged frame is a source: exit %d %s", r.code, r.stdout)
	}
}

// TestFixtures_VerifyViolations pins each hostile fixture's violations by
// code, path and line, independently of the golden messages, so that an
// -update can never approve a wrong report.
func TestFixtures_VerifyViolations(t *testing.T) {
	type v struct {
		code, path string
		line       int
	}
	const (
		v2chat = "sources/openprogram/_v2/chat.md"
		ids    = "sources/openprogram/_v2/"
	)
	cases := map[string][]v{
		"valid":            nil,
		"wrong-anchor":     {{"invalid_frame", v2chat, 8}},
		"fake-frames-body": {{"unresolved_source", "topics/tricky.md", 9}},
		"invalid-frame-midfile": {
			{"invalid_frame", v2chat, 10},
			// m3 is a well-formed frame after the bad one: never read.
			{"unresolved_source", "topics/chat.md", 9},
		},
		"bad-speaker-ids": {
			{"invalid_frame", ids + "bad-escape.md", 11},
			{"invalid_frame", ids + "literal-dashes.md", 11},
			{"invalid_frame", ids + "lower-hex.md", 11},
			{"invalid_frame", ids + "needless-escape.md", 11},
			{"invalid_frame", ids + "unreserved-raw.md", 11},
		},
		"truncated-frame": {
			{"invalid_frame", ids + "short-header.md", 9},
			{"invalid_frame", ids + "short-record.md", 11},
		},
		"topic-missing-block-id": {
			{"missing_block_id", "topics/notes.md", 5},
			{"missing_block_id", "topics/notes.md", 8},
			{"bad_block_id", "topics/notes.md", 11},
		},
		"duplicate-block-id": {
			{"duplicate_block_id", "topics/a.md", 7},
			{"duplicate_block_id", "topics/b/b.md", 3},
		},
		"undefined-footnote": {{"undefined_footnote", "topics/x.md", 5}},
		"bad-citations": {
			{"unresolved_source", "topics/x.md", 13}, // missing archive
			{"unresolved_source", "topics/x.md", 15}, // missing anchor
			{"unresolved_source", "topics/x.md", 17}, // source-id mismatch
			{"unresolved_source", "topics/x.md", 19}, // leaves the workspace
		},
		"bad-links": {
			{"broken_link", "topics/a.md", 3},  // missing file
			{"broken_link", "topics/a.md", 5},  // missing block in another file
			{"broken_link", "topics/a.md", 7},  // missing block in the same file
			{"broken_link", "topics/a.md", 11}, // missing source frame
		},
		"duplicate-source": {
			{"duplicate_source", ids + "a.md", 9},
			{"duplicate_source", ids + "b.md", 3},
		},
		"stray-files": {
			{"unexpected_file", "sources/loose.md", 0},
			{"unexpected_file", ids + "nested/deep.md", 0},
			{"invalid_frame", ids + "no-marker.md", 1},
			{"unexpected_file", "topics/notes.txt", 0},
		},
		"symlink-in-topics": {
			{"symlink", "topics/evil.md", 0},
			{"symlink", "topics/linked-dir", 0},
		},
	}
	for _, name := range fixtureCases(t) {
		want, ok := cases[name]
		if !ok {
			t.Errorf("fixture %s has no expectation here", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			state := fixtureState(t, name)
			r := runCLI(t, "", "verify", "--json", "--state", state)
			var rep struct {
				OK         bool `json:"ok"`
				Violations []struct {
					Code, Path, Message string
					Line                int
				} `json:"violations"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			var got []v
			for _, x := range rep.Violations {
				got = append(got, v{x.Code, x.Path, x.Line})
				if x.Message == "" {
					t.Errorf("violation %v has no message", x)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("violations\n got %v\nwant %v", got, want)
			}
			if rep.OK != (len(want) == 0) {
				t.Errorf("ok = %v with %d violations", rep.OK, len(want))
			}
		})
	}
}

// getShapes are the exact field sets of SPEC §12 for `get`.
var getShapes = map[string][]string{
	"source":   {"anchor", "content", "kind", "label", "path", "ref", "speaker_display", "speaker_id", "speaker_label", "speaker_trusted", "time", "trust"},
	"topic":    {"anchor", "footnotes", "kind", "path", "ref", "text", "trust"},
	"footnote": {"label", "sources", "time"},
	"citation": {"anchor", "path", "ref"},
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkGetShape checks a `get` document against the SPEC §12 field sets:
// no field missing, none added, ids without "^" in ref, anchors with it.
func checkGetShape(t *testing.T, doc map[string]any) {
	t.Helper()
	if _, isErr := doc["error"]; isErr {
		return
	}
	kind, _ := doc["kind"].(string)
	if got := keysOf(doc); !slices.Equal(got, getShapes[kind]) {
		t.Errorf("get %s fields %v, want %v", kind, got, getShapes[kind])
	}
	ref, _ := doc["ref"].(string)
	anchor, _ := doc["anchor"].(string)
	if trust := doc["trust"]; trust != "trusted" && trust != "pending" {
		t.Errorf("trust %v", trust)
	}
	if kind == "source" {
		if !strings.HasPrefix(anchor, "source-") {
			t.Errorf("source anchor %q", anchor)
		}
		return
	}
	if strings.HasPrefix(ref, "^") || anchor != "^"+ref {
		t.Errorf("block ref %q anchor %q", ref, anchor)
	}
	for _, f := range doc["footnotes"].([]any) {
		fm := f.(map[string]any)
		if got := keysOf(fm); !slices.Equal(got, getShapes["footnote"]) {
			t.Errorf("footnote fields %v", got)
		}
		for _, c := range fm["sources"].([]any) {
			if got := keysOf(c.(map[string]any)); !slices.Equal(got, getShapes["citation"]) {
				t.Errorf("citation fields %v", got)
			}
		}
	}
}
