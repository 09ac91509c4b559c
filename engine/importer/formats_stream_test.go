package importer

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// wholeRow makes the import parse the format's files whole, as it did
// before they were streamed, for a test's baseline, until restore.
func wholeRow(t *testing.T, name transcript.Format) (restore func()) {
	t.Helper()
	for i, row := range formatRows {
		if row.name == name {
			if row.stream == nil {
				t.Fatalf("the %s row does not stream", name)
			}
			formatRows[i].stream, formatRows[i].streamFiles = nil, nil
			return func() { formatRows[i] = row }
		}
	}
	t.Fatalf("no %s row", name)
	return nil
}

// importBothWays imports the folder root twice: with the format read
// whole (readWhole sets that up and returns its undo) and streamed, stored
// a turn at a time. sessions.db must be the same, every row and column, as
// must the counts, skips, chats and warnings. It returns the streamed
// import's result and state dir, and the whole one's result.
func importBothWays(t *testing.T, root string, opts Options, readWhole func(*testing.T) func()) (res, wantRes Result, chunked string) {
	t.Helper()
	whole := filepath.Join(t.TempDir(), "state")
	restore := readWhole(t)
	wantRes, err := importDir(t, whole, root, opts)
	restore()
	if err != nil {
		t.Fatal(err)
	}
	smallChunks(t)
	chunked = filepath.Join(t.TempDir(), "state")
	if res, err = importDir(t, chunked, root, opts); err != nil {
		t.Fatalf("chunked: %v", err)
	}
	if a, b := dumpStore(t, workspace.SessionsDB(whole)), dumpStore(t, workspace.SessionsDB(chunked)); a != b {
		t.Fatalf("stored a turn at a time:\n%s\nwhole:\n%s", b, a)
	}
	if res.Imported != wantRes.Imported || !reflect.DeepEqual(res.Skipped, wantRes.Skipped) {
		t.Fatalf("chunked %d turns, skips %v; whole %d, %v", res.Imported, res.Skipped, wantRes.Imported, wantRes.Skipped)
	}
	// The chats, their senders and tiers, and the warnings are counted
	// across chunks as over the whole file.
	if !reflect.DeepEqual(res.Chats, wantRes.Chats) || !reflect.DeepEqual(res.Warnings, wantRes.Warnings) {
		t.Errorf("chunked chats %+v, warnings %+v;\nwhole %+v, %+v", res.Chats, res.Warnings, wantRes.Chats, wantRes.Warnings)
	}
	return res, wantRes, chunked
}

// stateHoldingOther is a state dir whose sessions.db holds one other
// session, and its dump: a refused import must leave it as it was.
func stateHoldingOther(t *testing.T) (state, before string) {
	t.Helper()
	state = filepath.Join(t.TempDir(), "state")
	first := t.TempDir()
	write(t, filepath.Join(first, "first.jsonl"), []byte(line("s", "1", "", "stored before")))
	if _, err := importDir(t, state, first, Options{}); err != nil {
		t.Fatal(err)
	}
	return state, dumpStore(t, workspace.SessionsDB(state))
}

