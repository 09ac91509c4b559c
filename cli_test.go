package main

import (
	"os"
	"path/filepath"
	"scriptorium/errcode"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// checkErrorDoc checks the SPEC §12 error object: code from the closed set,
// a message, retryable matching the code.
func checkErrorDoc(t *testing.T, e map[string]any) {
	t.Helper()
	code, _ := e["code"].(string)
	if !slices.Contains(errcode.Codes, errcode.Code(code)) {
		t.Errorf("error code %q is not in the closed set", code)
	}
	if msg, _ := e["message"].(string); strings.TrimSpace(msg) == "" {
		t.Errorf("error %s has no message", code)
	}
	retry, ok := e["retryable"].(bool)
	if !ok {
		t.Errorf("error %s has no boolean retryable", code)
	} else if retry != errcode.Code(code).Retryable() {
		t.Errorf("error %s: retryable %v", code, retry)
	}
	for k := range e {
		switch k {
		case "code", "message", "retryable", "violations":
		default:
			t.Errorf("error object has unexpected field %q", k)
		}
	}
}

// TestCLI_FlagsAnywhere: flags may stand before or after the verb and its
// positional arguments, in either spelling, with the same result.
func TestCLI_FlagsAnywhere(t *testing.T) {
	state := fixtureState(t, "valid")
	lines := [][]string{
		{"--json", "get", "^f888f60e", "--state", state},
		{"get", "^f888f60e", "--state", state, "--json"},
		{"--state", state, "get", "--json", "^f888f60e"},
		{"--state=" + state, "--json=true", "get", "^f888f60e"},
		{"get", "--state", state, "^f888f60e", "--json"},
		{"--json", "--state", state, "get", "--", "^f888f60e"},
	}
	var first cliRun
	for i, args := range lines {
		r := runCLI(t, "", args...)
		if r.code != 0 {
			t.Fatalf("%q: exit %d: %s%s", args, r.code, r.stdout, r.stderr)
		}
		oneJSON(t, r.stdout)
		if i == 0 {
			first = r
			continue
		}
		if r.stdout != first.stdout {
			t.Errorf("%q printed\n%s\nbut %q printed\n%s", args, r.stdout, lines[0], first.stdout)
		}
	}
	// Without --json the same verb prints text, not JSON.
	r := runCLI(t, "", "get", "^f888f60e", "--state", state)
	if r.code != 0 || strings.HasPrefix(r.stdout, "{") {
		t.Errorf("text mode: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestCLI_ExitAndErrors is the exit-status and error-document table: 0
// success, 1 failure or rejection, 2 usage; with --json exactly one
// document on stdout, an error object with a code from the closed set;
// without --json nothing on stdout for a failure and the reason on stderr.
func TestCLI_ExitAndErrors(t *testing.T) {
	state := fixtureState(t, "valid")
	bad := fixtureState(t, "bad-links")
	tx := filepath.Join(t.TempDir(), "tx.json")
	if err := os.WriteFile(tx, []byte(`{"base_revision": 99, "edits": [{"op":"delete","path":"topics/core.md"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	notJSON := filepath.Join(t.TempDir(), "tx.txt")
	if err := os.WriteFile(notJSON, []byte(`not json`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		exit int
		code string // "" for success
	}{
		{"status", []string{"status", "--state", state}, 0, ""},
		{"verify ok", []string{"verify", "--state", state}, 0, ""},
		{"verify violations", []string{"verify", "--state", bad}, 1, ""},
		{"history", []string{"history", "--state", state}, 0, ""},
		{"pending", []string{"pending", "--state", state}, 0, ""},
		{"get not found", []string{"get", "^00000000", "--state", state}, 1, "NOT_FOUND"},
		{"get bad ref", []string{"get", "nonsense", "--state", state}, 1, "INVALID_ARGUMENT"},
		{"update conflict", []string{"update", tx, "--state", state}, 1, "CONFLICT"},
		{"update not json", []string{"update", notJSON, "--state", state}, 1, "INVALID_ARGUMENT"},
		{"update missing file", []string{"update", filepath.Join(state, "nope.json"), "--state", state}, 1, "INVALID_ARGUMENT"},
		{"promote without terminal", []string{"promote", "openprogram/group-dev/m5", "--state", state}, 1, "FORBIDDEN"},
		{"unknown verb", []string{"frobnicate", "--state", state}, 2, "INVALID_ARGUMENT"},
		{"unknown flag first", []string{"--bogus", "status", "--state", state}, 2, "INVALID_ARGUMENT"},
		{"unknown flag last", []string{"status", "--state", state, "--bogus"}, 2, "INVALID_ARGUMENT"},
		{"flag of another verb", []string{"verify", "--yes", "--state", state}, 2, "INVALID_ARGUMENT"},
		{"state and profile", []string{"status", "--state", state, "--profile", "work"}, 2, "INVALID_ARGUMENT"},
		{"missing flag value", []string{"status", "--state"}, 2, "INVALID_ARGUMENT"},
		{"bool flag with junk", []string{"status", "--state", state, "--json=maybe"}, 2, "INVALID_ARGUMENT"},
		{"flag twice", []string{"status", "--state", state, "--state", state}, 2, "INVALID_ARGUMENT"},
		{"missing argument", []string{"get", "--state", state}, 2, "INVALID_ARGUMENT"},
		{"extra argument", []string{"verify", "extra", "--state", state}, 2, "INVALID_ARGUMENT"},
		{"bad tier", []string{"update", tx, "--as", "unpaired", "--state", state}, 2, "INVALID_ARGUMENT"},
		{"bad profile", []string{"status", "--profile", "../x"}, 2, "INVALID_ARGUMENT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, js := range []bool{true, false} {
				args := c.args
				if js {
					// --json goes last so usage errors found earlier on
					// the line must still honour it.
					args = append(slices.Clone(c.args), "--json")
				}
				r := runCLI(t, "", args...)
				if r.code != c.exit {
					t.Errorf("json=%v: exit %d, want %d\nstdout %s\nstderr %s", js, r.code, c.exit, r.stdout, r.stderr)
				}
				if !js {
					if c.code != "" && (r.stdout != "" || !strings.Contains(r.stderr, "scriptorium: ")) {
						t.Errorf("text failure: stdout %q stderr %q", r.stdout, r.stderr)
					}
					if r.code == 0 && strings.TrimSpace(r.stderr) != "" {
						t.Errorf("text success wrote to stderr: %q", r.stderr)
					}
					continue
				}
				doc := oneJSON(t, r.stdout)
				e, isErr := doc["error"].(map[string]any)
				if c.code == "" {
					if isErr {
						t.Errorf("unexpected error document %s", r.stdout)
					}
					continue
				}
				if !isErr {
					t.Fatalf("want an error document, got %s", r.stdout)
				}
				if len(doc) != 1 {
					t.Errorf("error document has extra top-level keys: %s", r.stdout)
				}
				checkErrorDoc(t, e)
				if e["code"] != c.code {
					t.Errorf("code %v, want %s", e["code"], c.code)
				}
			}
		})
	}
}

// TestCLI_ConflictIsRetryable: CONFLICT is the one rejection a caller may
// retry after reading again.
func TestCLI_ConflictIsRetryable(t *testing.T) {
	state := fixtureState(t, "valid")
	tx := filepath.Join(t.TempDir(), "tx.json")
	os.WriteFile(tx, []byte(`{"base_revision": 7, "edits": [{"op":"delete","path":"topics/core.md"}]}`), 0o644)
	r := runCLI(t, "", "update", tx, "--json", "--state", state)
	e := oneJSON(t, r.stdout)["error"].(map[string]any)
	if e["code"] != "CONFLICT" || e["retryable"] != true {
		t.Errorf("got %s", r.stdout)
	}
}

// TestCLI_Disabled: memory.backend = "none" refuses every memory verb with
// MEMORY_DISABLED before anything is created on disk.
func TestCLI_Disabled(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte("[memory]\nbackend = \"none\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, verb := range [][]string{{"status"}, {"verify"}, {"get", "^f888f60e"}, {"pending"}, {"history"}, {"core"}, {"promote", "--yes", "a/b/c"}} {
		r := runCLI(t, "", append(verb, "--json", "--state", state)...)
		doc := oneJSON(t, r.stdout)
		e, _ := doc["error"].(map[string]any)
		if r.code != 1 || e == nil || e["code"] != "MEMORY_DISABLED" {
			t.Errorf("%v: exit %d %s", verb, r.code, r.stdout)
		}
	}
	entries, _ := os.ReadDir(state)
	if len(entries) != 1 {
		t.Errorf("a disabled backend touched the state dir: %v", entries)
	}
}

// TestCLI_StatusFields: status --json has exactly the SPEC §12 fields, plus
// the hook's status (issue 12).
func TestCLI_StatusFields(t *testing.T) {
	state := fixtureState(t, "valid")
	r := runCLI(t, "", "status", "--json", "--state", state)
	doc := oneJSON(t, r.stdout)
	want := map[string][]string{
		"":       {"backend", "core", "hook", "index", "lock", "model", "revision", "workspace_id", "writer"},
		"writer": {"failed_sessions", "last_failure", "last_success_at", "pending_turns"},
		"hook":   {"last_event", "last_failure", "last_success_at"},
		"core":   {"budget", "excluded", "included", "pending", "tokens"},
		"index":  {"documents", "format", "fresh"},
	}
	for obj, keys := range want {
		m := doc
		if obj != "" {
			m, _ = doc[obj].(map[string]any)
		}
		var got []string
		for k := range m {
			got = append(got, k)
		}
		sort.Strings(got)
		if !slices.Equal(got, keys) {
			t.Errorf("status %q fields %v, want %v", obj, got, keys)
		}
	}
	id, _ := doc["workspace_id"].(string)
	data, err := os.ReadFile(filepath.Join(state, "memory", ".scriptorium", "workspace-id"))
	if err != nil || strings.TrimSpace(string(data)) != id || len(id) != 32 {
		t.Errorf("workspace_id %q, file %q (%v)", id, data, err)
	}
	if doc["backend"] != "local" || doc["model"] != "offline" {
		t.Errorf("backend %v model %v", doc["backend"], doc["model"])
	}
	core := doc["core"].(map[string]any)
	if core["pending"].([]any)[0] != "deadbeef" {
		t.Errorf("core pending %v", core["pending"])
	}
	// Status is read-only: it renders nothing to disk.
	if _, err := os.Stat(filepath.Join(state, "memory", "core.md")); err == nil {
		t.Errorf("status wrote core.md")
	}
}

// TestCLI_Golden compares text and JSON outputs with testdata/cli/*.golden.
// Paths of the temporary state dir and the random workspace id are
// replaced by placeholders. --help and status are checked structurally
// instead (TestCLIFlow_HelpListsEveryVerb, TestCLI_StatusFields): their
// text changes whenever a verb or the index state does.
func TestCLI_Golden(t *testing.T) {
	cases := []struct {
		name    string
		fixture string
		args    []string
	}{
		{"verify-valid", "valid", []string{"verify"}},
		{"verify-bad-citations", "bad-citations", []string{"verify"}},
		{"verify-bad-speaker-ids", "bad-speaker-ids", []string{"verify"}},
		{"get-block", "valid", []string{"get", "^1a2b3c4d"}},
		{"get-source", "valid", []string{"get", "openprogram/group-dev/m3"}},
		{"pending", "valid", []string{"pending"}},
		{"pending-json", "valid", []string{"pending", "--json"}},
		{"history-empty", "valid", []string{"history"}},
		{"audit-source", "valid", []string{"audit", "--source", "openprogram/group-dev/m3"}},
		{"audit-source-json", "valid", []string{"audit", "--source", "openprogram/group-dev/m3", "--json"}},
		{"pending-rejected-json", "valid", []string{"pending", "--rejected", "--json"}},
		{"core-json", "valid", []string{"core", "--json"}},
		{"error-not-found", "valid", []string{"get", "^00000000"}},
		{"error-usage", "", []string{"frobnicate"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			state := ""
			if c.fixture != "" {
				state = fixtureState(t, c.fixture)
				args = append(slices.Clone(args), "--state", state)
			}
			r := runCLI(t, "", args...)
			var b strings.Builder
			b.WriteString("$ scriptorium " + strings.Join(c.args, " ") + "\n")
			b.WriteString(r.stdout)
			if r.stderr != "" {
				b.WriteString("--- stderr\n" + r.stderr)
			}
			b.WriteString("--- exit " + strconv.Itoa(r.code) + "\n")
			out := b.String()
			if state != "" {
				out = strings.ReplaceAll(out, filepath.Join(state, "memory"), "$MEMORY")
				if id, err := os.ReadFile(filepath.Join(state, "memory", ".scriptorium", "workspace-id")); err == nil {
					out = strings.ReplaceAll(out, strings.TrimSpace(string(id)), "$WORKSPACE_ID")
				}
			}
			checkGolden(t, filepath.Join("testdata", "cli", c.name+".golden"), []byte(out))
		})
	}
}

// TestCLI_ClosedCodeSet: the engine's codes are exactly SPEC §12's closed
// set, and only LOCK_BUSY, CONFLICT and MODEL_UNAVAILABLE are retryable.
func TestCLI_ClosedCodeSet(t *testing.T) {
	spec := strings.Fields("INVALID_ARGUMENT NOT_FOUND CONFLICT LOCK_BUSY REJECTED FORBIDDEN MEMORY_DISABLED " +
		"MODEL_UNAVAILABLE MODEL_AUTH MODEL_CONFIG MODEL_OUTPUT_INVALID NOT_CONFIGURED IO")
	var got []string
	for _, c := range errcode.Codes {
		got = append(got, string(c))
		want := c == errcode.LockBusy || c == errcode.Conflict || c == errcode.ModelUnavailable
		if c.Retryable() != want {
			t.Errorf("%s retryable = %v", c, c.Retryable())
		}
	}
	slices.Sort(got)
	slices.Sort(spec)
	if !slices.Equal(got, spec) {
		t.Errorf("codes %v, want %v", got, spec)
	}
	if e := errcode.As(os.ErrPermission); e.Code != errcode.IO {
		t.Errorf("an unclassified error maps to %s, want IO", e.Code)
	}
}
