package sleep

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/errcode"
	"scriptorium/workspace/topic"
	"scriptorium/workspace/treetest"

	"golang.org/x/text/cases"

	"scriptorium/engine"
	"scriptorium/engine/audit"
	"scriptorium/engine/config"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/model"
	"scriptorium/engine/result"
	"scriptorium/trust"
)

// Set SCRIPTORIUM_UPDATE_SLEEP=1 to rewrite testdata/sleep/<case>/want/
// from the current output (then read the diff before committing it).
const sleepUpdateEnv = "SCRIPTORIUM_UPDATE_SLEEP"

// sleepExpect is testdata/sleep/<case>/expect.json.
type sleepExpect struct {
	SplitTokens  int               `json:"split_tokens"`
	CoreBudget   int               `json:"core_budget"`
	VerifyBefore *bool             `json:"verify_before"` // default true
	Changed      []string          `json:"changed"`
	Merged       map[string]string `json:"merged"` // dropped id -> kept id
	Kept         []string          `json:"kept"`
	CoreGap      []string          `json:"core_gap"`
}

var sleepTestTime = time.Date(2026, 8, 10, 3, 0, 0, 0, time.UTC)

// sleepOpen copies a fixture workspace into a temporary state directory
// and opens it as the owner.
func sleepOpen(t *testing.T, name string, tier trust.Tier) (*engine.Engine, sleepExpect) {
	t.Helper()
	src := filepath.Join("testdata", "sleep", name)
	var exp sleepExpect
	data, err := os.ReadFile(filepath.Join(src, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatalf("expect.json: %v", err)
	}
	state := t.TempDir()
	sleepCopyTree(t, filepath.Join(src, "memory"), filepath.Join(state, "memory"))
	cfg := config.Default()
	if exp.CoreBudget > 0 {
		cfg.Memory.Core.Budget = exp.CoreBudget
	}
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state, Config: &cfg, Tier: tier, Interactive: true,
		Now: func() time.Time { return sleepTestTime }})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e, exp
}

func sleepCopyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := treetest.CopyTree(from, to); err != nil {
		t.Fatal(err)
	}
}

