package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// cwTurns are three owner turns of one session, in import JSONL.
const cwTurns = `{"session":"chat","id":"c1","role":"user","content":"My sister Ines lives in Porto.","time":"2026-08-10T12:00:00Z"}
{"session":"chat","id":"c2","parent":"c1","role":"assistant","content":"Noted: Ines lives in Porto.","time":"2026-08-10T12:01:00Z"}
{"session":"chat","id":"c3","parent":"c2","role":"user","content":"She works as a marine biologist.","time":"2026-08-10T12:02:00Z"}
`

// cwSnapshot describes every entry under dir: kind, mode, modification
// time and, for files, a digest of the bytes. Equal snapshots mean nothing
// was created, removed, written or even touched.
func cwSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		desc := info.Mode().String() + " " + info.ModTime().String()
		if info.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			desc += " " + hex.EncodeToString(sum[:])
		}
		out[filepath.ToSlash(rel)] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCLI_WriterVerbsDisabled: with memory.backend = "none", import,
// write, backfill and status answer MEMORY_DISABLED, and the state dir
// (an empty one, and one holding a workspace) stays exactly as it was:
// no sessions.db, no workspace, no touched file.
func TestCLI_WriterVerbsDisabled(t *testing.T) {
	turns := filepath.Join(t.TempDir(), "turns.jsonl")
	if err := os.WriteFile(turns, []byte(cwTurns), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"empty", "with workspace"} {
		t.Run(name, func(t *testing.T) {
			state := filepath.Join(t.TempDir(), "state")
			if name == "empty" {
				if err := os.MkdirAll(state, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				state = fixtureState(t, "valid")
				if r := runCLI(t, "", "verify", "--json", "--state", state); r.code != 0 {
					t.Fatalf("verify before disabling: %d %s", r.code, r.stdout)
				}
			}
			if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte("[memory]\nbackend = \"none\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := cwSnapshot(t, state)
			for _, verb := range [][]string{{"import", turns}, {"import", "-"}, {"write"}, {"write", "--force"},
				{"write", "--session", "chat"}, {"backfill"}, {"status"}} {
				r := runCLI(t, cwTurns, append(verb, "--json", "--state", state)...)
				doc := oneJSON(t, r.stdout)
				e, _ := doc["error"].(map[string]any)
				if r.code != 1 || e == nil || e["code"] != "MEMORY_DISABLED" {
					t.Errorf("%v: exit %d %s", verb, r.code, r.stdout)
					continue
				}
				checkErrorDoc(t, e)
			}
			if _, err := os.Stat(filepath.Join(state, "sessions.db")); !os.IsNotExist(err) {
				t.Errorf("sessions.db exists: %v", err)
			}
			if d := diffTrees(before, cwSnapshot(t, state)); d != "" {
				t.Errorf("a disabled backend touched the state dir:\n%s", d)
			}
		})
	}
}

// TestCLI_WriteThroughOpenAI: import, write and status against an
// OpenAI-compatible server named in config.toml. A 401 is a final
// MODEL_AUTH failure that installs nothing and shows in status; once the
// server answers, write installs the batch and verify is clean.
func TestCLI_WriteThroughOpenAI(t *testing.T) {
	var authFails atomic.Bool
	authFails.Store(true)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if authFails.Load() {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided"}}`)
			return
		}
		var req struct {
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		// Cite every source the request lists under SOURCES.
		topic := "# Ines\n"
		user := req.Messages[len(req.Messages)-1].Content
		_, sources, _ := strings.Cut(user, "\nSOURCES")
		for i, line := range strings.Split(sources, "\n")[1:] {
			f := strings.Split(line, "  ")
			if len(f) != 4 {
				break
			}
			label := "e-" + strings.Repeat("0", 9) + string(rune('1'+i))
			id := "abcdef0" + string(rune('1'+i))
			topic += "\nA fact from " + strings.ReplaceAll(f[0], "/", " ") + ".[^" + label + "] ^" + id + "\n\n" +
				"[^" + label + "]: Time: `" + f[3] + "`; Sources: [" + f[0] + "](../" + f[1] + "#" + f[2] + ")\n"
		}
		edits, _ := json.Marshal(map[string]any{"edits": []map[string]string{{"op": "create", "path": "topics/ines.md", "content": topic}}})
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{
			{"message": map[string]any{"role": "assistant", "content": "```json\n" + string(edits) + "\n```"}, "finish_reason": "stop"}}})
	}))
	defer srv.Close()

	state := filepath.Join(t.TempDir(), "state")
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[model]\nprovider = \"openai\"\nbase_url = \"" + srv.URL + "/v1\"\nname = \"test-model\"\n"
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, cwTurns, "import", "-", "--json", "--state", state); r.code != 0 || oneJSON(t, r.stdout)["imported"] != json.Number("3") {
		t.Fatalf("import: %d %s %s", r.code, r.stdout, r.stderr)
	}

	r := runCLI(t, "", "write", "--force", "--json", "--state", state)
	doc := oneJSON(t, r.stdout)
	e, _ := doc["error"].(map[string]any)
	if r.code != 1 || e == nil || e["code"] != "MODEL_AUTH" || e["retryable"] != false {
		t.Fatalf("write against a 401: exit %d %s", r.code, r.stdout)
	}
	checkErrorDoc(t, e)
	writer := func() map[string]any {
		t.Helper()
		r := runCLI(t, "", "status", "--json", "--state", state)
		doc := oneJSON(t, r.stdout)
		if doc["model"] != "openai:test-model" {
			t.Errorf("status model %v", doc["model"])
		}
		w, _ := doc["writer"].(map[string]any)
		if w == nil || doc["revision"] == nil {
			t.Fatalf("status: %s", r.stdout)
		}
		w["revision"] = doc["revision"]
		return w
	}
	w := writer()
	f, _ := w["last_failure"].(map[string]any)
	if f == nil || f["code"] != "MODEL_AUTH" || f["retryable"] != false || w["pending_turns"] != json.Number("3") ||
		w["revision"] != json.Number("0") {
		t.Errorf("status writer after the 401: %v", w)
	}

	authFails.Store(false)
	r = runCLI(t, "", "write", "--force", "--json", "--state", state)
	doc = oneJSON(t, r.stdout)
	if r.code != 0 || doc["batches"] != json.Number("1") || doc["revision"] != json.Number("1") {
		t.Fatalf("write: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	w = writer()
	if w["pending_turns"] != json.Number("0") || w["last_success_at"] == "" || w["revision"] != json.Number("1") {
		t.Errorf("status writer after the write: %v", w)
	}
	if r := runCLI(t, "", "verify", "--json", "--state", state); r.code != 0 || oneJSON(t, r.stdout)["ok"] != true {
		t.Errorf("verify: %d %s", r.code, r.stdout)
	}
	// Nothing is owed any more: a second write is a silent success.
	r = runCLI(t, "", "write", "--json", "--state", state)
	if doc := oneJSON(t, r.stdout); r.code != 0 || doc["batches"] != json.Number("0") || doc["revision"] != json.Number("1") {
		t.Errorf("second write: %d %s", r.code, r.stdout)
	}
}
