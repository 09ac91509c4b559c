package importer

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

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
	res, _, chunked := importBothWays(t, root, Options{}, func(t *testing.T) func() { return wholeRow(t, transcript.FormatTelegram) })
	if res.Imported < 50 || len(res.Files) != 5 {
		t.Fatalf("chunked: %+v", res)
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
	state, before := stateHoldingOther(t)
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
