package importer

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/scale"
	"scriptorium/transcript"
)

// resumeOnce is one hook event's import of path.
func resumeOnce(t *testing.T, state, path string, rz Resume) File {
	t.Helper()
	res, err := Import(context.Background(), state, Paths(path), Options{Format: transcript.FormatClaudeCode, Resume: &rz})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 {
		t.Fatalf("files %+v", res.Files)
	}
	return res.Files[0]
}

// TestImport_ResumeAcrossEvents (issue 24 §5): a transcript that grows
// between hook events, cut anywhere (mid-line too), and larger than one
// event's bound is imported event after event from the stored offset,
// then finished by the daemon's round: the same turns and parents as one
// whole import, none stored twice, none lost, and no event reads much
// past its bound.
func TestImport_ResumeAcrossEvents(t *testing.T) {
	var whole bytes.Buffer
	if _, _, err := scale.ClaudeCodeTranscript(&whole, 400<<10, 7); err != nil {
		t.Fatal(err)
	}
	data := whole.Bytes()
	ref := filepath.Join(t.TempDir(), "ref")
	refFile := write(t, filepath.Join(t.TempDir(), "whole.jsonl"), data)
	want, err := Import(context.Background(), ref, Paths(refFile), Options{Format: transcript.FormatClaudeCode})
	if err != nil {
		t.Fatal(err)
	}

	smallChunks(t)
	state := filepath.Join(t.TempDir(), "state")
	path := filepath.Join(t.TempDir(), "session.jsonl")
	const bound = 16 << 10
	got, events, left := 0, 0, int64(0)
	for cut := 0; cut < len(data); cut += 37_001 { // grows by a prime: cuts land mid-line
		write(t, path, data[:cut])
		f := resumeOnce(t, state, path, Resume{MaxBytes: bound})
		events++
		got += f.Turns
		if f.From > int64(cut) {
			t.Fatalf("event %d started at %d of a %d-byte file", events, f.From, cut)
		}
		if read := int64(cut) - f.From - f.Left; read > bound+64<<10 {
			t.Fatalf("event %d read %d bytes past its bound %d", events, read, bound)
		}
		left = f.Left
	}
	write(t, path, data)
	if left == 0 {
		t.Fatal("the test never left work for the daemon: raise the file size or lower the bound")
	}
	unfinished, err := Unfinished(context.Background(), state)
	if err != nil || len(unfinished) != 1 {
		t.Fatalf("unfinished %v, %v", unfinished, err)
	}
	results, err := FinishUnfinished(context.Background(), state)
	if err != nil || len(results) != 1 || results[0].Err != nil {
		t.Fatalf("daemon round: %+v, %v", results, err)
	}
	got += results[0].Result.Files[0].Turns
	if results[0].Result.Files[0].Left != 0 {
		t.Fatalf("the daemon left %d bytes", results[0].Result.Files[0].Left)
	}
	if n, _ := Unfinished(context.Background(), state); len(n) != 0 {
		t.Fatalf("still unfinished: %v", n)
	}
	if a, b := dumpNodes(t, ref), dumpNodes(t, state); a != b {
		t.Fatalf("resumed imports stored\n%.2000s\nwant\n%.2000s", b, a)
	}
	if got != want.Imported {
		t.Fatalf("the events parsed %d turns in all, want %d (a turn read twice or lost)", got, want.Imported)
	}
	// Nothing new: the next event reads nothing and stores nothing.
	f := resumeOnce(t, state, path, Resume{MaxBytes: bound})
	if f.Turns != 0 || f.From != int64(len(data)) || f.Left != 0 {
		t.Fatalf("an event with nothing new: %+v", f)
	}
	t.Logf("%d hook events and one daemon round for %d bytes, %d turns", events, len(data), got)
}

// TestImport_ResumeReplacedFile: a transcript replaced under the same
// path (other first bytes, or shorter than the stored offset) is read
// from its start.
func TestImport_ResumeReplacedFile(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	path := filepath.Join(t.TempDir(), "s.jsonl")
	var a, b bytes.Buffer
	if _, _, err := scale.ClaudeCodeTranscript(&a, 20<<10, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := scale.ClaudeCodeTranscript(&b, 40<<10, 2); err != nil {
		t.Fatal(err)
	}
	write(t, path, a.Bytes())
	if f := resumeOnce(t, state, path, Resume{}); f.From != 0 || f.Turns == 0 {
		t.Fatalf("first: %+v", f)
	}
	write(t, path, b.Bytes())
	if f := resumeOnce(t, state, path, Resume{}); f.From != 0 || f.Turns == 0 || f.Left != 0 {
		t.Fatalf("replaced by a longer file: %+v", f)
	}
	write(t, path, a.Bytes()[:len(a.Bytes())/2])
	if f := resumeOnce(t, state, path, Resume{}); f.From != 0 {
		t.Fatalf("replaced by a shorter file: %+v", f)
	}
}

// TestImport_ResumeUntil: an import past its time stops at the next line
// end and stores where it stopped.
func TestImport_ResumeUntil(t *testing.T) {
	var buf bytes.Buffer
	if _, _, err := scale.ClaudeCodeTranscript(&buf, 50<<10, 3); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state")
	path := write(t, filepath.Join(t.TempDir(), "s.jsonl"), buf.Bytes())
	past := time.Unix(0, 0)
	f := resumeOnce(t, state, path, Resume{Until: past.Add(time.Second), Now: func() time.Time { return past.Add(2 * time.Second) }})
	if f.Left == 0 || f.From != 0 {
		t.Fatalf("an import out of time read everything: %+v", f)
	}
	fi, _ := os.Stat(path)
	if g := resumeOnce(t, state, path, Resume{}); g.From != fi.Size()-f.Left || g.Left != 0 {
		t.Fatalf("the next import: %+v after %+v", g, f)
	}
}
