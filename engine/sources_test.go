package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/errcode"
	"scriptorium/workspace/archive"
)

// A batch whose provider or thread name equals an existing or co-batched
// one after NFC and case folding, but is spelled differently, is rejected
// whole before anything is touched.
func TestArchiveBatch_RejectsFoldedCollisions(t *testing.T) {
	state := t.TempDir()
	ctx := context.Background()
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	existing := filepath.Join(e.Root(), "sources", "openprogram", "_v2", "Thread-A.md")
	if err := os.MkdirAll(filepath.Dir(existing), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _, err := archive.Append(nil, []archive.Record{rec("openprogram/Thread-A/m1")})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(existing, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		ids  []string
		ok   bool
	}{
		{"same spelling appends", []string{"openprogram/Thread-A/m2"}, true},
		{"case differs from existing thread", []string{"openprogram/thread-a/m2"}, false},
		{"case differs from existing provider", []string{"OpenProgram/other/m1"}, false},
		{"NFC vs NFD in one batch", []string{"telegram/caf\u00e9/m1", "telegram/cafe\u0301/m2"}, false},
		{"one bad record rejects the good ones too", []string{"telegram/new/m1", "openprogram/THREAD-A/m3"}, false},
		{"unsafe segment", []string{"telegram/../m1"}, false},
	}
	for _, c := range cases {
		s, err := e.snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var recs []archive.Record
		for _, id := range c.ids {
			recs = append(recs, rec(id))
		}
		out, _, err := e.archiveBatch(s, recs)
		if c.ok != (err == nil) {
			t.Errorf("%s: err = %v, want ok=%v", c.name, err, c.ok)
			continue
		}
		if err != nil {
			if errcode.As(err).Code != errcode.Rejected || out != nil {
				t.Errorf("%s: %v (out %d files), want REJECTED and nothing to write", c.name, err, len(out))
			}
			continue
		}
		if len(out) != 1 {
			t.Errorf("%s: %d archives to write, want 1", c.name, len(out))
		}
	}
	// archiveBatch only computes bytes; the tree holds just the original.
	entries, _ := os.ReadDir(filepath.Join(e.Root(), "sources"))
	if len(entries) != 1 {
		t.Errorf("sources/ holds %d providers after rejected batches, want 1", len(entries))
	}
}

func rec(id string) archive.Record {
	return archive.Record{SourceID: id, Role: "user", Time: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Content: "x"}
}