// checkStreamed imports the files (path under a folder → bytes) parsed
// whole and then stored a turn at a time: the same sessions.db, every row
// and column, the same counts, skips, chats and warnings; a re-import
// stores nothing and changes nothing. Then bad, a file of the format
// with a fault late in it, is refused as the file's problem (its message
// holding wantMsg) and an existing sessions.db is unchanged; late says
// the parser finds the fault only after it emitted chunks (a format that
// holds its turns to the end finds it before).
func checkStreamed(t *testing.T, format transcript.Format, files map[string][]byte, bad string, badData []byte, wantMsg string, late bool) {
	t.Helper()
	root := t.TempDir()
	for p, data := range files {
		write(t, filepath.Join(root, p), data)
	}
	opts := Options{Format: format}
	res, wantRes, chunked := importBothWays(t, root, opts, func(t *testing.T) func() { return wholeRow(t, format) })
	if res.Imported < 5 || len(res.Files) != len(files) {
		t.Fatalf("chunked: %+v", res)
	}
	for i := range res.Files {
		if a, b := res.Files[i], wantRes.Files[i]; a.Path != b.Path || a.Turns != b.Turns || !reflect.DeepEqual(a.Sessions, b.Sessions) {
			t.Errorf("chunked file %+v, whole %+v", a, b)
		}
	}

	before := dumpStore(t, workspace.SessionsDB(chunked))
	again, err := importDir(t, chunked, root, opts)
	if err != nil || again.Imported != 0 || again.Skipped[SkipDuplicate] != res.Imported {
		t.Fatalf("re-import: %d imported, skipped %v, %v", again.Imported, again.Skipped, err)
	}
	if after := dumpStore(t, workspace.SessionsDB(chunked)); after != before {
		t.Fatal("a re-import changed sessions.db")
	}

	// The bad file, into a sessions.db that holds something else.
	state, before := stateHoldingOther(t)
	calls := 0
	restoreEmit := countChunks(t, format, &calls)
	in, err := List(write(t, filepath.Join(t.TempDir(), bad), badData), format)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(context.Background(), state, in, opts)
	restoreEmit()
	if e := errcode.As(err); e == nil || len(e.Violations) != 1 || !strings.Contains(e.Violations[0].Message, wantMsg) {
		t.Fatalf("error %#v", err)
	}
	if late != (calls > 0) {
		t.Errorf("the bad file failed after %d chunks", calls)
	}
	if after := dumpStore(t, workspace.SessionsDB(state)); after != before {
		t.Fatal("a refused import changed sessions.db")
	}
}

// countChunks counts the chunks the format's row emits, until restore.
func countChunks(t *testing.T, name transcript.Format, calls *int) (restore func()) {
	t.Helper()
	for i, row := range formatRows {
		if row.name == name {
			formatRows[i].stream = func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
				return row.stream(r, o, func(turns []transcript.Turn) error {
					*calls++
					return emit(turns)
				})
			}
			return func() { formatRows[i] = row }
		}
	}
	t.Fatalf("no %s row", name)
	return nil
}

// TestImport_WhatsAppStreamed: WhatsApp exports stored a turn at a time
// are stored as when parsed whole; a date that cannot exist on the last
// line is found after chunks were stored, and nothing is committed.
func TestImport_WhatsAppStreamed(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"android-en-us", "android-fr", "android-sv-ymd", "hostile", "ios-de", "ios-en-1to1"} {
		files["WhatsApp Chat with "+name+".txt"] = fixture(t, "transcript", "whatsapp", "testdata", name+".txt")
	}
	bad := append(fixture(t, "transcript", "whatsapp", "testdata", "android-en-us.txt"), "2/30/24, 9:15 PM - Ana: no such day\n"...)
	checkStreamed(t, transcript.FormatWhatsApp, files, "WhatsApp Chat with Late.txt", bad, "not a date", true)
}

// TestImport_CodexStreamed: Codex rollouts stored a turn at a time are
// stored as when parsed whole; a bad line before the last is refused
// before any chunk is stored (the turns are held to the file's end).
func TestImport_CodexStreamed(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"fork", "legacy", "odd", "session", "subagent-review"} {
		files["rollout-"+name+".jsonl"] = fixture(t, "transcript", "codex", "testdata", name+".jsonl")
	}
	bad := fixture(t, "transcript", "codex", "testdata", "session.jsonl")
	lines := bytes.SplitAfter(bad, []byte("\n"))
	n := len(lines) - 2
	bad = bytes.Join(append(append(append([][]byte{}, lines[:n]...), []byte("{\"type\":\n")), lines[n:]...), nil)
	checkStreamed(t, transcript.FormatCodex, files, "rollout-bad.jsonl", bad, "invalid JSON", false)
}

// TestImport_GeminiStreamed: Gemini sessions, both forms, stored a turn
// at a time are stored as when parsed whole.
func TestImport_GeminiStreamed(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"legacy.json", "odd.jsonl", "session.jsonl", "subagent.jsonl"} {
		files["chats/session-"+name] = fixture(t, "transcript", "gemini", "testdata", name)
	}
	bad := fixture(t, "transcript", "gemini", "testdata", "session.jsonl")
	lines := bytes.SplitAfter(bad, []byte("\n"))
	n := len(lines) - 2
	bad = bytes.Join(append(append(append([][]byte{}, lines[:n]...), []byte("{\"id\":\n")), lines[n:]...), nil)
	checkStreamed(t, transcript.FormatGemini, files, "session-bad.jsonl", bad, "invalid JSON", false)
}
