package sessions

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"scriptorium/workspace/archive"
)

// FuzzImportJSONL checks that Import never panics and is all or nothing: a
// rejected file changes no row, an accepted file stores every line exactly
// and importing it again is a no-op.
func FuzzImportJSONL(f *testing.F) {
	f.Add([]byte(jsonl(chain("", "a", "b", "c")...)))
	f.Add([]byte(jsonl(turn{ID: "x", Role: "user", Content: "crlf\r\n\u2028", SpeakerID: "u1", Tier: "paired", Group: true})))
	f.Add([]byte("{\"session\":\"s\",\"id\":\"1\",\"role\":\"tool\",\"time\":\"2026-08-10T12:00:00Z\"}\n{bad\n"))
	s := mustOpen(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		before := rowCount(t, s)
		res, err := s.Import(bytes.NewReader(data))
		n := res.Imported
		after := rowCount(t, s)
		if err != nil {
			var ie *ImportError
			if !errors.As(err, &ie) || len(ie.Lines) == 0 {
				t.Fatalf("Import error is not a non-empty *ImportError: %v", err)
			}
			if res != (ImportResult{}) || after != before {
				t.Fatalf("rejected file changed the store: n=%d, rows %d -> %d (%v)", n, before, after, err)
			}
			return
		}
		if after != before+n {
			t.Fatalf("Import reported %d new nodes, rows %d -> %d", n, before, after)
		}
		p, perr := parseImport(bytes.NewReader(data), maxLineBytes)
		if perr != nil || len(p.bad) != 0 {
			t.Fatalf("accepted file has bad lines: %v %v", perr, p.bad)
		}
		if res.Imported+res.Duplicate != len(p.recs) {
			t.Fatalf("Import = %+v for %d lines", res, len(p.recs))
		}
		for _, r := range p.recs {
			got, err := s.Node(r.key())
			if err != nil {
				t.Fatalf("line %d not stored: %v", r.line, err)
			}
			if f := differingField(got, r.node); f != "" {
				t.Fatalf("line %d stored with a different %s", r.line, f)
			}
		}
		if again, err := s.Import(bytes.NewReader(data)); again.Imported != 0 || again.Duplicate != len(p.recs) || err != nil {
			t.Fatalf("re-import = %+v, %v; want a no-op, %d duplicates", again, err, len(p.recs))
		}
		// Everything the store took, the writer can archive.
		for _, r := range p.recs {
			got, _ := s.Node(r.key())
			rec := archive.Record{SourceID: got.SourceID(), Role: got.Role, SpeakerID: got.SpeakerID,
				SpeakerDisplay: got.SpeakerDisplay, Time: got.Time, Content: got.Content}
			if err := rec.Validate(); err != nil {
				t.Fatalf("line %d stored but not archivable: %v", r.line, err)
			}
		}
	})
}

func rowCount(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM nodes`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// FuzzImportBatchSplit checks that a file split in two at a line boundary
// and imported as one ImportBatch of two files is accepted or rejected as
// the whole file is by Import, and stores as much: a batch is one import,
// whatever the files.
func FuzzImportBatchSplit(f *testing.F) {
	f.Add([]byte(jsonl(chain("", "a", "b", "c")...)), uint16(1))
	f.Add([]byte(jsonl(turn{ID: "c", Parent: "b", Role: "user"}, turn{ID: "b", Parent: "a", Role: "user"}, turn{ID: "a", Role: "user"})), uint16(1))
	f.Add([]byte(jsonl(turn{ID: "a", Parent: "b", Role: "user"}, turn{ID: "b", Parent: "a", Role: "user"})), uint16(1))
	f.Add([]byte(jsonl(turn{ID: "a", Role: "user"}, turn{ID: "a", Role: "user"}, turn{ID: "a", Role: "user", Content: "x"})), uint16(2))
	f.Add([]byte(jsonl(turn{Provider: "Slack", ID: "a", Role: "user"}, turn{Provider: "slack", ID: "b", Role: "user"})), uint16(1))
	whole, split := mustOpen(f), mustOpen(f)
	f.Fuzz(func(t *testing.T, data []byte, at uint16) {
		lines := bytes.SplitAfter(data, []byte("\n"))
		k := int(at) % (len(lines) + 1)
		first, second := bytes.Join(lines[:k], nil), bytes.Join(lines[k:], nil)
		if bytes.HasPrefix(second, []byte("\xef\xbb\xbf")) {
			return // a byte order mark is skipped on a file's first line only
		}
		want, werr := whole.Import(bytes.NewReader(data))
		b := split.BeginImport(context.Background())
		defer b.Rollback()
		for _, part := range [][]byte{first, second} {
			if err := b.AddJSONL(bytes.NewReader(part)); err != nil {
				t.Fatalf("AddJSONL: %v", err)
			}
		}
		got, gerr := b.Commit()
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("whole file: %v; split at line %d: %v", werr, k, gerr)
		}
		if werr == nil && (got.Imported != want.Imported || got.Duplicate != want.Duplicate || got.Sessions != want.Sessions) {
			t.Fatalf("whole file stored %+v, split at line %d %+v", want, k, got)
		}
		if rowCount(t, whole) != rowCount(t, split) {
			t.Fatalf("the stores differ: %d and %d nodes", rowCount(t, whole), rowCount(t, split))
		}
	})
}
