package importer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// ccSession is the Claude Code transcript of the repository's testdata.
const ccSession = "7c2f4e1a-93b8-4d6e-a1f0-5b8c2d9e4f31"

func fixture(t *testing.T, parts ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(append([]string{"..", ".."}, parts...)...))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func write(t *testing.T, path string, data []byte) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func line(session, id, parent, content string) string {
	m := map[string]string{"session": session, "id": id, "role": "user", "content": content, "time": "2026-01-01T10:00:00Z"}
	if parent != "" {
		m["parent"] = parent
	}
	b, _ := json.Marshal(m)
	return string(b) + "\n"
}

// importDir imports everything under dir into state.
func importDir(t *testing.T, state, dir string, opts Options) (Result, error) {
	t.Helper()
	in, err := List(dir, opts.Format)
	if err != nil {
		t.Fatal(err)
	}
	return Import(context.Background(), state, in, opts)
}

func TestList(t *testing.T) {
	root := t.TempDir()
	jl := []byte(line("s", "1", "", "hi"))
	a := write(t, filepath.Join(root, "p", "a.jsonl"), jl)
	write(t, filepath.Join(root, "q", "conversations.json"), fixture(t, "transcript", "chatgpt", "testdata", "conversations.json"))
	txt := write(t, filepath.Join(root, "b.txt"), []byte("x\ny\n"))
	if err := os.Symlink(a, filepath.Join(root, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	// A link to a file the walk reads anyway is said, not read twice.
	linked := Unrecognised{Path: filepath.Join(root, "link.jsonl"), LooksLike: "a symbolic link to a file the walk reads already (p/a.jsonl)"}
	size := func(p string) int64 { fi, _ := os.Stat(p); return fi.Size() }
	in := func(p string, f transcript.Format, members ...string) Input {
		it := Input{Path: p, Format: f, Members: members}
		if len(members) == 0 {
			it.Size = size(p)
		}
		for _, m := range members {
			it.Size += size(filepath.Join(p, m))
		}
		return it
	}
	cases := []struct {
		path   string
		format transcript.Format
		want   Inputs
	}{
		{"-", transcript.FormatUnknown, Inputs{Items: []Input{{Path: "-"}}}},
		{a, transcript.FormatChatGPT, Inputs{Items: []Input{in(a, transcript.FormatChatGPT)}}},
		{root, transcript.FormatUnknown, Inputs{Walked: true,
			Items:        []Input{in(root, transcript.FormatJSONL, "p/a.jsonl"), in(root, transcript.FormatChatGPT, "q/conversations.json")},
			Unrecognised: []Unrecognised{{Path: txt, LooksLike: "plain text, first line “x”"}, linked}}},
		{root, transcript.FormatClaudeCode, Inputs{Walked: true, Items: []Input{in(root, transcript.FormatClaudeCode, "p/a.jsonl")},
			Unrecognised: []Unrecognised{linked}}},
		{root, transcript.FormatChatGPT, Inputs{Walked: true, Items: []Input{in(root, transcript.FormatChatGPT, "q/conversations.json")},
			Unrecognised: []Unrecognised{linked}}},
	}
	for _, tc := range cases {
		got, err := List(tc.path, tc.format)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("List(%s, %q) = %+v, %v; want %+v", tc.path, tc.format, got, err, tc.want)
		}
	}
	_, err := List(filepath.Join(root, "missing.jsonl"), "")
	if e := errcode.As(err); e == nil || e.Code != errcode.InvalidArgument || !strings.Contains(e.Message, "missing.jsonl") {
		t.Errorf("missing path: %v", err)
	}
}

// TestImport_Folder: a folder of mixed formats is stored in one import; a
// parent in a later file resolves; progress hears every byte and file.
func TestImport_Folder(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, "a", ccSession+".jsonl"), fixture(t, "testdata", "claude-code", ccSession+".jsonl"))
	write(t, filepath.Join(root, "b", "conversations.json"), fixture(t, "transcript", "chatgpt", "testdata", "conversations.json"))
	write(t, filepath.Join(root, "c", "child.jsonl"), []byte(line("s1", "m2", "m1", "second")))
	write(t, filepath.Join(root, "d", "parent.jsonl"), []byte("\xef\xbb\xbf"+line("s1", "m1", "", "first")))
	write(t, filepath.Join(root, "e", "notes.txt"), []byte("not a transcript\n"))
	state := filepath.Join(t.TempDir(), "state")
	var prog recorder
	res, err := importDir(t, state, root, Options{Progress: &prog})
	if err != nil {
		t.Fatal(err)
	}
	if res.Imported < 9 || res.Sessions < 3 || res.Skipped[SkipNotTranscript] != 1 || len(res.Files) != 4 {
		t.Errorf("result %+v", res)
	}
	var total int64
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if fi, _ := d.Info(); d.Type().IsRegular() && d.Name() != "notes.txt" {
			total += fi.Size() // the walk only recognised notes.txt as no transcript
		}
		return nil
	})
	if prog.read != total || len(prog.files) != 5 || prog.commits != 1 {
		t.Errorf("progress read %d of %d bytes, %d files, %d commits", prog.read, total, len(prog.files), prog.commits)
	}
	if f := res.Files[0]; f.Format != transcript.FormatClaudeCode || len(f.Sessions) != 1 || f.Sessions[0].Session != ccSession {
		t.Errorf("first file %+v", f)
	}
	// Again: nothing new, every turn a duplicate.
	again, err := importDir(t, state, root, Options{})
	if err != nil || again.Imported != 0 || again.Skipped[SkipDuplicate] != res.Imported {
		t.Errorf("second import %+v, %v", again, err)
	}
	assertNoStaging(t, state)
}

