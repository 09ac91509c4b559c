package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/termsafe"
)

// Issue 24, finding 7: record text reached the owner's terminal raw, so an
// unpaired group message could erase "pending review" or "identity
// verified" lines, reorder text or write the clipboard. hostile holds
// what such a message can carry: OSC 52 (the clipboard), CSI (erase the
// line, cursor up), a CR that overwrites the line, C1 CSI, DEL and bidi
// controls. Every human-facing output of the CLI is fed it and must show
// it neutralised; --json and the files keep the bytes.
const hostile = "copper \x1b]52;c;cm0gLXJmIH4=\x07\x1b[2K\x1b[1A\ridentity verified\u202eevil\u2066 \u009b2K\x7f end"

// hostileSeen is how the neutralised OSC 52 shows: proof that the text
// reached the output and was not dropped.
const hostileSeen = "␛]52;c;cm0gLXJmIH4=␇"

// terminalSafetyState builds a workspace whose records, blocks, speaker
// names, rejection reason and proposal all carry hostile text.
func terminalSafetyState(t *testing.T) (state string, pendingRef, blockID string, rev int64) {
	t.Helper()
	state = filepath.Join(t.TempDir(), "state")
	if r := runCLI(t, "", "init", state); r.code != 0 {
		t.Fatalf("init: %s", r.stderr)
	}
	turn := func(session, id, parent, role, content, tier, speaker string, group bool) string {
		m := map[string]any{"session": session, "provider": "telegram", "id": id, "parent": parent, "role": role,
			"content": content, "time": "2026-08-10T12:0" + id + ":00Z", "tier": tier, "group": group}
		if speaker != "" {
			m["speaker_id"], m["speaker_display"] = "u"+id, speaker
		}
		b, _ := json.Marshal(m)
		return string(b) + "\n"
	}
	turns := turn("owner-chat", "1", "", "user", "Remember: "+hostile, "owner", "", false) +
		turn("owner-chat", "2", "1", "assistant", "Noted: "+hostile, "owner", "", false) +
		turn("group", "3", "", "user", "Give the key to B. "+hostile, "unpaired", "Mallory\u202e\x1b[31m", true) +
		turn("group", "4", "3", "user", "Another one. "+hostile, "unpaired", "Eve", true)
	for _, args := range [][]string{{"import", "-"}, {"write", "--force"}} {
		if r := runCLI(t, turns, append(args, "--state", state)...); r.code != 0 {
			t.Fatalf("%v: %s %s", args, r.stdout, r.stderr)
		}
	}
	pending := oneJSON(t, runCLI(t, "", "pending", "--json", "--state", state).stdout)["sources"].([]any)
	if len(pending) != 2 {
		t.Fatalf("want 2 pending sources, got %v", pending)
	}
	pendingRef = pending[0].(map[string]any)["ref"].(string)
	rejected := pending[1].(map[string]any)["ref"].(string)
	if r := runCLI(t, "", "reject", rejected, "--reason", "spam "+hostile, "--yes", "--state", state); r.code != 0 {
		t.Fatalf("reject: %s", r.stderr)
	}
	// An owner topic with the hostile text twice (the sleep pass merges
	// the duplicates and shows the diff) and a core block of it.
	blockID = "5afe0001"
	rev = currentRevision(t, state)
	tx := fmt.Sprintf(`{"base_revision":%d,"edits":[%s,%s]}`, rev,
		editJSON("create", "topics/core.md", "# Core\n\nOwner rule: "+hostile+" ^"+blockID+"\n"),
		editJSON("create", "topics/dup.md", "# Dup\n\nA fact "+hostile+" ^5afe0002\n\nA fact "+hostile+" ^5afe0003\n"))
	if r := runCLI(t, tx, "update", "-", "--json", "--state", state); r.code != 0 {
		t.Fatalf("update: %s", r.stdout)
	}
	rev++
	// A paired proposal for core.md.
	tx = fmt.Sprintf(`{"base_revision":%d,"edits":[%s]}`, rev, editJSON("append", "topics/core.md", "Paired says: "+hostile+" ^5afe0004\n"))
	if r := runCLI(t, tx, "update", "-", "--as", "paired", "--propose", "--json", "--state", state); r.code != 0 {
		t.Fatalf("propose: %s", r.stdout)
	}
	return state, pendingRef, blockID, rev
}

func TestTerminalSafety_CLI(t *testing.T) {
	state, pendingRef, blockID, rev := terminalSafetyState(t)
	cases := []struct {
		name string
		args []string
		// shown: the hostile text must appear (neutralised) in the output.
		shown bool
	}{
		{"pending", []string{"pending"}, true},
		{"pending --rejected", []string{"pending", "--rejected"}, true},
		{"get source", []string{"get", pendingRef}, true},
		{"get block", []string{"get", "^" + blockID}, true},
		{"search", []string{"search", "copper"}, true},
		{"search --explain", []string{"search", "copper", "--explain"}, true},
		{"history", []string{"history"}, false},
		{"revert --dry-run", []string{"revert", fmt.Sprint(rev), "--dry-run"}, true},
		{"proposals", []string{"proposals"}, false},
		{"forget --dry-run", []string{"forget", "--source", pendingRef, "--dry-run"}, true},
		{"audit", []string{"audit"}, true},
		{"audit --source", []string{"audit", "--source", pendingRef}, false},
		{"explain", []string{"explain", "^" + blockID}, false},
		{"core", []string{"core"}, false},
		{"status", []string{"status"}, false},
		{"verify", []string{"verify"}, false},
		{"error on stderr", []string{"get", "telegram/group/" + hostile}, true},
		{"usage error on stderr", []string{"search", "copper", "--limit", hostile}, false}, // %q-quoted already
		{"sleep", []string{"sleep"}, true},                                                 // last: it changes topics
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, "", append(c.args, "--state", state)...)
			for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
				if i := termsafe.Index(out); i >= 0 {
					t.Errorf("%s reaches the terminal raw at byte %d: %q", name, i, out[max(0, i-20):min(len(out), i+20)])
				}
			}
			if c.shown && !strings.Contains(r.stdout+r.stderr, hostileSeen) {
				t.Errorf("the hostile text did not reach the output, so this proves nothing:\nstdout %s\nstderr %s", r.stdout, r.stderr)
			}
		})
	}
	// --json and the files keep every byte.
	r := runCLI(t, "", "get", pendingRef, "--json", "--state", state)
	var src struct{ Content string }
	if err := json.Unmarshal([]byte(r.stdout), &src); err != nil || !strings.Contains(src.Content, hostile) {
		t.Errorf("get --json lost bytes: %q %v", src.Content, err)
	}
	data, err := os.ReadFile(filepath.Join(state, "memory", "topics", "core.md"))
	if err != nil || !strings.Contains(string(data), hostile) {
		t.Errorf("topics/core.md lost bytes: %q %v", data, err)
	}
}
