package engine_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/treetest"
)

// The helpers in this file serve search_test.go: the fixture cases under
// ../testdata/search-engine/<case>/ (a state dir and queries.json, see the
// README there) and checks shared by every search result.

// seCase is one queries.json.
type seCase struct {
	// Never lists "path#anchor" of documents no query may return.
	Never   []string  `json:"never"`
	Queries []seQuery `json:"queries"`
}

// seQuery is one fixture query and what it expects.
type seQuery struct {
	Name       string `json:"name"`
	Text       string `json:"text"`
	TextRepeat *struct {
		Unit  string `json:"unit"`
		Runes int    `json:"runes"`
	} `json:"text_repeat"`
	Speaker string `json:"speaker"`
	Path    string `json:"path"`
	Since   string `json:"since"`
	Until   string `json:"until"`
	Sort    string `json:"sort"`
	Limit   int    `json:"limit"`
	Method  string `json:"method"`

	Error     string              `json:"error"`
	Want      []string            `json:"want"`
	Ordered   bool                `json:"ordered"`
	WantTop   []string            `json:"want_top"`
	WantCount *int                `json:"want_count"`
	Expect    map[string]seExpect `json:"expect"`
}

// seExpect holds the fields one result must have; nil fields are not
// checked.
type seExpect struct {
	Kind            *string `json:"kind"`
	Path            *string `json:"path"`
	Time            *string `json:"time"`
	SpeakerID       *string `json:"speaker_id"`
	SpeakerDisplay  *string `json:"speaker_display"`
	SpeakerLabel    *string `json:"speaker_label"`
	SpeakerTrusted  *bool   `json:"speaker_trusted"`
	SnippetComplete *bool   `json:"snippet_complete"`
}

// text returns the query text, expanding text_repeat.
func (q seQuery) text() string {
	if q.TextRepeat == nil {
		return q.Text
	}
	var b strings.Builder
	for b.Len() == 0 || len([]rune(b.String())) < q.TextRepeat.Runes {
		b.WriteString(q.TextRepeat.Unit)
	}
	return string([]rune(b.String())[:q.TextRepeat.Runes])
}

// query converts the fixture query for the engine.
func (q seQuery) query() result.SearchQuery {
	return result.SearchQuery{Text: q.text(), Speaker: q.Speaker, Path: q.Path, Since: q.Since, Until: q.Until,
		Sort: q.Sort, Limit: q.Limit, Method: q.Method}
}

// seCases lists the fixture case names.
func seCases(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("..", "testdata", "search-engine", "*", "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		out = append(out, filepath.Base(filepath.Dir(d)))
	}
	if len(out) == 0 {
		t.Fatal("no search-engine fixture cases")
	}
	return out
}

// seLoad reads a case's queries.json.
func seLoad(t *testing.T, name string) seCase {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "search-engine", name, "queries.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c seCase
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		t.Fatalf("%s/queries.json: %v", name, err)
	}
	if len(c.Queries) == 0 {
		t.Fatalf("%s/queries.json has no queries", name)
	}
	return c
}