// TestImport_BadFileLeavesNothing: a file that does not parse, after one
// that does, stores nothing, and on a state dir that had no sessions.db
// leaves neither the database nor the state dir behind.
func TestImport_BadFileLeavesNothing(t *testing.T) {
	root := t.TempDir()
	cc := fixture(t, "testdata", "claude-code", ccSession+".jsonl")
	write(t, filepath.Join(root, "a.jsonl"), cc)
	lines := bytes.SplitAfter(cc, []byte("\n"))
	broken := append(append(append([][]byte{}, lines[:3]...), []byte(`{"type":"user","uuid":`+"\n")), lines[3:]...)
	bad := write(t, filepath.Join(root, "b.jsonl"), bytes.Join(broken, nil))
	write(t, filepath.Join(root, "c.jsonl"), []byte("{oops\n"+line("s", "1", "", "fine")))
	state := filepath.Join(t.TempDir(), "state")
	_, err := importDir(t, state, root, Options{Format: transcript.FormatClaudeCode})
	e := errcode.As(err)
	if e == nil || e.Code != errcode.InvalidArgument || len(e.Violations) != 2 || e.Message != "2 problem(s) in 2 file(s); nothing was imported" {
		t.Fatalf("error %#v", err)
	}
	if v := e.Violations[0]; v.Path != bad || v.Line != 4 || v.Code != "bad_line" {
		t.Errorf("violation %+v", v)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Errorf("a rejected first import left the state dir (%v)", err)
	}
}

