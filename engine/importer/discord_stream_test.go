package importer

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/errcode"
	"scriptorium/scale"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// TestImport_DiscordStreamed: Discord exports, and folders of exports of
// one channel that overlap (the fixture's two, scale's four), stored a
// turn at a time give the same sessions.db, row for row, as the same
// exports parsed whole (a folder merged whole by ParseFiles), and the same
// skips; the progress hears a folder's every byte once, though it is read
// twice; a re-import stores nothing new; an export broken after chunks
// were stored is the file's problem, with its line, and nothing is
// committed.
func TestImport_DiscordStreamed(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"general", "thread", "dm", "odd", "minified"} {
		write(t, filepath.Join(root, name, "export.json"), fixture(t, "transcript", "discord", "testdata", name+".json"))
	}
	var big bytes.Buffer
	if _, _, err := scale.DiscordExport(&big, 256<<10, scale.DiscordSeed); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(root, "big", "general.json"), big.Bytes())
	overlap := filepath.Join("transcript", "discord", "testdata", "overlap")
	for _, name := range []string{"Makers Guild - dev - general [838021943394304002].json",
		"Makers Guild - dev - general [838021943394304002] (after 2024-03-04).json"} {
		write(t, filepath.Join(root, "overlap", name), fixture(t, overlap, name))
	}

	gen := filepath.Join(root, "gen-overlap")
	_, genTurns, err := scale.DiscordOverlap(gen, 512<<10, scale.DiscordOverlapSeed)
	if err != nil {
		t.Fatal(err)
	}

	res, _, chunked := importBothWays(t, root, Options{}, func(t *testing.T) func() { return wholeRow(t, transcript.FormatDiscord) })
	if res.Imported < 200+genTurns || len(res.Files) != 8 || res.Skipped[SkipDuplicate] < genTurns/4 {
		t.Fatalf("chunked: %d imported, %d files, skipped %v", res.Imported, len(res.Files), res.Skipped)
	}
	in, err := List(gen, "")
	if err != nil || len(in.Items) != 1 || len(in.Items[0].Members) != scale.DiscordOverlapFiles {
		t.Fatalf("%+v, %v", in, err)
	}
	var prog recorder
	if _, err := Import(context.Background(), filepath.Join(t.TempDir(), "state"), in, Options{Progress: &prog}); err != nil {
		t.Fatal(err)
	}
	if prog.read != in.Size() || len(prog.files) != 1 || prog.files[0].Turns != genTurns || prog.files[0].Path != gen {
		t.Errorf("progress read %d of %d bytes, files %+v", prog.read, in.Size(), prog.files)
	}

	before := dumpStore(t, workspace.SessionsDB(chunked))
	again, err := importDir(t, chunked, root, Options{})
	// general.json and the overlap folder hold one channel, as dm.json and
	// minified.json do, with different edits: those messages count as
	// changed, not duplicate.
	if err != nil || again.Imported != 0 || again.Skipped[SkipDuplicate]+again.Skipped[SkipChanged] < res.Imported {
		t.Fatalf("re-import: %d imported, skipped %v, %v", again.Imported, again.Skipped, err)
	}
	if after := dumpStore(t, workspace.SessionsDB(chunked)); after != before {
		t.Fatal("a re-import changed sessions.db")
	}

	// The big export with a bad message near its end, into a sessions.db
	// that holds something else: its first chunks are stored before the
	// parser reaches it.
	state, before := stateHoldingOther(t)
	data := big.Bytes()
	cut := bytes.LastIndex(data, []byte(`"timestamp": "`))
	bad := append(append(append([]byte{}, data[:cut]...), `"timestamp": "yesterday`...), data[cut+len(`"timestamp": "2021-03-01T08:03:01.000+00:00`):]...)
	other := write(t, filepath.Join(t.TempDir(), "general.json"), bad)
	in, err = List(other, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(context.Background(), state, in, Options{})
	at := 1 + bytes.Count(data[:bytes.LastIndex(data[:cut], []byte("\n    {"))+1], []byte("\n"))
	if e := errcode.As(err); e == nil || len(e.Violations) != 1 || !strings.Contains(e.Violations[0].Message, `"yesterday"`) ||
		e.Violations[0].Line != at || !strings.HasSuffix(e.Violations[0].Path, "general.json") {
		t.Fatalf("error %#v, want one at line %d", err, at)
	}
	if after := dumpStore(t, workspace.SessionsDB(state)); after != before {
		t.Fatal("a refused import changed sessions.db")
	}
}