// seState copies a case's state dir into a temp dir: opening a workspace
// creates .scriptorium/, and testdata must stay untouched.
func seState(t *testing.T, name string) string {
	t.Helper()
	src := filepath.Join("..", "testdata", "search-engine", name, "state")
	dst := filepath.Join(t.TempDir(), "state")
	if err := treetest.CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

// seCheck checks the results of one fixture query against what it expects
// and against the case's never list. It reports through t.Errorf.
func seCheck(t *testing.T, c seCase, q seQuery, res []result.SearchResult, err error) {
	t.Helper()
	if q.Error == "" && q.Want == nil && q.WantTop == nil && q.WantCount == nil && q.Expect == nil {
		t.Fatal("the query expects nothing")
	}
	if got := string(ftCode(err)); got != q.Error {
		t.Fatalf("error = %q (%v), want %q", got, err, q.Error)
	}
	if q.Error != "" {
		if res != nil {
			t.Errorf("an error came with results: %v", seRefs(res))
		}
		return
	}
	refs := seRefs(res)
	if q.Want != nil {
		got, want := slices.Clone(refs), slices.Clone(q.Want)
		if !q.Ordered {
			slices.Sort(got)
			slices.Sort(want)
		}
		if !slices.Equal(got, want) {
			t.Errorf("refs = %q, want %q", refs, q.Want)
		}
	}
	if q.WantTop != nil {
		if len(refs) < len(q.WantTop) {
			t.Errorf("refs = %q, want at least %q first", refs, q.WantTop)
		} else {
			got, want := slices.Clone(refs[:len(q.WantTop)]), slices.Clone(q.WantTop)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("first refs = %q, want %q (in any order)", refs[:len(q.WantTop)], q.WantTop)
			}
		}
	}
	if q.WantCount != nil && len(refs) != *q.WantCount {
		t.Errorf("%d results %q, want %d", len(refs), refs, *q.WantCount)
	}
	seen := map[string]bool{}
	for _, r := range res {
		key := r.Path + "#" + r.Anchor
		if seen[key] {
			t.Errorf("%s returned twice", key)
		}
		seen[key] = true
		if slices.Contains(c.Never, key) {
			t.Errorf("returned %s, which no query may return", key)
		}
		seShape(t, r)
	}
	for ref, x := range q.Expect {
		i := slices.Index(refs, ref)
		if i < 0 {
			t.Errorf("expected fields of %s, which is not among the results %q", ref, refs)
			continue
		}
		r := res[i]
		str := func(name string, want *string, got *string) {
			switch {
			case want == nil:
			case got == nil:
				t.Errorf("%s: %s missing, want %q", ref, name, *want)
			case *got != *want:
				t.Errorf("%s: %s = %q, want %q", ref, name, *got, *want)
			}
		}
		str("kind", x.Kind, &r.Kind)
		str("path", x.Path, &r.Path)
		str("time", x.Time, &r.Time)
		str("speaker_id", x.SpeakerID, r.SpeakerID)
		str("speaker_display", x.SpeakerDisplay, r.SpeakerDisplay)
		str("speaker_label", x.SpeakerLabel, r.SpeakerLabel)
		if x.SpeakerTrusted != nil && (r.SpeakerTrusted == nil || *r.SpeakerTrusted != *x.SpeakerTrusted) {
			t.Errorf("%s: speaker_trusted = %v, want %v", ref, seBool(r.SpeakerTrusted), *x.SpeakerTrusted)
		}
		if x.SnippetComplete != nil && r.SnippetComplete != *x.SnippetComplete {
			t.Errorf("%s: snippet_complete = %v, want %v", ref, r.SnippetComplete, *x.SnippetComplete)
		}
	}
}

func seBool(b *bool) string {
	if b == nil {
		return "<missing>"
	}
	if *b {
		return "true"
	}
	return "false"
}

var (
	seBlockID = regexp.MustCompile(`^[0-9a-f]{8}$`)
	seTime    = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
)

