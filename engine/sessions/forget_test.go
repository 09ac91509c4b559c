package sessions

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const canary = "zqx-canary-7731"

// forgetFixture imports two sessions: s1 with a group speaker u456 saying
// the canary, and s2 of another speaker.
func forgetFixture(t *testing.T) *Store {
	t.Helper()
	s := mustOpen(t)
	mustImport(t, s, jsonl(
		turn{ID: "a", Role: "user", Content: "hello", SpeakerID: "u1", SpeakerDisplay: "Ann"},
		turn{ID: "b", Parent: "a", Role: "user", Content: "my secret " + canary, SpeakerID: "u456", SpeakerDisplay: "Bob", Group: true, Tier: "unpaired"},
		turn{ID: "c", Parent: "b", Role: "assistant", Content: "noted"},
		turn{Session: "s2", ID: "a", Role: "user", Content: "other " + canary, SpeakerID: "u456", SpeakerDisplay: "Bob"},
		turn{Session: "s3", ID: "x", Role: "user", Content: "unrelated", SpeakerID: "u2"},
	))
	return s
}

func TestForget_Selectors(t *testing.T) {
	tests := []struct {
		name string
		sel  Selector
		want []string // node keys forgotten
	}{
		{"source", Selector{SourceIDs: []string{"openprogram/s1/b"}}, []string{"s1/b"}},
		{"speaker", Selector{SpeakerID: "u456"}, []string{"s1/b", "s2/a"}},
		{"thread", Selector{Thread: "openprogram/s1"}, []string{"s1/a", "s1/b", "s1/c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := forgetFixture(t)
			nodes, err := s.Forgettable(tt.sel)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range nodes {
				got = append(got, n.Session+"/"+n.ID)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("Forgettable = %v, want %v", got, tt.want)
			}
			n, err := s.Forget(tt.sel, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
			if err != nil || n != len(tt.want) {
				t.Fatalf("Forget = %d, %v", n, err)
			}
			for _, id := range tt.want {
				sess, nid, _ := strings.Cut(id, "/")
				node, err := s.Node(Key{Provider: DefaultProvider, Session: sess, ID: nid})
				if err != nil {
					t.Fatal(err)
				}
				if node.Content != "" || node.SpeakerDisplay != "" || !node.Forgotten() || node.IsTurn() {
					t.Errorf("%s not blanked: %+v", id, node)
				}
			}
			if again, _ := s.Forgettable(tt.sel); len(again) != 0 {
				t.Errorf("still forgettable after Forget: %v", ids(again))
			}
			other, err := s.Node(Key{Provider: DefaultProvider, Session: "s3", ID: "x"})
			if err != nil || other.Content != "unrelated" || other.Forgotten() {
				t.Errorf("another session changed: %+v %v", other, err)
			}
		})
	}
}

func TestForget_KeepsWrittenMarkerAndReimportAddsNothing(t *testing.T) {
	s := forgetFixture(t)
	if err := s.MarkWritten([]Key{k("a"), k("b")}, "ws1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Forget(Selector{SourceIDs: []string{"openprogram/s1/b"}}, time.Now()); err != nil {
		t.Fatal(err)
	}
	b, err := s.Node(k("b"))
	if err != nil || b.Written != "ws1" {
		t.Fatalf("the written marker is gone: %+v %v", b, err)
	}
	// The hook imports the same transcript again: the forgotten node is
	// skipped, not a conflicting line, and its text stays gone.
	res, err := s.Import(strings.NewReader(jsonl(
		turn{ID: "b", Parent: "a", Role: "user", Content: "my secret " + canary, SpeakerID: "u456", SpeakerDisplay: "Bob", Group: true, Tier: "unpaired"},
		turn{ID: "d", Parent: "c", Role: "user", Content: "new"})))
	if err != nil || res.Forgotten != 1 || res.Imported != 1 {
		t.Fatalf("re-import = %+v, %v", res, err)
	}
	if b, _ := s.Node(k("b")); b.Content != "" {
		t.Errorf("re-import brought the text back: %q", b.Content)
	}
}

func TestCompact_LeavesNoForgottenBytes(t *testing.T) {
	s := forgetFixture(t)
	if _, err := s.Forget(Selector{SpeakerID: "u456"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.Compact(); err != nil {
		t.Fatal(err)
	}
	entries, _ := filepath.Glob(s.Path() + "*")
	if len(entries) == 0 {
		t.Fatal("no database files")
	}
	for _, p := range entries {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(canary)) {
			t.Errorf("%s still holds the forgotten text", filepath.Base(p))
		}
	}
	if n, err := s.Node(Key{Provider: DefaultProvider, Session: "s3", ID: "x"}); err != nil || n.Content != "unrelated" {
		t.Errorf("compact lost other content: %+v %v", n, err)
	}
}

func TestSelector_ExactlyOne(t *testing.T) {
	s := mustOpen(t)
	for _, sel := range []Selector{{}, {SpeakerID: "u1", Thread: "p/t"}, {Thread: "no-slash"}, {SourceIDs: []string{"bad"}}} {
		if _, err := s.Forgettable(sel); err == nil {
			t.Errorf("Forgettable(%+v) accepted", sel)
		}
	}
}