// TestImport_StoreProblemsTraced: turns the store refuses are reported at
// their file's line, for JSONL and for a parsed transcript, and an existing
// sessions.db is left as it was.
func TestImport_StoreProblemsTraced(t *testing.T) {
	state := t.TempDir()
	dir := t.TempDir()
	clash := line(ccSession, "5e000002-1f2e-4a3b-8c4d-a00000000002", "", "something else")
	clash = strings.Replace(clash, `"id"`, `"provider":"claude-code","id"`, 1)
	seed := write(t, filepath.Join(dir, "seed.jsonl"), []byte(clash))
	if _, err := importDir(t, state, seed, Options{}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	cc := write(t, filepath.Join(root, "a.jsonl"), fixture(t, "testdata", "claude-code", ccSession+".jsonl"))
	jl := write(t, filepath.Join(root, "b.jsonl"), []byte(line("s", "1", "", "ok")+line("s", "2", "nowhere", "orphan")))
	_, err := importDir(t, state, root, Options{})
	e := errcode.As(err)
	if e == nil || len(e.Violations) != 2 {
		t.Fatalf("error %v", err)
	}
	if v := e.Violations[0]; v.Path != cc || v.Line != 3 || !strings.Contains(v.Message, `turn "5e000002-1f2e-4a3b-8c4d-a00000000002" of session "`+ccSession+`"`) {
		t.Errorf("claude-code violation %+v", v)
	}
	if v := e.Violations[1]; v.Path != jl || v.Line != 2 || !strings.Contains(v.Message, `parent "nowhere" not found`) {
		t.Errorf("jsonl violation %+v", v)
	}
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if all, _ := st.Sessions(); len(all) != 1 {
		t.Errorf("a rejected import changed the store: %+v", all)
	}
}

// TestImport_ReadFailure: a file that cannot be read is a problem of that
// file, found while storing (JSONL is read by the store).
func TestImport_ReadFailure(t *testing.T) {
	state := t.TempDir()
	_, err := Import(context.Background(), state, Paths("-"),
		Options{Format: transcript.FormatJSONL, Stdin: io.MultiReader(strings.NewReader(line("s", "1", "", "a")), failing{})})
	e := errcode.As(err)
	if e == nil || len(e.Violations) != 1 || e.Violations[0].Path != "-" || !strings.Contains(e.Violations[0].Message, "disk on fire") {
		t.Fatalf("error %v", err)
	}
	assertNoStaging(t, state)
	if _, err := os.Stat(workspace.SessionsDB(state)); !os.IsNotExist(err) {
		t.Errorf("sessions.db after a failed first import (%v)", err)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

// TestNodesOf: a tier the parser left open comes from Senders; what a turn
// says beyond the node's fields becomes its metadata.
func TestNodesOf(t *testing.T) {
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	turns := []transcript.Turn{
		{Provider: "telegram", Session: "g", ID: "1", Role: "user", Content: "hi", SpeakerID: "u1", Time: at, Group: true, Title: "Team <chat>"},
		{Provider: "telegram", Session: "g", ID: "2", Role: "user", Content: "yo", SpeakerID: "u2", Time: at, Group: true, ReplyTo: "1"},
		{Provider: "telegram", Session: "g", ID: "3", Role: "user", Content: "?", SpeakerID: "u3", Time: at, Group: true},
		{Provider: "claude-code", Session: "c", ID: "4", Role: "user", Content: "x", Time: at, Tier: transcript.TierOwner, Project: "/src/heron"},
	}
	nodes, keys := nodesOf(turns, newTiering(Senders{"telegram": {"u1": sessions.TierOwner, "u2": sessions.TierPaired}}, Named{}))
	tiers := []string{nodes[0].Tier, nodes[1].Tier, nodes[2].Tier, nodes[3].Tier}
	if want := []string{"owner", "paired", "unpaired", "owner"}; !reflect.DeepEqual(tiers, want) {
		t.Errorf("tiers %v, want %v", tiers, want)
	}
	metas := []string{string(nodes[0].Metadata), string(nodes[1].Metadata), string(nodes[2].Metadata), string(nodes[3].Metadata)}
	if want := []string{`{"title":"Team \u003cchat\u003e"}`, `{"reply_to":"1"}`, "", `{"project":"/src/heron"}`}; !reflect.DeepEqual(metas, want) {
		t.Errorf("metadata %q, want %q", metas, want)
	}
	if !nodes[0].Group || len(keys) != 2 || keys[1] != (sessions.SessionKey{Provider: "claude-code", Session: "c"}) {
		t.Errorf("group %v, sessions %v", nodes[0].Group, keys)
	}
	// The unpaired default holds without Senders too.
	if n, _ := nodesOf(turns[:1], nil); n[0].Tier != sessions.TierUnpaired {
		t.Errorf("no Senders: tier %s", n[0].Tier)
	}
}

// TestStaging: a staging file becomes sessions.db on publish, never over
// one another process created meanwhile; the files of a dead import are
// swept by the next.
func TestStaging(t *testing.T) {
	dir := t.TempDir()
	stale := write(t, filepath.Join(dir, stagingPrefix+"999999999-1"), []byte("left by a killed import"))
	tg, err := openTarget(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if tg.staging == "" {
		t.Fatal("no staging file on a state dir without sessions.db")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the dead import's staging file is still there (%v)", err)
	}
	write(t, workspace.SessionsDB(dir), nil) // another process was quicker
	err = tg.publish()
	if e := errcode.As(err); e == nil || e.Code != errcode.Conflict {
		t.Errorf("publish over a new sessions.db: %v", err)
	}
	assertNoStaging(t, dir)
	if fi, _ := os.Stat(workspace.SessionsDB(dir)); fi.Size() != 0 {
		t.Error("publish replaced the other process's sessions.db")
	}

	dir = t.TempDir()
	tg, err = openTarget(dir, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.publish(); err != nil {
		t.Fatal(err)
	}
	assertNoStaging(t, dir)
	if fi, err := os.Stat(workspace.SessionsDB(dir)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("sessions.db: %v %v", fi, err)
	}
}

func assertNoStaging(t *testing.T, dir string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, stagingPrefix+"*"))
	if len(matches) > 0 {
		t.Errorf("staging files left: %v", matches)
	}
}

// recorder is a Progress that remembers what it heard.
type recorder struct {
	read    int64
	files   []File
	commits int
}

func (r *recorder) Read(n int)  { r.read += int64(n) }
func (r *recorder) File(f File) { r.files = append(r.files, f) }
func (r *recorder) Committing() { r.commits++ }
