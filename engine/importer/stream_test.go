package importer

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// smallChunks stores streamed files a turn at a time for the test.
func smallChunks(t *testing.T) {
	old := streamChunkBytes
	streamChunkBytes = 1
	t.Cleanup(func() { streamChunkBytes = old })
}

// TestImport_StreamedInChunks: a transcript stored a chunk at a time
// gives the same sessions and parents as one stored whole.
func TestImport_StreamedInChunks(t *testing.T) {
	cc := fixture(t, "testdata", "claude-code", ccSession+".jsonl")
	root := t.TempDir()
	write(t, filepath.Join(root, "a.jsonl"), cc)
	whole := filepath.Join(t.TempDir(), "state")
	if _, err := importDir(t, whole, root, Options{}); err != nil {
		t.Fatal(err)
	}
	smallChunks(t)
	chunked := filepath.Join(t.TempDir(), "state")
	res, err := importDir(t, chunked, root, Options{})
	if err != nil || res.Imported < 3 || res.Files[0].Turns != res.Imported {
		t.Fatalf("chunked: %+v, %v", res, err)
	}
	if a, b := dumpNodes(t, whole), dumpNodes(t, chunked); a != b {
		t.Fatalf("stored in chunks:\n%s\nwhole:\n%s", b, a)
	}
}

// TestImport_StreamedBadLineLate: a bad line after chunks of the file were
// stored is still the file's problem at its line, and nothing of the
// import is committed: an existing sessions.db keeps what it had.
func TestImport_StreamedBadLineLate(t *testing.T) {
	smallChunks(t)
	state := filepath.Join(t.TempDir(), "state")
	root := t.TempDir()
	write(t, filepath.Join(root, "first.jsonl"), []byte(line("s", "1", "", "stored before")))
	if _, err := importDir(t, state, root, Options{}); err != nil {
		t.Fatal(err)
	}
	before := dumpNodes(t, state)
	cc := fixture(t, "testdata", "claude-code", ccSession+".jsonl")
	lines := bytes.SplitAfter(cc, []byte("\n"))
	n := len(lines) - 2
	broken := append(append(append([][]byte{}, lines[:n]...), []byte(`{"type":"user","uuid":`+"\n")), lines[n:]...)
	bad := write(t, filepath.Join(t.TempDir(), "b.jsonl"), bytes.Join(broken, nil))
	in, err := List(bad, transcript.FormatClaudeCode)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(context.Background(), state, in, Options{})
	e := errcode.As(err)
	if e == nil || len(e.Violations) != 1 || e.Violations[0].Line != n+1 || e.Violations[0].Path != bad {
		t.Fatalf("error %#v", err)
	}
	if after := dumpNodes(t, state); after != before {
		t.Fatalf("a refused import changed sessions.db:\n%s\nwas\n%s", after, before)
	}
}

// dumpNodes is every node of the state dir's sessions.db, one a line.
func dumpNodes(t *testing.T, state string) string {
	t.Helper()
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b bytes.Buffer
	all, err := st.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		branches, err := st.Branches(s.Key())
		if err != nil {
			t.Fatal(err)
		}
		for _, br := range branches {
			turns, err := st.PendingTurns(br.Tip, "dump")
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range turns {
				b.WriteString(n.Provider + "/" + n.Session + "/" + n.ID + " <- " + n.Parent + " " + n.Role + ": " + n.Content + "\n")
			}
		}
	}
	return b.String()
}

// TestImport_ChatGPTStreamed: a ChatGPT export is stored a chunk of
// conversations at a time, the same rows as in one chunk, and a bad
// conversation after chunks were stored is the file's problem: nothing
// is committed.
func TestImport_ChatGPTStreamed(t *testing.T) {
	export := fixture(t, "transcript", "chatgpt", "testdata", "conversations.json")
	root := t.TempDir()
	write(t, filepath.Join(root, "conversations.json"), export)
	whole := filepath.Join(t.TempDir(), "state")
	if _, err := importDir(t, whole, root, Options{}); err != nil {
		t.Fatal(err)
	}
	smallChunks(t)
	chunked := filepath.Join(t.TempDir(), "state")
	res, err := importDir(t, chunked, root, Options{})
	if err != nil || res.Imported < 3 || res.Files[0].Turns != res.Imported {
		t.Fatalf("chunked: %+v, %v", res, err)
	}
	if a, b := dumpStore(t, workspace.SessionsDB(whole)), dumpStore(t, workspace.SessionsDB(chunked)); a != b {
		t.Fatalf("stored in chunks:\n%s\nwhole:\n%s", b, a)
	}

	// The same export with a bad conversation last, into a sessions.db
	// that holds something else: its first conversations are stored in
	// chunks before the parser reaches the bad one.
	state, before := stateHoldingOther(t)
	cut := bytes.LastIndexByte(export, ']')
	bad := append(append(append([]byte{}, export[:cut]...), `,{"id":"late","mapping":{"a":{"parent":"nowhere"}}}`...), export[cut:]...)
	other := write(t, filepath.Join(t.TempDir(), "conversations.json"), bad)
	in, err := List(other, "")
	if err != nil {
		t.Fatal(err)
	}
	var seen recorder
	_, err = Import(context.Background(), state, in, Options{Progress: &seen})
	if e := errcode.As(err); e == nil || len(e.Violations) != 1 || !strings.Contains(e.Violations[0].Message, "late") {
		t.Fatalf("error %#v", err)
	}
	if seen.read < int64(len(bad)) {
		t.Errorf("read %d of %d bytes", seen.read, len(bad))
	}
	if after := dumpStore(t, workspace.SessionsDB(state)); after != before {
		t.Fatalf("a refused import changed sessions.db")
	}
}
