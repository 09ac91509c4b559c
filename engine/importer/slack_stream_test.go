package importer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scriptorium/errcode"
	"scriptorium/scale"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// wholeSlack makes the import read Slack exports whole (every file's bytes
// at once, then ParseFiles), as it did before they were streamed, until
// restore.
func wholeSlack(t *testing.T) (restore func()) {
	t.Helper()
	for i, row := range formatRows {
		if row.name == transcript.FormatSlack {
			if row.streamFiles == nil {
				t.Fatal("the Slack row does not stream")
			}
			formatRows[i].streamFiles = nil
			return func() { formatRows[i] = row }
		}
	}
	t.Fatal("no Slack row")
	return nil
}

// TestImport_SlackStreamed: Slack exports (two fixtures, one of them
// zipped and wrapped in a folder, and a generated one) stored a turn at a
// time, a day file read at a time, give the same sessions.db, row for
// row, as the same exports read whole, and the same counts; a re-import
// stores nothing new; an export with a bad day file late in its order,
// after chunks were stored, is the export's problem, with the file and
// line, and nothing is committed.
func TestImport_SlackStreamed(t *testing.T) {
	td := filepath.Join("..", "..", "transcript", "slack", "testdata")
	root := t.TempDir()
	copyTree(t, filepath.Join(td, "acme"), filepath.Join(root, "acme"))
	zipTree(t, filepath.Join(td, "grid"), filepath.Join(root, "grid.zip"), "export/")
	gen := filepath.Join(root, "gen")
	if _, _, err := scale.SlackExport(gen, 512<<10, scale.SlackSeed); err != nil {
		t.Fatal(err)
	}

	res, wantRes, chunked := importBothWays(t, root, Options{}, wholeSlack)
	if res.Imported < 300 || len(res.Files) != 3 {
		t.Fatalf("chunked: %d imported, %d files", res.Imported, len(res.Files))
	}
	before := dumpStore(t, workspace.SessionsDB(chunked))
	again, err := importDir(t, chunked, root, Options{})
	// The grid fixture repeats two messages: the parser counts those too.
	if err != nil || again.Imported != 0 || again.Skipped[SkipDuplicate] != res.Imported+wantRes.Skipped[SkipDuplicate] {
		t.Fatalf("re-import: %d imported, skipped %v, %v", again.Imported, again.Skipped, err)
	}
	if after := dumpStore(t, workspace.SessionsDB(chunked)); after != before {
		t.Fatal("a re-import changed sessions.db")
	}

	// Progress hears the export's every byte, the files the parser skips
	// unread (attachments) included.
	for _, p := range []string{filepath.Join(root, "acme"), filepath.Join(root, "grid.zip")} {
		in, err := List(p, "")
		if err != nil || len(in.Items) != 1 || in.Size() <= 0 {
			t.Fatalf("%s: %+v, %v", p, in, err)
		}
		var prog recorder
		if _, err := Import(context.Background(), filepath.Join(t.TempDir(), "state"), in, Options{Progress: &prog}); err != nil {
			t.Fatal(err)
		}
		if prog.read != in.Size() || len(prog.files) != 1 || prog.commits != 1 {
			t.Errorf("%s: progress read %d of %d bytes, %d files, %d commits", p, prog.read, in.Size(), len(prog.files), prog.commits)
		}
	}

	// The generated export with its last day file broken, into a
	// sessions.db that holds something else.
	state, before := stateHoldingOther(t)
	broken := filepath.Join(t.TempDir(), "gen")
	copyTree(t, gen, broken)
	// The DMs' folders are read last (conversations in id order).
	days, _ := filepath.Glob(filepath.Join(broken, "D*", "*.json"))
	slices.Sort(days)
	last := days[len(days)-1]
	data, err := os.ReadFile(last)
	if err != nil {
		t.Fatal(err)
	}
	write(t, last, []byte(strings.Replace(string(data), `"ts": "`, `"ts": "x`, 1)))
	in, err := List(broken, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import(context.Background(), state, in, Options{})
	if e := errcode.As(err); e == nil || len(e.Violations) != 1 || !strings.Contains(e.Violations[0].Message, "is not a Slack timestamp") ||
		!strings.HasSuffix(e.Violations[0].Path, filepath.Base(last)) || e.Violations[0].Line < 2 {
		t.Fatalf("error %#v", err)
	}
	if after := dumpStore(t, workspace.SessionsDB(state)); after != before {
		t.Fatal("a refused import changed sessions.db")
	}
}
