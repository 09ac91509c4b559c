package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace/manifest"
)

// A cold engine answers get, status and pending from a partial snapshot
// (the manifest names the files). These tests prove the answers are the
// full snapshot's, on every fixture workspace (valid and broken), and that
// a stale or damaged manifest is repaired, never trusted.

// answer renders a verb's result or error for comparison.
func answer(v any, err error) string {
	if err != nil {
		var ee *errcode.Error
		if e, ok := err.(*errcode.Error); ok {
			ee = e
			return "error " + string(ee.Code) + ": " + ee.Message
		}
		return "error " + err.Error()
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func fixtureStates(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, g := range []string{"ws/*/state", "search-engine/*/state"} {
		m, _ := filepath.Glob(filepath.Join("..", "testdata", filepath.FromSlash(g)))
		out = append(out, m...)
	}
	if len(out) < 10 {
		t.Fatalf("only %d fixture states", len(out))
	}
	return out
}

func TestPartial_AnswersAsTheFullSnapshot(t *testing.T) {
	ctx := context.Background()
	for _, src := range fixtureStates(t) {
		name := filepath.Base(filepath.Dir(src))
		state, warm, s := warmCopy(t, src)
		refs := []string{"^deadbeef", "nobody/none/1", "topics/missing.md#^0000000a", "sources/x/_v2/y.md#source-00000000", "", "^zz", "plain"}
		for _, p := range s.topicPaths {
			for _, b := range s.topics[p].file.Blocks() {
				refs = append(refs, "^"+b.BlockID, b.BlockID, p+"#^"+b.BlockID, "./"+p+"#^"+b.BlockID)
			}
		}
		for _, p := range s.archPaths {
			for _, src := range s.archives[p].sources {
				refs = append(refs, src.view().Ref, p+"#"+src.view().Anchor)
			}
		}
		want := map[string]string{}
		for _, r := range refs {
			want[r] = answer(warm.Get(ctx, r))
		}
		wantStatus := answer(warm.Status(ctx))
		wantPending := answer(warm.PendingSources(ctx))
		warm.Close()
		for round := 0; round < 2; round++ { // building the manifest, then using it
			cold, err := Open(ctx, Options{StateDir: state})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range refs {
				if got := answer(cold.Get(ctx, r)); got != want[r] {
					t.Errorf("%s round %d: get %q\ncold %s\nfull %s", name, round, r, got, want[r])
				}
			}
			if got := answer(cold.Status(ctx)); got != wantStatus {
				t.Errorf("%s round %d: status\ncold %s\nfull %s", name, round, got, wantStatus)
			}
			if got := answer(cold.PendingSources(ctx)); got != wantPending {
				t.Errorf("%s round %d: pending\ncold %s\nfull %s", name, round, got, wantPending)
			}
			if cold.partialReads.Load() == 0 {
				t.Errorf("%s: no verb used the manifest", name)
			}
			cold.Close()
		}
	}
}

// partialFacts is a workspace with two topic files, one citing a pending
// source of an archive, with a built manifest.
func partialFacts(t *testing.T) string {
	t.Helper()
	state := coldFacts(t)
	e, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.Get(context.Background(), "^0000000a"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(manifest.Path(e.Root())); err != nil {
		t.Fatalf("no manifest written: %v", err)
	}
	return state
}

// coldGet opens a new engine and gets one block's text ("" if missing).
func coldGet(t *testing.T, state, ref string) string {
	t.Helper()
	e, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	v, err := e.Get(context.Background(), ref)
	if err != nil {
		return ""
	}
	if b, ok := v.(result.BlockView); ok {
		return b.Path + ": " + b.Text
	}
	return "?"
}

// TestPartial_ManifestNeverStale edits files behind the engine's back in
// every way the issue lists and checks that get answers from the files.
func TestPartial_ManifestNeverStale(t *testing.T) {
	facts := func(state string) string { return filepath.Join(state, "memory", "topics", "facts.md") }
	cases := []struct {
		name   string
		change func(t *testing.T, state string)
		ref    string
		want   string
	}{
		{"same size, mtime reset", func(t *testing.T, state string) { editInPlace(t, facts(state), "bees", "wasp") },
			"^0000000a", "topics/facts.md: The owner keeps wasp on the roof."},
		{"deleted", func(t *testing.T, state string) { os.Remove(facts(state)) }, "^0000000a", ""},
		{"renamed", func(t *testing.T, state string) {
			os.Rename(facts(state), filepath.Join(state, "memory", "topics", "hobbies.md"))
		}, "^0000000b", "topics/hobbies.md: The owner plays the cello on Sundays."},
		{"replaced by a symlink", func(t *testing.T, state string) {
			outside := filepath.Join(t.TempDir(), "outside.md")
			data, _ := os.ReadFile(facts(state))
			os.WriteFile(outside, data, 0o644)
			os.Remove(facts(state))
			if err := os.Symlink(outside, facts(state)); err != nil {
				t.Fatal(err)
			}
		}, "^0000000a", ""},
		{"block moved to another file", func(t *testing.T, state string) {
			data, _ := os.ReadFile(facts(state))
			os.WriteFile(filepath.Join(state, "memory", "topics", "aaa.md"), data, 0o644)
			os.WriteFile(facts(state), []byte("# Facts\n"), 0o644)
		}, "^0000000a", "topics/aaa.md: The owner keeps bees on the roof."},
		{"manifest damaged", func(t *testing.T, state string) {
			p := filepath.Join(state, "memory", ".scriptorium", manifest.FileName)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, data[:len(data)/2], 0o644) // torn
			editInPlace(t, facts(state), "cello", "flute")
		}, "^0000000b", "topics/facts.md: The owner plays the flute on Sundays."},
		{"manifest of another workspace", func(t *testing.T, state string) {
			other := partialFacts(t)
			editInPlace(t, facts(other), "cello", "banjo")
			coldGet(t, other, "^0000000b")
			data, _ := os.ReadFile(filepath.Join(other, "memory", ".scriptorium", manifest.FileName))
			os.WriteFile(filepath.Join(state, "memory", ".scriptorium", manifest.FileName), data, 0o644)
		}, "^0000000b", "topics/facts.md: The owner plays the cello on Sundays."},
		{"git checkout", func(t *testing.T, state string) {
			run := gitIn(t, filepath.Join(state, "memory"))
			run("init", "-q")
			run("add", "topics")
			run("commit", "-q", "-m", "a")
			editInPlace(t, facts(state), "cello", "oboes")
			if got := coldGet(t, state, "^0000000b"); !strings.Contains(got, "oboes") {
				t.Fatalf("edit not seen: %q", got)
			}
			run("checkout", "--", "topics/facts.md")
		}, "^0000000b", "topics/facts.md: The owner plays the cello on Sundays."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := partialFacts(t)
			c.change(t, state)
			if got := coldGet(t, state, c.ref); got != c.want {
				t.Errorf("get %s: %q, want %q", c.ref, got, c.want)
			}
			if got := coldGet(t, state, c.ref); got != c.want { // from the repaired manifest
				t.Errorf("get %s again: %q, want %q", c.ref, got, c.want)
			}
		})
	}
}

// TestPartial_ManifestShape: the manifest is readable JSON lines, one
// entry per memory file, with the summaries filled in.
func TestPartial_ManifestShape(t *testing.T) {
	state := partialFacts(t)
	data, err := os.ReadFile(filepath.Join(state, "memory", ".scriptorium", manifest.FileName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Decode(data, "manifest")
	if err != nil {
		t.Fatal(err)
	}
	ent := m.Get("topics/facts.md")
	if ent == nil || strings.Join(ent.Blocks, ",") != "0000000a,0000000b" || ent.Size == 0 || ent.Ino == 0 || ent.CtimeNS == 0 {
		t.Fatalf("entry %+v", ent)
	}
	for _, p := range m.Paths() {
		if !strings.HasPrefix(p, "topics/") && !strings.HasPrefix(p, "sources/") {
			t.Errorf("manifest lists %s, not a memory file", p)
		}
	}
}

// TestPartial_TransactionRecordsManifest: an install leaves a manifest
// describing what it wrote, with the hash of each file it just wrote.
func TestPartial_TransactionRecordsManifest(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rev := int64(0)
	content := "# Garden\n\nThe owner grows tomatoes. ^0000000c\n"
	if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "create", Path: "topics/garden.md", Content: &content}}}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(manifest.Path(e.Root()))
	if err != nil {
		t.Fatalf("no manifest after an install: %v", err)
	}
	m, err := manifest.Decode(data, "manifest")
	if err != nil {
		t.Fatal(err)
	}
	ent := m.Get("topics/garden.md")
	if ent == nil || strings.Join(ent.Blocks, ",") != "0000000c" || ent.SHA256 != manifest.Hash([]byte(content)) {
		t.Fatalf("entry %+v", ent)
	}
	fi, _ := os.Lstat(filepath.Join(state, "memory", "topics", "garden.md"))
	if ent.Size != fi.Size() || ent.MtimeNS != fi.ModTime().UnixNano() {
		t.Errorf("entry signature %+v does not match the file (%d bytes, %v)", ent.Sig, fi.Size(), fi.ModTime())
	}
}
