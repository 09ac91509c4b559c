package importer

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// wholeTelegram makes the import parse Telegram exports whole, as it did
// before they were streamed, for the test's baseline, until restore.
func wholeTelegram(t *testing.T) (restore func()) {
	for i, row := range formatRows {
		if row.name == transcript.FormatTelegram {
			if row.stream == nil {
				t.Fatal("the Telegram row does not stream")
			}
			formatRows[i].stream = nil
			return func() { formatRows[i] = row }
		}
	}
	t.Fatal("no Telegram row")
	return nil
}

// TestImport_TelegramStreamed: Telegram exports stored a turn at a time
// give the same sessions.db, byte for byte in every row, as the same
// exports parsed whole (pending group chats, tiers, replies and skips
// included); a re-import stores nothing new; a bad chat after chunks were
// stored is the file's problem, and nothing is committed.
func TestImport_TelegramStreamed(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"account", "forum", "family-group", "hostile", "old-2019"} {
		write(t, filepath.Join(root, name, "result.json"), fixture(t, "transcript", "telegram", "testdata", name+".json"))
	}
	whole := filepath.Join(t.TempDir(), "state")
	restore := wholeTelegram(t)
	wantRes, err := importDir(t, whole, root, Options{})
	restore()
	if err != nil {
		t.Fatal(err)
	}
	smallChunks(t)
	chunked := filepath.Join(t.TempDir(), "state")
	res, err := importDir(t, chunked, root, Options{})
	if err != nil || res.Imported < 50 || len(res.Files) != 5 {
		t.Fatalf("chunked: %+v, %v", res, err)
	}
	if a, b := dumpStore(t, workspace.SessionsDB(whole)), dumpStore(t, workspace.SessionsDB(chunked)); a != b {
		t.Fatalf("stored a turn at a time:\n%s\nwhole:\n%s", b, a)
	}
	if res.Imported != wantRes.Imported || len(res.Chats) != len(wantRes.Chats) || len(res.Skipped) != len(wantRes.Skipped) {
		t.Fatalf("chunked %d turns, %d chats, skips %v; whole %d, %d, %v",
			res.Imported, len(res.Chats), res.Skipped, wantRes.Imported, len(wantRes.Chats), wantRes.Skipped)
	}
	for k, n := range wantRes.Skipped {
		if res.Skipped[k] != n {
			t.Errorf("skipped %s: %d, whole %d", k, res.Skipped[k], n)
		}
	}
	// The chats, their senders and tiers, and the warnings (no owner
	// named) are counted across chunks as over the whole file.
	if !reflect.DeepEqual(res.Chats, wantRes.Chats) || !reflect.DeepEqual(res.Warnings, wantRes.Warnings) {
		t.Errorf("chunked chats %+v, warnings %+v;\nwhole %+v, %+v", res.Chats, res.Warnings, wantRes.Chats, wantRes.Warnings)
	}

	before := dumpStore(t, workspace.SessionsDB(chunked))
	again, err := importDir(t, chunked, root, Options{})
	if err != nil || again.Imported != 0 || again.Skipped[SkipDuplicate] != res.Imported {
		t.Fatalf("re-import: %d imported, skipped %v, %v", again.Imported, again.Skipped, err)
	}
	if after := dumpStore(t, workspace.SessionsDB(chunked)); after != before {
		t.Fatal("a re-import changed sessions.db")
	}

	// The account export with a broken chat last, into a sessions.db that
	// holds something else: its first chats are stored before the parser
	// reaches the broken one.
	state := filepath.Join(t.TempDir(), "state")
	first := t.TempDir()
	write(t, filepath.Join(first, "first.jsonl"), []byte(line("s", "1", "", "stored before")))
	if _, err := importDir(t, state, first, Options{}); err != nil {
		t.Fatal(err)
	}
	before = dumpStore(t, workspace.SessionsDB(state))
	export := fixture(t, "transcript", "telegram", "testdata", "account.json")
	cut := bytes.Index(export, []byte(`"left_chats"`))
	if cut < 0 {
		t.Fatal("no left_chats in the fixture")
	}
	bad := append(append([]byte{}, export[:cut]...), `"left_chats": {"list": [{"name": "Late", "type": "private_group", "id": 77, "messages": [{"id": "x1", "type": "message"}]}]}}`...)
	other := write(t, filepath.Join(t.TempDir(), "result.json"), bad)
	in, err := List(other, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(context.Background(), state, in, Options{})
	if e := errcode.As(err); e == nil || len(e.Violations) != 1 || !strings.Contains(e.Violations[0].Message, "left_chats.list[0]") {
		t.Fatalf("error %#v", err)
	}
	if after := dumpStore(t, workspace.SessionsDB(state)); after != before {
		t.Fatal("a refused import changed sessions.db")
	}
}