// seShape checks the SPEC §10 invariants every result must hold: the kind,
// anchor and ref agree, times are RFC 3339 UTC to the second, speaker
// fields are present exactly for sources, and the snippet is a piece of the
// document that says whether it is all of it.
func seShape(t *testing.T, r result.SearchResult) {
	t.Helper()
	switch r.Kind {
	case "topic":
		if !seBlockID.MatchString(r.Ref) || r.Anchor != "^"+r.Ref {
			t.Errorf("topic result ref %q anchor %q: want 8 hex digits and ^<ref>", r.Ref, r.Anchor)
		}
		if !strings.HasPrefix(r.Path, "topics/") {
			t.Errorf("topic result path %q", r.Path)
		}
		if r.SpeakerID != nil || r.SpeakerDisplay != nil || r.SpeakerLabel != nil || r.SpeakerTrusted != nil {
			t.Errorf("topic result %s carries speaker fields", r.Ref)
		}
	case "source":
		sum := sha256.Sum256([]byte(r.Ref))
		if want := "source-" + hex.EncodeToString(sum[:4]); r.Anchor != want {
			t.Errorf("source %s: anchor %q, want %q", r.Ref, r.Anchor, want)
		}
		if !strings.HasPrefix(r.Path, "sources/") {
			t.Errorf("source result path %q", r.Path)
		}
		if r.SpeakerID == nil || r.SpeakerDisplay == nil || r.SpeakerLabel == nil || r.SpeakerTrusted == nil {
			t.Errorf("source %s lacks a speaker field", r.Ref)
		} else if *r.SpeakerLabel == "" && *r.SpeakerTrusted {
			t.Errorf("source %s: a trusted speaker with no label", r.Ref)
		}
	default:
		t.Errorf("result kind %q", r.Kind)
	}
	if r.Time != "" && !seTime.MatchString(r.Time) {
		t.Errorf("%s: time %q is not RFC 3339 UTC to the second", r.Ref, r.Time)
	}
	if r.Snippet == "" {
		t.Errorf("%s: empty snippet", r.Ref)
	}
	if r.Score <= 0 {
		t.Errorf("%s: score %v", r.Ref, r.Score)
	}
}

// seRefs returns the refs of results in order.
func seRefs(res []result.SearchResult) []string {
	out := make([]string, 0, len(res))
	for _, r := range res {
		out = append(out, r.Ref)
	}
	return out
}

// seSearch runs a search and fails the test on an error.
func seSearch(t *testing.T, e *engine.Engine, q result.SearchQuery) []result.SearchResult {
	t.Helper()
	res, err := e.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	return res
}

// seFind returns the refs a plain search for text gives, sorted.
func seFind(t *testing.T, e *engine.Engine, text string) []string {
	t.Helper()
	refs := seRefs(seSearch(t, e, result.SearchQuery{Text: text, Limit: 100}))
	slices.Sort(refs)
	return refs
}

// seIndex reads the index part of status, which never changes the index.
func seIndex(t *testing.T, e *engine.Engine) result.IndexState {
	t.Helper()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Index
}

// seIndexDir is the engine's index directory for a state dir.
func seIndexDir(state string) string {
	return filepath.Join(state, "memory", ".scriptorium", "index")
}

// seBleveIno returns the inode of the live bleve directory inside the
// index. A rebuild builds a new directory beside the old one and renames it
// into place, so the inode changes; an incremental update keeps it.
func seBleveIno(t *testing.T, state string) uint64 {
	t.Helper()
	fi, err := os.Stat(filepath.Join(seIndexDir(state), "bleve"))
	if err != nil {
		t.Fatalf("index: %v", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		t.Skip("no inode numbers on this platform")
	}
	return st.Ino
}

// seHandEdit rewrites a workspace file behind the engine's back and moves
// its modification time, as an editor would.
func seHandEdit(t *testing.T, state, rel string, edit func(string) string) {
	t.Helper()
	p := filepath.Join(state, "memory", filepath.FromSlash(rel))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	next := edit(string(data))
	if next == string(data) {
		t.Fatalf("hand edit of %s changes nothing", rel)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	mt := fi.ModTime().Add(3 * time.Second)
	if err := os.Chtimes(p, mt, mt); err != nil {
		t.Fatal(err)
	}
}

// seFrame is one single-line v2 frame, with its leading blank line.
// speakerID "" leaves the speaker-id marker out (a speakerless record);
// head is "<time> <label>".
func seFrame(id, speakerID, head, content string) string {
	tm, label, _ := strings.Cut(head, " ")
	sp := ""
	if speakerID != "" {
		sp = "<!-- speaker-id:" + speakerID + " -->\n"
	}
	return "\n<a id=\"" + archive.AnchorFor(id) + "\"></a>\n<!-- source-id:" + id + " -->\n" + sp +
		"<!-- record-lines:1 -->\n[" + tm + "] " + label + ": " + content + "\n"
}
