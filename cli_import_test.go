package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// ccSession is the realistic Claude Code transcript in testdata/claude-code.
const ccSession = "7c2f4e1a-93b8-4d6e-a1f0-5b8c2d9e4f31"

func ccTranscript(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "claude-code", ccSession+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// importDoc runs import --json and decodes its document.
func importDoc(t *testing.T, stdin string, args ...string) (map[string]any, cliRun) {
	t.Helper()
	r := runCLI(t, stdin, append([]string{"import", "--json"}, args...)...)
	return oneJSON(t, r.stdout), r
}

func num(v any) int {
	n, _ := v.(json.Number).Int64()
	return int(n)
}

// TestImport_ClaudeCodeGrows: importing a transcript, then the same
// transcript after the session went on, stores only the new lines; the
// lines seen before count as duplicates.
func TestImport_ClaudeCodeGrows(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	full := ccTranscript(t)
	lines := bytes.SplitAfter(full, []byte("\n"))
	path := filepath.Join(t.TempDir(), ccSession+".jsonl")
	if err := os.WriteFile(path, bytes.Join(lines[:9], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, r := importDoc(t, "", path, "--state", state)
	if r.code != 0 || num(doc["imported"]) != 4 || num(doc["sessions"]) != 1 {
		t.Fatalf("prefix: exit %d %s", r.code, r.stdout)
	}
	if sk := doc["skipped"].(map[string]any); sk["duplicate"] != nil || num(sk["tool_use"]) != 1 || num(sk["thinking"]) != 1 {
		t.Errorf("prefix skipped %v", sk)
	}
	if err := os.WriteFile(path, full, 0o644); err != nil {
		t.Fatal(err)
	}
	doc, r = importDoc(t, "", path, "--state", state)
	if r.code != 0 || num(doc["imported"]) != 3 || num(doc["sessions"]) != 1 {
		t.Fatalf("grown: exit %d %s", r.code, r.stdout)
	}
	if sk := doc["skipped"].(map[string]any); num(sk["duplicate"]) != 4 || num(sk["tool_use"]) != 2 || num(sk["system"]) != 1 {
		t.Errorf("grown skipped %v", sk)
	}
	doc, _ = importDoc(t, "", path, "--state", state)
	if num(doc["imported"]) != 0 || num(doc["sessions"]) != 0 || num(doc["skipped"].(map[string]any)["duplicate"]) != 7 {
		t.Errorf("third import %v", doc)
	}
}

// TestImport_Output: the document has exactly imported, sessions,
// skipped (an empty object when nothing was skipped), retiered, warnings
// and unrecognised (empty arrays); the human output is one line.
func TestImport_Output(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	turns := `{"session":"s1","id":"m1","role":"user","content":"hi","time":"2026-01-01T10:00:00Z"}` + "\n"
	doc, r := importDoc(t, turns, "-", "--state", state)
	var keys []string
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if r.code != 0 || !slices.Equal(keys, []string{"imported", "retiered", "sessions", "skipped", "unrecognised", "warnings"}) || len(doc["skipped"].(map[string]any)) != 0 {
		t.Errorf("exit %d, document %s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, `"skipped": {}`) || !strings.Contains(r.stdout, `"warnings": []`) || !strings.Contains(r.stdout, `"unrecognised": []`) {
		t.Errorf("skipped is not {}: %s", r.stdout)
	}
	r = runCLI(t, turns, "import", "-", "--state", state)
	if r.code != 0 || strings.Count(r.stdout, "\n") != 1 || !strings.Contains(r.stdout, "imported 0 turn(s)") || !strings.Contains(r.stdout, "duplicate 1") {
		t.Errorf("human output %q", r.stdout)
	}
}

// TestImport_Formats: auto recognises each format by content whatever the
// file is called; --format forces one, and a wrong one is refused.
func TestImport_Formats(t *testing.T) {
	dir := t.TempDir()
	cc := filepath.Join(dir, "renamed.txt")
	gpt := filepath.Join(dir, "export.dat")
	jl := filepath.Join(dir, "turns")
	for p, src := range map[string]string{
		cc:  filepath.Join("testdata", "claude-code", ccSession+".jsonl"),
		gpt: filepath.Join("transcript", "chatgpt", "testdata", "conversations.json"),
	} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(jl, []byte(`{"session":"s1","id":"m1","role":"user","content":"hi","time":"2026-01-01T10:00:00Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state")
	for _, c := range []struct {
		args     []string
		imported int
	}{
		{[]string{cc}, 7},
		{[]string{gpt}, -1},
		{[]string{jl}, 1},
		{[]string{jl, "--format", "jsonl"}, 0},
		{[]string{cc, "--format", "claude-code"}, 0},
	} {
		doc, r := importDoc(t, "", append(c.args, "--state", state)...)
		if r.code != 0 || (c.imported >= 0 && num(doc["imported"]) != c.imported) || (c.imported < 0 && num(doc["imported"]) == 0) {
			t.Errorf("%v: exit %d %s", c.args, r.code, r.stdout)
		}
	}
	// A Claude Code file read as a ChatGPT export is not one.
	doc, r := importDoc(t, "", cc, "--format", "chatgpt", "--state", state)
	if r.code != 1 || doc["error"].(map[string]any)["code"] != "INVALID_ARGUMENT" {
		t.Errorf("wrong --format: exit %d %s", r.code, r.stdout)
	}
	if r := runCLI(t, "", "import", cc, "--format", "csv", "--state", state); r.code != 2 {
		t.Errorf("unknown --format: exit %d", r.code)
	}
}

// TestImport_Directory: a directory is walked; files that are no
// transcript are counted, not imported; the format picks the files.
func TestImport_Directory(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "projects", "-home-mara-src-heron")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		filepath.Join(project, ccSession+".jsonl"): ccTranscript(t),
		filepath.Join(root, "README.txt"):          []byte("not a transcript\n"),
		filepath.Join(root, "todos.json"):          []byte(`[{"content":"x","status":"done"}]`),
	} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(t.TempDir(), "state")
	doc, r := importDoc(t, "", root, "--state", state)
	if r.code != 0 || num(doc["imported"]) != 7 || num(doc["skipped"].(map[string]any)["not_a_transcript"]) != 2 {
		t.Errorf("auto: exit %d %s", r.code, r.stdout)
	}
	doc, r = importDoc(t, "", root, "--format", "claude-code", "--state", state)
	if r.code != 0 || num(doc["imported"]) != 0 || doc["skipped"].(map[string]any)["not_a_transcript"] != nil {
		t.Errorf("claude-code: exit %d %s", r.code, r.stdout)
	}
}

// TestImport_BadFileStoresNothing: one malformed file in a directory is
// reported with its file and line, and nothing of the good files is
// stored either.
func TestImport_BadFileStoresNothing(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "a-good.jsonl")
	bad := filepath.Join(dir, "b-bad.jsonl")
	if err := os.WriteFile(good, ccTranscript(t), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(ccTranscript(t), []byte("\n"))
	broken := slices.Concat(lines[:3], [][]byte{[]byte(`{"type":"user","uuid":` + "\n")}, lines[3:])
	if err := os.WriteFile(bad, bytes.Join(broken, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state")
	doc, r := importDoc(t, "", dir, "--format", "claude-code", "--state", state)
	e, _ := doc["error"].(map[string]any)
	if r.code != 1 || e == nil || e["code"] != "INVALID_ARGUMENT" {
		t.Fatalf("exit %d %s", r.code, r.stdout)
	}
	v := e["violations"].([]any)
	if len(v) != 1 {
		t.Fatalf("violations %v", v)
	}
	first := v[0].(map[string]any)
	if first["code"] != "bad_line" || first["path"] != bad || num(first["line"]) != 4 || first["message"] == "" {
		t.Errorf("violation %v", first)
	}
	if _, err := os.Stat(filepath.Join(state, "sessions.db")); !os.IsNotExist(err) {
		t.Errorf("the rejected import created sessions.db (%v)", err)
	}
	// The good file alone stores all of itself: nothing of it was kept.
	if doc, _ = importDoc(t, "", good, "--state", state); num(doc["imported"]) != 7 {
		t.Errorf("the good file alone: %v", doc)
	}
}

// TestImport_StoreRefusalTraced: a turn the store refuses (its id is
// stored with other content) is reported at the transcript's own line.
func TestImport_StoreRefusalTraced(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	clash := `{"session":"` + ccSession + `","provider":"claude-code","id":"5e000002-1f2e-4a3b-8c4d-a00000000002","role":"user","content":"something else","time":"2026-07-02T10:00:00Z"}` + "\n"
	if _, r := importDoc(t, clash, "-", "--state", state); r.code != 0 {
		t.Fatalf("seed: %s %s", r.stdout, r.stderr)
	}
	path := filepath.Join("testdata", "claude-code", ccSession+".jsonl")
	doc, r := importDoc(t, "", path, "--state", state)
	e, _ := doc["error"].(map[string]any)
	if r.code != 1 || e == nil {
		t.Fatalf("exit %d %s", r.code, r.stdout)
	}
	v := e["violations"].([]any)[0].(map[string]any)
	msg, _ := v["message"].(string)
	if v["path"] != path || num(v["line"]) != 3 || !strings.Contains(msg, "5e000002-1f2e-4a3b-8c4d-a00000000002") {
		t.Errorf("violation %v", v)
	}
}

// TestImport_Help: import --help lists the formats and every JSONL field
// with its allowed values.
func TestImport_Help(t *testing.T) {
	r := runCLI(t, "", "import", "--help")
	if r.code != 0 {
		t.Fatalf("exit %d", r.code)
	}
	for _, want := range []string{"--format", "auto", "jsonl", "claude-code", "chatgpt", "conversations.json",
		"~/.claude/projects/<project>/<session-id>.jsonl", "not_a_transcript", "owner (default), paired or unpaired", "RFC 3339",
		"codex", "gemini", "telegram", "whatsapp", "slack", "discord", "--owner SENDER", "--paired SENDER", "[trust.<provider>]",
		"rollout-*.jsonl", "result.json", "_chat.txt", "DiscordChatExporter", "skipped changed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("import --help lacks %q", want)
		}
	}
	for _, field := range []string{"session", "provider", "id", "parent", "role", "content", "speaker_id", "speaker_display", "time", "tier", "group", "synthetic"} {
		if !strings.Contains(r.stdout, "\n  "+field+" ") {
			t.Errorf("import --help lacks the field %s", field)
		}
	}
	doc := oneJSON(t, runCLI(t, "", "import", "--help", "--json").stdout)
	if d, _ := doc["details"].(string); !strings.Contains(d, "speaker_display") {
		t.Errorf("--json help has no details: %v", doc)
	}
}
