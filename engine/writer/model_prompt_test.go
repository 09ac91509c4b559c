package writer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// promptSession is a SESSIONS line the test reads back from a request.
type promptSession struct {
	Session, Title, Project, Owner string
	ProjectFile                    string            `json:"project_file"`
	OwnerFile                      string            `json:"owner_file"`
	ThreadFile                     string            `json:"thread_file"`
	People                         map[string]string `json:"people_files"`
	Group                          bool
}

// promptNode is a turn with the session metadata the JSONL import has no
// field for (a coding session's working directory, a chat's title).
type promptNode struct {
	provider, session, id, role, tier string
	group                             bool
	speakerID, speakerDisplay         string
	project, title, time, content     string
}

// promptImport stores turns in <state>/sessions.db, each the child of the
// session's previous turn.
func promptImport(t *testing.T, state string, turns ...promptNode) {
	t.Helper()
	var set enginetest.DistillSet
	for _, tr := range turns {
		parent := ""
		if n, _ := strconv.Atoi(strings.TrimPrefix(tr.id, "t")); n > 1 {
			parent = fmt.Sprintf("t%03d", n-1)
		}
		set.Turns = append(set.Turns, enginetest.DistillTurn{Provider: tr.provider, Session: tr.session, ID: tr.id,
			Parent: parent, Role: tr.role, Content: tr.content, SpeakerID: tr.speakerID, SpeakerDisplay: tr.speakerDisplay,
			Time: tr.time, Tier: tr.tier, Group: tr.group, Project: tr.project, Title: tr.title})
	}
	set.Import(t, state)
}

func promptLines[T any](t *testing.T, msg, section string) []T {
	t.Helper()
	var out []T
	for _, l := range wtSection(msg, section) {
		var x T
		if err := json.Unmarshal([]byte(l), &x); err != nil {
			t.Fatalf("%s line %q: %v", section, l, err)
		}
		out = append(out, x)
	}
	return out
}

