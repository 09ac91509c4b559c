package sessions

import (
	"bytes"
	"errors"
	"testing"
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
		n, err := s.Import(bytes.NewReader(data))
		after := rowCount(t, s)
		if err != nil {
			var ie *ImportError
			if !errors.As(err, &ie) || len(ie.Lines) == 0 {
				t.Fatalf("Import error is not a non-empty *ImportError: %v", err)
			}
			if n != 0 || after != before {
				t.Fatalf("rejected file changed the store: n=%d, rows %d -> %d (%v)", n, before, after, err)
			}
			return
		}
		if after != before+n {
			t.Fatalf("Import reported %d new nodes, rows %d -> %d", n, before, after)
		}
		recs, _, bad, perr := parseImport(bytes.NewReader(data))
		if perr != nil || len(bad) != 0 {
			t.Fatalf("accepted file has bad lines: %v %v", perr, bad)
		}
		for _, r := range recs {
			got, err := s.Node(r.node.ID)
			if err != nil {
				t.Fatalf("line %d not stored: %v", r.line, err)
			}
			if f := differingField(got, r.node); f != "" {
				t.Fatalf("line %d stored with a different %s", r.line, f)
			}
		}
		if n2, err := s.Import(bytes.NewReader(data)); n2 != 0 || err != nil {
			t.Fatalf("re-import = %d, %v; want a no-op", n2, err)
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