// sleepTopics reads every file under dir/topics, keyed by slash path
// relative to dir.
func sleepTopics(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join(dir, "topics")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

func sleepSnapshot(t *testing.T, e *engine.Engine) *engine.View {
	t.Helper()
	s, err := e.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fileOf is the parse of topic file p in v.
func fileOf(v *engine.View, p string) *topic.File {
	_, f, _ := v.Topic(p)
	return f
}

func TestSleep_Fixtures(t *testing.T) {
	for _, name := range []string{"merge", "split", "links", "empty"} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			e, exp := sleepOpen(t, name, trust.Owner)
			before, err := e.Verify(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if want := exp.VerifyBefore == nil || *exp.VerifyBefore; before.OK != want {
				t.Fatalf("verify before the pass: ok=%v, want %v: %v", before.OK, want, before.Violations)
			}
			citedBefore := sleepSnapshot(t, e).CitedSources()
			revBefore, _ := e.Revision()

			rep, err := Sleep(ctx, e, SleepOptions{SplitTokens: exp.SplitTokens})
			if err != nil {
				t.Fatalf("sleep: %v", err)
			}

			var changed []string
			for _, c := range rep.Changed {
				changed = append(changed, c.Path)
				if c.Diff == "" {
					t.Errorf("%s: empty diff", c.Path)
				}
			}
			want := slices.Clone(exp.Changed)
			sort.Strings(want)
			if !slices.Equal(changed, want) {
				t.Errorf("changed = %v, want %v", changed, want)
			}
			revAfter, _ := e.Revision()
			switch {
			case len(want) == 0 && (rep.Revision != 0 || revAfter != revBefore):
				t.Errorf("empty pass: revision %d (workspace %d → %d), want 0 and no bump", rep.Revision, revBefore, revAfter)
			case len(want) > 0 && (rep.Revision != revBefore+1 || revAfter != rep.Revision):
				t.Errorf("revision %d (workspace %d → %d), want %d", rep.Revision, revBefore, revAfter, revBefore+1)
			}
			if rep.Model != config.OfflineModelName || rep.Error != "" || rep.Pass == 0 || rep.Time != "2026-08-10T03:00:00Z" {
				t.Errorf("report = %+v", rep)
			}
			if exp.CoreGap != nil && !slices.Equal(rep.CoreGap, exp.CoreGap) {
				t.Errorf("core gap = %v, want %v", rep.CoreGap, exp.CoreGap)
			}

			after, err := e.Verify(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !after.OK {
				t.Errorf("verify after the pass: %v", after.Violations)
			}
			s := sleepSnapshot(t, e)
			citedAfter := s.CitedSources()
			for id := range citedBefore {
				if !citedAfter[id] {
					t.Errorf("source %s was cited before the pass and is not after it", id)
				}
			}
			ids := map[string]string{}
			for _, p := range s.TopicPaths() {
				for _, b := range fileOf(s, p).Blocks() {
					ids[b.BlockID] = p
				}
			}
			for _, id := range exp.Kept {
				if ids[id] == "" {
					t.Errorf("block ^%s is gone", id)
				}
			}
			for dropped, kept := range exp.Merged {
				if p := ids[dropped]; p != "" {
					t.Errorf("duplicate ^%s still in %s", dropped, p)
				}
				if ids[kept] == "" {
					t.Errorf("kept block ^%s is gone", kept)
				}
				for p, text := range sleepTopics(t, e.Root()) {
					if strings.Contains(text, "^"+dropped) {
						t.Errorf("%s still mentions ^%s", p, dropped)
					}
				}
			}

			sleepGolden(t, filepath.Join("testdata", "sleep", name, "want"), e.Root())

			ps := enginetest.Passes(t, e)
			if len(ps) != 1 || ps[0].Pass != rep.Pass || len(ps[0].Changed) != len(rep.Changed) || ps[0].Revision != rep.Revision {
				t.Fatalf("passes = %+v, want the one report %+v", ps, rep)
			}

			// The pass is a fixed point: a second one finds nothing to do.
			again, err := Sleep(ctx, e, SleepOptions{SplitTokens: exp.SplitTokens})
			if err != nil {
				t.Fatalf("second sleep: %v", err)
			}
			if len(again.Changed) != 0 || again.Revision != 0 {
				t.Errorf("second pass changed %v", again.Changed)
			}
			if ps := enginetest.Passes(t, e); len(ps) != 2 || ps[0].Pass != again.Pass {
				t.Errorf("passes are not newest first: %+v", ps)
			}
		})
	}
}

// sleepGolden compares the workspace's topics with want/topics, or
// rewrites want/ when SCRIPTORIUM_UPDATE_SLEEP is set.
func sleepGolden(t *testing.T, wantDir, root string) {
	t.Helper()
	got := sleepTopics(t, root)
	if os.Getenv(sleepUpdateEnv) != "" {
		os.RemoveAll(wantDir)
		for p, text := range got {
			full := filepath.Join(wantDir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	want := sleepTopics(t, wantDir)
	if len(want) == 0 {
		t.Fatalf("no golden files in %s (run with %s=1)", wantDir, sleepUpdateEnv)
	}
	for p, text := range want {
		if got[p] != text {
			t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", p, got[p], text)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("unexpected file %s:\n%s", p, got[p])
		}
	}
}

func TestSleep_ReportJSON(t *testing.T) {
	tests := []struct {
		name, fixture string
		wantChanged   bool
	}{
		{"EmptyPass", "empty", false},
		{"ChangingPass", "merge", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := sleepOpen(t, tt.fixture, trust.Owner)
			rep, err := Sleep(context.Background(), e, SleepOptions{})
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]json.RawMessage
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
			var keys []string
			for k := range doc {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			if want := []string{"changed", "model", "pass", "time", "tokens_in", "tokens_out"}; !slices.Equal(keys, want) {
				t.Errorf("keys = %v, want %v", keys, want)
			}
			if empty := string(doc["changed"]) == "[]"; empty == tt.wantChanged {
				t.Errorf("changed = %s", doc["changed"])
			}
			if string(doc["model"]) != `"offline"` {
				t.Errorf("model = %s", doc["model"])
			}
			if !tt.wantChanged && !strings.Contains(rep.Summary(), "no changes") {
				t.Errorf("summary %q does not say plainly that nothing changed", rep.Summary())
			}
		})
	}
}

func TestSleep_HistoryRow(t *testing.T) {
	e, _ := sleepOpen(t, "merge", trust.Owner)
	rep, err := Sleep(context.Background(), e, SleepOptions{})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := audit.History(context.Background(), e, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) == 0 || hs[0].Kind != "sleep" || hs[0].Revision != rep.Revision || hs[0].Actor != "owner" {
		t.Fatalf("history = %+v, want a sleep row for revision %d first", hs, rep.Revision)
	}
	for _, c := range rep.Changed {
		if hs[0].Diffs[c.Path] != c.Diff {
			t.Errorf("%s: history diff differs from the pass report's", c.Path)
		}
	}
}

func TestSleep_Forbidden(t *testing.T) {
	e, _ := sleepOpen(t, "empty", trust.Paired)
	_, err := Sleep(context.Background(), e, SleepOptions{})
	if errcode.As(err).Code != errcode.Forbidden {
		t.Fatalf("err = %v, want FORBIDDEN", err)
	}
}

// TestSleep_RuleGuards feeds finishPass edits that are valid transactions
// but break a sleep rule, as a buggy organiser would.
func TestSleep_RuleGuards(t *testing.T) {
	craig := "topics/people/craig.md"
	tests := []struct {
		name     string
		path     string
		edit     func(string) string
		redirect map[string]string
		code     string
	}{
		{"CitationLost", "topics/tracker.md", func(s string) string {
			// Drop the near duplicate and both its footnotes: m4 and m5 are
			// cited nowhere else.
			return "# Budget tracker\n\nCraig is not building a budget tracker in Flask, due 2024-04-15.[^e-bbbbbbbbb3] ^88888888\n\n" +
				s[strings.Index(s, "[^e-bbbbbbbbb3]: "):]
		}, map[string]string{"55555555": "11111111"}, "citation_lost"},
		{"BlockLost", craig, func(s string) string {
			// Remove ^77777777 and its footnote (m3 stays cited by
			// [^e-aaaaaaaaa3]) without declaring a merge.
			return strings.TrimRight(s[:strings.Index(s, "Craig's [deadline]")], "\n") + "\n"
		}, map[string]string{}, "block_lost"},
		{"PendingChanged", "topics/group.md", func(s string) string {
			return strings.Replace(s, "Craig likes green tea.", "Craig loves green tea.", 1)
		}, map[string]string{}, "pending_changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e, _ := sleepOpen(t, "merge", trust.Owner)
			orig := sleepTopics(t, e.Root())
			content := tt.edit(orig[tt.path])
			err := e.Locked(ctx, false, func(tx *engine.Tx) error {
				s, err := tx.View(ctx)
				if err != nil {
					t.Fatal(err)
				}
				_, err = (&pass{e: e}).finish(ctx, tx, s, []result.Edit{{Op: "replace", Path: tt.path, Content: &content}}, tt.redirect,
					result.PassReport{Model: config.OfflineModelName})
				return err
			})
			ee := errcode.As(err)
			if ee == nil || ee.Code != errcode.Rejected || len(ee.Violations) == 0 || ee.Violations[0].Code != tt.code {
				t.Fatalf("err = %v, want REJECTED with %s", err, tt.code)
			}
			if got := sleepTopics(t, e.Root()); !mapsEqual(got, orig) {
				t.Error("a rejected pass changed the topics")
			}
			ps := enginetest.Passes(t, e)
			if len(ps) != 1 || !strings.Contains(ps[0].Error, tt.code) || ps[0].Revision != 0 || len(ps[0].Changed) != 0 {
				t.Errorf("recorded pass = %+v", ps)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// sleepFakeModel answers every request with a fixed text or error.
type sleepFakeModel struct {
	answer string
	err    error
	mu     sync.Mutex
	reqs   []model.Request
}

func (m *sleepFakeModel) Name() string { return "fake:reorganiser" }

func (m *sleepFakeModel) Complete(ctx context.Context, req model.Request) (model.Response, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	m.mu.Unlock()
	if m.err != nil {
		return model.Response{}, m.err
	}
	return model.Response{Text: m.answer, TokensIn: 1200, TokensOut: 80, Model: "reorganiser"}, nil
}

func sleepEditsJSON(t *testing.T, edits ...result.Edit) string {
	t.Helper()
	data, err := json.Marshal(map[string]any{"edits": edits})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestSleep_ModelPasses(t *testing.T) {
	str := func(s string) *string { return &s }
	orig, err := os.ReadFile(filepath.Join("testdata", "sleep", "merge", "memory", "topics", "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Replace(string(orig), " and [the due date](people/craig.md#^33333333)", "", 1)
	tests := []struct {
		name     string
		answer   func(t *testing.T) string
		err      error
		wantCode errcode.Code // "" = success
		wantErr  string       // in the recorded report's error text
		changed  []string
	}{
		{name: "Accepted", answer: func(t *testing.T) string {
			return "Here is the pass:\n```json\n" + sleepEditsJSON(t, result.Edit{Op: "replace", Path: "topics/notes.md", Content: str(notes)}) + "\n```\n"
		}, changed: []string{"topics/notes.md"}},
		{name: "NothingToDo", answer: func(*testing.T) string { return `{"edits":[]}` }},
		{name: "LosesCitation", answer: func(t *testing.T) string {
			return sleepEditsJSON(t, result.Edit{Op: "delete", Path: "topics/tracker.md"})
		}, wantCode: errcode.Rejected, wantErr: "citation_lost"},
		{name: "TouchesPending", answer: func(t *testing.T) string {
			return sleepEditsJSON(t, result.Edit{Op: "replace", Path: "topics/group.md", Content: str("# Group\n")})
		}, wantCode: errcode.Rejected, wantErr: "pending_file"},
		{name: "BreaksFormat", answer: func(t *testing.T) string {
			return sleepEditsJSON(t, result.Edit{Op: "create", Path: "topics/new.md", Content: str("# New\n\nA paragraph without an id.\n")})
		}, wantCode: errcode.Rejected, wantErr: "missing_block_id"},
		{name: "OutsideTopics", answer: func(t *testing.T) string {
			return sleepEditsJSON(t, result.Edit{Op: "create", Path: "sources/x.md", Content: str("x\n")})
		}, wantCode: errcode.Rejected, wantErr: "bad_path"},
		{name: "NotJSON", answer: func(*testing.T) string { return "Everything looks fine to me." },
			wantCode: errcode.ModelOutputInvalid, wantErr: "no JSON object"},
		{name: "Unreachable", err: &model.Error{Code: model.CodeUnavailable, Retryable: true, Message: "connection refused"},
			wantCode: errcode.ModelUnavailable, wantErr: "connection refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			e, _ := sleepOpen(t, "merge", trust.Owner)
			orig := sleepTopics(t, e.Root())
			revBefore, _ := e.Revision()
			fake := &sleepFakeModel{err: tt.err}
			if tt.answer != nil {
				fake.answer = tt.answer(t)
			}
			rep, err := Sleep(ctx, e, SleepOptions{Model: fake})
			ps := enginetest.Passes(t, e)
			if len(ps) != 1 {
				t.Fatalf("%d passes recorded, want 1", len(ps))
			}
			if ps[0].Model != "fake:reorganiser" {
				t.Errorf("model = %q", ps[0].Model)
			}
			if len(fake.reqs) != 1 || !strings.Contains(fake.reqs[0].Messages[0].Content, `"path":"topics/people/craig.md"`) ||
				!strings.Contains(fake.reqs[0].Messages[0].Content, `"pending_blocks":["99999999"]`) || fake.reqs[0].System == "" {
				t.Errorf("the model was not shown the topics: %+v", fake.reqs)
			}
			// The pending block's text never reaches the model.
			if len(fake.reqs) == 1 && strings.Contains(fake.reqs[0].Messages[0].Content, "Craig likes green tea.[^e-eeeeeeeee1] ^99999999") {
				t.Error("the model was shown the text of a pending block")
			}
			if tt.wantCode != "" {
				if errcode.As(err).Code != tt.wantCode {
					t.Fatalf("err = %v, want %s", err, tt.wantCode)
				}
				if !strings.Contains(ps[0].Error, tt.wantErr) || ps[0].Revision != 0 || len(ps[0].Changed) != 0 {
					t.Errorf("recorded pass = %+v, want error mentioning %q", ps[0], tt.wantErr)
				}
				if got := sleepTopics(t, e.Root()); !mapsEqual(got, orig) {
					t.Error("a rejected pass changed the topics")
				}
				if rev, _ := e.Revision(); rev != revBefore {
					t.Errorf("revision %d → %d on a rejected pass", revBefore, rev)
				}
				return
			}
			if err != nil {
				t.Fatalf("sleep: %v", err)
			}
			var changed []string
			for _, c := range rep.Changed {
				changed = append(changed, c.Path)
			}
			if !slices.Equal(changed, tt.changed) || ps[0].Error != "" {
				t.Errorf("changed = %v, want %v (report %+v)", changed, tt.changed, ps[0])
			}
			if tt.answer != nil && tt.err == nil && (rep.TokensIn != 1200 || rep.TokensOut != 80) {
				t.Errorf("tokens = %d/%d, want 1200/80", rep.TokensIn, rep.TokensOut)
			}
		})
	}
}

func TestSleep_ModelName(t *testing.T) {
	tests := []struct {
		name, provider, flag string
		wantNil              bool
		wantCode             errcode.Code
	}{
		{"DefaultOffline", "offline", "", true, ""},
		{"ForcedOffline", "openai", "offline", true, ""},
		{"BareNameWithoutProvider", "offline", "gpt-4o", false, errcode.ModelConfig},
		{"ProviderWithoutKey", "offline", "anthropic:claude", false, errcode.ModelConfig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfg config.Config
			cfg.Model.Provider = tt.provider
			cfg.Model.Name = "configured"
			m, err := sleepModel(cfg, func(string) string { return "" }, SleepOptions{ModelName: tt.flag})
			if tt.wantCode != "" {
				if errcode.As(err).Code != tt.wantCode {
					t.Fatalf("err = %v, want %s", err, tt.wantCode)
				}
				return
			}
			if err != nil || (m == nil) != tt.wantNil {
				t.Fatalf("model = %v, err = %v", m, err)
			}
		})
	}
}

func TestNearDuplicate_Cases(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       bool
	}{
		{"OneWordAdded", "Craig is building a budget tracker in Flask, due 2024-04-15.",
			"Craig is building a budget tracker in Flask, due on 2024-04-15.", true},
		{"Negation", "Craig is building a budget tracker in Flask, due 2024-04-15.",
			"Craig is not building a budget tracker in Flask, due 2024-04-15.", false},
		{"OtherDate", "Craig is building a budget tracker in Flask for the household, due 2024-04-15.",
			"Craig is building a budget tracker in Flask for the household, due 2024-04-16.", false},
		{"SwappedRoles", "Alice owes Bob fifty euros for the concert tickets she bought last week.",
			"Bob owes Alice fifty euros for the concert tickets she bought last week.", false},
		{"TooShort", "Craig likes green tea a lot.", "Craig likes green tea lot.", false},
		{"DifferentFacts", "Craig is building a budget tracker in Flask.", "Dana is writing a novel about the sea.", false},
		{"ChineseOneChar", "张三今天下午在公司会议室里讨论了新的预算方案", "张三今天下午在公司会议室讨论了新的预算方案", true},
		{"ChineseNegation", "张三今天下午在公司会议室里讨论了新的预算方案", "张三今天下午没在公司会议室里讨论了新的预算方案", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := sleepCand(t, tt.a, "aaaaaaaa")
			b := sleepCand(t, tt.b, "bbbbbbbb")
			if got := nearDuplicate(a, b); got != tt.want {
				t.Errorf("nearDuplicate = %v, want %v (tokens %v / %v)", got, tt.want, a.seq, b.seq)
			}
		})
	}
}

func sleepCand(t *testing.T, text, id string) *dupCand {
	t.Helper()
	f := &orgFile{path: "topics/x.md"}
	f.setData([]byte(text + " ^" + id + "\n"))
	bs := f.file.Blocks()
	if len(bs) != 1 {
		t.Fatalf("%q does not parse as one block", text)
	}
	return newDupCand(cases.Fold(), "topics/x.md", bs[0])
}

func TestDupKey_ExactIgnoresFormatting(t *testing.T) {
	a := sleepCand(t, "Craig is building a budget tracker in Flask, due 2024-04-15.[^e-aaaaaaaaa1]", "aaaaaaaa")
	b := sleepCand(t, "craig is building a Budget Tracker in Flask — due 2024-04-15![^e-bbbbbbbbb2]", "bbbbbbbb")
	c := sleepCand(t, "Craig is building a budget tracker in [Flask](y.md#^cccccccc), due 2024-04-15.", "dddddddd")
	if a.exact != b.exact {
		t.Errorf("%q != %q", a.exact, b.exact)
	}
	if a.exact == c.exact {
		t.Error("a block with a link compares equal to one without")
	}
}

func TestReplaceTargets_Cases(t *testing.T) {
	subs := map[string]string{"a.md#^11111111": "../b/a.md#^11111111", "#^22222222": "c.md#^22222222"}
	tests := []struct{ name, in, want string }{
		{"Plain", "see [x](a.md#^11111111).", "see [x](../b/a.md#^11111111)."},
		{"Angle", "see [x](<a.md#^11111111>).", "see [x](<../b/a.md#^11111111>)."},
		{"Title", `see [x](a.md#^11111111 "t").`, `see [x](../b/a.md#^11111111 "t").`},
		{"SameFile", "[y](#^22222222) and [z](#^22222222)", "[y](c.md#^22222222) and [z](c.md#^22222222)"},
		{"LongerPathUntouched", "[x](a.md#^111111112)", "[x](a.md#^111111112)"},
		{"OtherDirUntouched", "[x](sub/a.md#^11111111)", "[x](sub/a.md#^11111111)"},
		{"Unterminated", "[x](a.md#^11111111", "[x](a.md#^11111111"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := replaceTargets(tt.in, subs); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInsertRefs_Cases(t *testing.T) {
	tests := []struct {
		name, raw, want string
		ok              bool
	}{
		{"Inline", "text.[^e-aaaaaaaaaa] ^12345678", "text.[^e-aaaaaaaaaa][^e-bbbbbbbbbb] ^12345678", true},
		{"TrailingSpaceAndCR", "a\nb ^12345678 \r", "a\nb[^e-bbbbbbbbbb] ^12345678 \r", true},
		{"StandaloneID", "```\ncode\n```\n^12345678", "```\ncode\n```\n^12345678", false},
		{"OtherID", "text ^87654321", "text ^87654321", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := insertRefs(tt.raw, "12345678", []string{"e-bbbbbbbbbb"})
			if got != tt.want || ok != tt.ok {
				t.Errorf("got %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

// TestSleep_BrokenFileOnlyLinksRewritten checks that a file with format
// errors is never re-rendered: only its link targets change, byte-wise.
func TestSleep_BrokenFileOnlyLinksRewritten(t *testing.T) {
	ctx := context.Background()
	e, _ := sleepOpen(t, "merge", trust.Owner)
	broken := "# Broken\n\n\nAn untagged paragraph.\n\nLinks to [the due date](people/craig.md#^33333333).   ^abcdef01\n"
	if err := os.WriteFile(filepath.Join(e.Root(), "topics", "broken.md"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Sleep(ctx, e, SleepOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(e.Root(), "topics", "broken.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(broken, "#^33333333", "#^11111111", 1)
	if string(got) != want {
		t.Errorf("broken.md =\n%q\nwant\n%q", got, want)
	}
}

// TestSleep_PromptNamesOversizedFiles checks what a model is told.
func TestSleep_PromptNamesOversizedFiles(t *testing.T) {
	e, _ := sleepOpen(t, "split", trust.Owner)
	s := sleepSnapshot(t, e)
	s.Revision = 3
	p := sleepPrompt(e, s, 200)
	for _, want := range []string{"Workspace revision 3.", "topics/projects/big.md (", `"path":"topics/people/craig.md"`, "budget 2000 tokens"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	if regexp.MustCompile(`\\u003c|\\u003e`).MatchString(p) {
		t.Error("the prompt HTML-escapes Markdown")
	}
	if !strings.Contains(sleepInstructions, `{"edits":[]}`) {
		t.Error("the instructions do not say how to answer when nothing changes")
	}
}

// TestSleep_SplitSectionNames covers sections that slugify alike or to
// nothing, and a parent left with headings only.
func TestSleep_SplitSectionNames(t *testing.T) {
	ctx := context.Background()
	e, _ := sleepOpen(t, "split", trust.Owner)
	def := func(label string) string {
		return "[^" + label + "]: Time: `2024-03-20`; Sources: [openprogram/sess-a/m6](../sources/openprogram/_v2/sess-a.md#source-e21a9f5a)"
	}
	dup := strings.Join([]string{"# Dup", "## Notes", "First notes block about the garden.[^e-1000000001] ^e0000001", def("e-1000000001"),
		"## notes!", "Second notes block about the kitchen.[^e-1000000002] ^e0000002", def("e-1000000002"),
		"##", "A block under an empty heading.[^e-1000000003] ^e0000003", def("e-1000000003")}, "\n\n") + "\n"
	if err := os.WriteFile(filepath.Join(e.Root(), "topics", "dup.md"), []byte(dup), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Sleep(ctx, e, SleepOptions{SplitTokens: 60})
	if err != nil {
		t.Fatal(err)
	}
	var changed []string
	for _, c := range rep.Changed {
		changed = append(changed, c.Path)
	}
	for _, want := range []string{"topics/dup.md", "topics/dup/notes.md", "topics/dup/notes-2.md", "topics/dup/section-3.md"} {
		if !slices.Contains(changed, want) {
			t.Errorf("changed = %v, want it to include %s", changed, want)
		}
	}
	got := sleepTopics(t, e.Root())
	if got["topics/dup.md"] != "# Dup\n" {
		t.Errorf("parent = %q, want only its title", got["topics/dup.md"])
	}
	if !strings.HasPrefix(got["topics/dup/notes-2.md"], "# notes!\n\nSecond notes block") {
		t.Errorf("notes-2.md = %q", got["topics/dup/notes-2.md"])
	}
	if !strings.Contains(got["topics/dup/section-3.md"], "(../../sources/openprogram/_v2/sess-a.md#source-e21a9f5a)") {
		t.Errorf("section-3.md citation not rebased: %q", got["topics/dup/section-3.md"])
	}
	if v, err := e.Verify(ctx); err != nil || !v.OK {
		t.Errorf("verify after the split: %v %v", v.Violations, err)
	}
}