// The model writer's prompt says who spoke each turn (the owner, the
// assistant, a named participant: its ROLES section, beside TURNS lines
// kept to SPEC §7's shape) and, per session, its project, title
// and the files the offline writer files them under, and tells the model
// how to use them. Before, a turn carried only ref, speaker and content:
// in a coding session or an assistant chat nothing marked the owner's
// turns, and the project and title were not sent. The speakerless owner
// of the coding session and the ChatGPT chat is called by the name the
// owner's WhatsApp turns carry, and filed in that name's file (before
// issue 22's owner name: "the owner", people/owner.md).
func TestModelWriter_PromptSaysWhoAndWhere(t *testing.T) {
	ctx := context.Background()
	srv := wtNewServer(t, wtGoodReply)
	state := filepath.Join(t.TempDir(), "state")
	const code = "/home/nadia/src/ledgerline"
	promptImport(t, state,
		promptNode{"claude-code", "code1", "t001", "user", "owner", false, "", "", code, "", "2025-03-03T09:12:00Z", "Tests here always run with make test."},
		promptNode{"claude-code", "code1", "t002", "assistant", "", false, "", "", code, "", "2025-03-03T09:13:00Z", "Let me look at the Makefile."},
		promptNode{"chatgpt", "chat1", "t001", "user", "owner", false, "", "", "", "Bike gears skipping", "2025-09-14T08:20:00Z", "My bike is a Genesis Croix de Fer."},
		promptNode{"chatgpt", "chat1", "t002", "assistant", "", false, "", "", "", "Bike gears skipping", "2025-09-14T08:21:00Z", "A worn chain, most likely."},
		promptNode{"whatsapp", "flat", "t001", "user", "owner", true, "wa-1", "Nadia Haddad", "", "Flat 3B", "2025-05-10T09:12:00Z", "I moved to Leeds."},
		promptNode{"whatsapp", "flat", "t002", "user", "paired", true, "wa-2", "Ben Okoro", "", "Flat 3B", "2025-05-10T09:13:00Z", "I am still in Sheffield."})
	cfg := "[model]\nprovider = \"openai\"\nbase_url = \"" + srv.URL + "/v1\"\nname = \"test-model\"\n"
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Write(ctx, wtOpen(t, state, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		sess  promptSession
		roles map[string]string // turn id → role
	}{
		"claude-code/code1": {promptSession{Project: "/home/nadia/src/ledgerline", ProjectFile: "topics/projects/ledgerline.md",
			Owner: "Nadia Haddad", OwnerFile: "topics/people/nadia-haddad.md", ThreadFile: "topics/threads/ledgerline-2025-03-03-0912.md"},
			map[string]string{"t001": "owner", "t002": "assistant"}},
		"chatgpt/chat1": {promptSession{Title: "Bike gears skipping", Owner: "Nadia Haddad", OwnerFile: "topics/people/nadia-haddad.md",
			ThreadFile: "topics/threads/bike-gears-skipping.md"},
			map[string]string{"t001": "owner", "t002": "assistant"}},
		"whatsapp/flat": {promptSession{Title: "Flat 3B", Owner: "Nadia Haddad", OwnerFile: "topics/people/nadia-haddad.md",
			ThreadFile: "topics/threads/flat-3b.md", Group: true,
			People: map[string]string{"Ben Okoro (wa-2)": "topics/people/ben-okoro.md"}},
			map[string]string{"t001": "owner", "t002": "participant"}},
	}
	reqs := srv.requests()
	if len(reqs) != len(want) {
		t.Fatalf("%d requests, want one per session (%d)", len(reqs), len(want))
	}
	for _, req := range reqs {
		sys := req.Messages[0].Content
		for _, s := range []string{"ROLES", `"owner"`, `"participant"`, "project_file", "owner_file", "people_files", "thread_file", "title"} {
			if !strings.Contains(sys, s) {
				t.Errorf("the system prompt does not explain %s", s)
			}
		}
		ss := promptLines[promptSession](t, req.user(), "SESSIONS")
		if len(ss) != 1 {
			t.Fatalf("SESSIONS %+v, want the batch's one session", ss)
		}
		w, ok := want[ss[0].Session]
		if !ok {
			t.Fatalf("unexpected session %q", ss[0].Session)
		}
		w.sess.Session = ss[0].Session
		if !reflect.DeepEqual(ss[0], w.sess) {
			t.Errorf("SESSIONS line\n %+v, want\n %+v", ss[0], w.sess)
		}
		turns := wtSection(req.user(), "TURNS")
		roles := wtSection(req.user(), "ROLES")
		if len(turns) != len(w.roles) || len(roles) != len(turns) {
			t.Errorf("%s: %d turns, %d roles, want %d", w.sess.Session, len(turns), len(roles), len(w.roles))
		}
		for _, l := range roles {
			ref, role, _ := strings.Cut(l, "  ")
			id := ref[strings.LastIndex(ref, "/")+1:]
			if !strings.HasPrefix(ref, w.sess.Session+"/") || role != w.roles[id] {
				t.Errorf("%s: ROLES line %q, want role %q", w.sess.Session, l, w.roles[id])
			}
		}
	}
}

// A later batch of a session is told the thread file its summary block is
// already in, though a new name would differ (a coding session's name has
// its first turn's time): the session keeps one thread block in one file.
func TestModelWriter_PromptKeepsThreadFile(t *testing.T) {
	ctx := context.Background()
	srv := wtNewServer(t, func(w http.ResponseWriter, _ *http.Request, req wtChatRequest) {
		srcs := wtSources(req.user())
		ss := promptLines[promptSession](t, req.user(), "SESSIONS")
		s := srcs[0]
		label, id := "e-"+wtHex("fn"+s.Ref, 10), wtHex("block"+s.Ref, 8)
		block := fmt.Sprintf("The owner worked on ledgerline.[^%s] ^%s\n\n[^%s]: Time: `%s`; Sources: [%s](../../%s#%s)\n",
			label, id, label, s.Date, s.Ref, s.Path, s.Anchor)
		ans, _ := json.Marshal(map[string]any{"edits": []map[string]string{{"op": "append", "path": ss[0].ThreadFile, "content": block}}})
		wtAnswer(w, string(ans))
	})
	state := filepath.Join(t.TempDir(), "state")
	turn := func(id, time string) promptNode {
		return promptNode{"claude-code", "code1", id, "user", "owner", false, "", "", "/home/nadia/src/ledgerline", "", time, "Tests here always run with make test."}
	}
	promptImport(t, state, turn("t001", "2025-03-03T09:12:00Z"))
	cfg := "[model]\nprovider = \"openai\"\nbase_url = \"" + srv.URL + "/v1\"\nname = \"test-model\"\n"
	if err := os.WriteFile(workspace.ConfigPath(state), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writer.Write(ctx, wtOpen(t, state, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	promptImport(t, state, turn("t002", "2025-03-04T10:00:00Z"))
	if _, err := writer.Write(ctx, wtOpen(t, state, nil), writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first := promptLines[promptSession](t, reqs[0].user(), "SESSIONS")[0].ThreadFile
	second := promptLines[promptSession](t, reqs[1].user(), "SESSIONS")[0].ThreadFile
	if first != "topics/threads/ledgerline-2025-03-03-0912.md" || second != first {
		t.Errorf("thread files %q then %q, want the first's kept", first, second)
	}
}
