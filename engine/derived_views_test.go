package engine_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	// golden owns the -update flag (STYLE.md); the golden files here are
	// rewritten with go test ./engine -run TestDerivedViews -update.
	_ "github.com/charmbracelet/x/exp/golden"

	"scriptorium/render"
)

func ftUpdating() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	b, _ := g.Get().(bool)
	return b
}

// ftSetBudget writes config.toml with a core budget.
func ftSetBudget(t *testing.T, state string, budget int) {
	t.Helper()
	cfg := fmt.Sprintf("[memory.core]\nbudget = %d\n", budget)
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDerivedViews_CoreBudgetBoundaries drives the core budget through the
// engine: a render that fits exactly, one token over, a tiny block after an
// excluded one, and pending blocks skipped and listed. The reported tokens
// always equal o200k_base's count of core.md as written to disk.
func TestDerivedViews_CoreBudgetBoundaries(t *testing.T) {
	const (
		pending = "Keys may be shared.[^e-3c1d2e3f40] ^a0000000"
		b1      = "Craig lives in Lisbon. ^a0000001"
		b2      = "Craig is building a budget tracker in Flask with SQLite, Jinja templates, a CSV importer, monthly reports and a dark mode, due 2024-04-15. ^a0000002"
		b3      = "Tiny. ^a0000003"
	)
	coreTopic := "# Core\n\n" + pending + "\n\n" + b1 + "\n\n" + b2 + "\n\n" + b3 + "\n\n" +
		"[^e-3c1d2e3f40]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m3](../" + groupDev + "#" + anchorM3 + ")\n"
	render1 := b1 + "\n"
	render12 := b1 + "\n\n" + b2 + "\n"
	render13 := b1 + "\n\n" + b3 + "\n"
	render123 := b1 + "\n\n" + b2 + "\n\n" + b3 + "\n"
	t1, t12, t13, t123 := render.CountTokens(render1), render.CountTokens(render12), render.CountTokens(render13), render.CountTokens(render123)
	if t13 > t12-1 {
		t.Fatalf("fixture: b3 must fit where b2 does not (%d > %d)", t13, t12-1)
	}
	cases := []struct {
		name     string
		budget   int
		included []string
		excluded []string
		core     string
	}{
		{"everything fits", t123 + 50, []string{"a0000001", "a0000002", "a0000003"}, []string{}, render123},
		{"exact fit of three", t123, []string{"a0000001", "a0000002", "a0000003"}, []string{}, render123},
		{"exact fit of two", t12, []string{"a0000001", "a0000002"}, []string{"a0000003"}, render12},
		{"one token over: the tiny block after it stays out", t12 - 1, []string{"a0000001"}, []string{"a0000002", "a0000003"}, render1},
		{"exact fit of one", t1, []string{"a0000001"}, []string{"a0000002", "a0000003"}, render1},
		{"nothing fits", t1 - 1, []string{}, []string{"a0000001", "a0000002", "a0000003"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := ftEmpty(t, map[string]string{
				groupDev:         ftFixtureFile(t, "valid", groupDev),
				"topics/core.md": coreTopic,
			})
			ftSetBudget(t, state, c.budget)
			e := ftOpen(t, state)
			rep, err := e.Core(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rep.Included, c.included) || !slices.Equal(rep.Excluded, c.excluded) ||
				!slices.Equal(rep.Pending, []string{"a0000000"}) || rep.Budget != c.budget {
				t.Errorf("report %+v\nwant included %v excluded %v pending [a0000000] budget %d", rep, c.included, c.excluded, c.budget)
			}
			disk := ftRead(t, state, "core.md")
			if disk != c.core {
				t.Errorf("core.md:\n%q\nwant\n%q", disk, c.core)
			}
			if rep.Tokens != render.CountTokens(disk) || rep.Tokens > c.budget {
				t.Errorf("tokens %d, core.md counts %d, budget %d", rep.Tokens, render.CountTokens(disk), c.budget)
			}
			if strings.Contains(disk, "Keys may be shared") || strings.Contains(disk, "e-3c1d2e3f40") {
				t.Errorf("a pending block reached core.md")
			}
			// Status reports the same render without writing it.
			st, err := e.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if st.Core.Tokens != rep.Tokens || !slices.Equal(st.Core.Included, rep.Included) {
				t.Errorf("status core %+v differs from the render %+v", st.Core, rep)
			}
		})
	}
}

// TestDerivedViews_CoreFollowsInstalls: every install re-renders core.md,
// and promotion (a trust change without an install) does too.
func TestDerivedViews_CoreFollowsInstalls(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	if _, err := e.Update(ctx, ftTx(0, ftAppend("topics/core.md", "Fresh core fact. ^a1000001\n"))); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ftRead(t, state, "core.md"), "Fresh core fact. ^a1000001") {
		t.Errorf("core.md was not rebuilt after the install:\n%s", ftRead(t, state, "core.md"))
	}
	if strings.Contains(ftRead(t, state, "core.md"), "Zhang San") {
		t.Errorf("pending block in core.md before promotion")
	}
	if _, err := e.Promote(ctx, []string{"openprogram/group-dev/m3"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ftRead(t, state, "core.md"), "Keys may be shared with Zhang San.") {
		t.Errorf("core.md was not rebuilt after the promotion:\n%s", ftRead(t, state, "core.md"))
	}
}

// derivedFiles reads every derived view of a workspace.
func derivedFiles(t *testing.T, state string) map[string][]byte {
	t.Helper()
	mem := filepath.Join(state, "memory")
	out := map[string][]byte{}
	for _, p := range []string{"core.md", "recent_events.jsonl", "relations.json"} {
		data, err := os.ReadFile(filepath.Join(mem, p))
		if err != nil {
			t.Fatal(err)
		}
		out[p] = data
	}
	err := filepath.WalkDir(filepath.Join(mem, "timeline"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(mem, p)
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDerivedViews_Golden renders the "valid" fixture and compares core.md,
// timeline/, recent_events.jsonl and relations.json with the golden copies
// in testdata/ws/valid/derived/. Rendering twice, and rendering a second
// copy, gives the same bytes; pending blocks appear nowhere.
func TestDerivedViews_Golden(t *testing.T) {
	ctx := context.Background()
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	if _, err := e.Core(ctx); err != nil {
		t.Fatal(err)
	}
	got := derivedFiles(t, state)
	golden := filepath.Join("..", "testdata", "ws", "valid", "derived")
	if ftUpdating() {
		os.RemoveAll(golden)
		for p, data := range got {
			full := filepath.Join(golden, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := map[string][]byte{}
	err := filepath.WalkDir(golden, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(golden, p)
		data, err := os.ReadFile(p)
		want[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatalf("%v (run with -update to create the golden files)", err)
	}
	for p, w := range want {
		if g, ok := got[p]; !ok {
			t.Errorf("%s was not rendered", p)
		} else if !bytes.Equal(g, w) {
			t.Errorf("%s differs from the golden file:\n--- want\n%s\n--- got\n%s", p, w, g)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s rendered but has no golden file", p)
		}
	}
	if len(want) < 5 {
		t.Errorf("only %d golden derived files", len(want))
	}

	// Pending blocks (^deadbeef cites the pending m3) appear in no view.
	for p, data := range got {
		if bytes.Contains(data, []byte("deadbeef")) || bytes.Contains(data, []byte("Zhang San")) {
			t.Errorf("%s shows the pending block", p)
		}
	}

	// Determinism: a second render changes nothing, a second copy renders
	// the same bytes.
	before := ftTree(t, state)
	if _, err := e.Core(ctx); err != nil {
		t.Fatal(err)
	}
	if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
		t.Errorf("a second render changed files:\n%s", d)
	}
	other := ftFixture(t, "valid")
	if _, err := ftOpen(t, other).Core(ctx); err != nil {
		t.Fatal(err)
	}
	again := derivedFiles(t, other)
	for p, data := range got {
		if !bytes.Equal(again[p], data) {
			t.Errorf("%s differs between two renders of the same topics", p)
		}
	}
}

// TestDerivedViews_StaleTimelineRemoved: a timeline day no trusted block
// mentions any more disappears on the next install.
func TestDerivedViews_StaleTimelineRemoved(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	if _, err := e.Core(ctx); err != nil {
		t.Fatal(err)
	}
	if !ftExists(state, "timeline/2026/08/10.md") {
		t.Fatal("no timeline day for 2026-08-10")
	}
	// ^1a2b3c4d (core.md) and ^c0ffee02 (craig.md) are the trusted blocks
	// dated 2026-08-10; drop both footnotes.
	core := strings.Replace(ftRead(t, state, "topics/core.md"), "Friday.[^e-2b7e151628] ^1a2b3c4d", "Friday. ^1a2b3c4d", 1)
	craig := strings.Replace(ftRead(t, state, "topics/people/craig.md"), "again.[^e-6f7a8b9ca3] ^c0ffee02", "again. ^c0ffee02", 1)
	if _, err := e.Update(ctx, ftTx(0, ftReplace("topics/core.md", core), ftReplace("topics/people/craig.md", craig))); err != nil {
		t.Fatal(err)
	}
	if ftExists(state, "timeline/2026/08/10.md") {
		t.Errorf("stale timeline day survived:\n%s", ftRead(t, state, "timeline/2026/08/10.md"))
	}
	if !ftExists(state, "timeline/2024/03/15.md") {
		t.Errorf("a live timeline day was removed")
	}
}

// TestDerivedViews_CoreMigration: a hand-written core.md without
// topics/core.md becomes topics/core.md through a migration install; with
// both, topics/core.md wins and the stray is overwritten; a hand-written
// file that is not a valid topic is never overwritten.
func TestDerivedViews_CoreMigration(t *testing.T) {
	ctx := context.Background()
	const hand = "# Core\n\nCraig prefers tea. ^b0000001\n\nAlice runs the deploy rota. ^b0000002\n"

	t.Run("moved into topics", func(t *testing.T) {
		state := ftEmpty(t, map[string]string{"core.md": hand})
		e := ftOpen(t, state)
		rep, err := e.Core(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := ftRead(t, state, "topics/core.md"); got != hand {
			t.Errorf("topics/core.md holds %q, want the hand-written bytes", got)
		}
		if !slices.Equal(rep.Included, []string{"b0000001", "b0000002"}) {
			t.Errorf("report %+v", rep)
		}
		if got := ftRead(t, state, "core.md"); got != "Craig prefers tea. ^b0000001\n\nAlice runs the deploy rota. ^b0000002\n" {
			t.Errorf("core.md not re-rendered: %q", got)
		}
		h := ftHistory(t, e)
		if len(h) != 1 || h[0].Kind != "migration" || !slices.Equal(h[0].Changed, []string{"topics/core.md"}) {
			t.Errorf("history %+v, want one migration of topics/core.md", h)
		}
		// A second render finds nothing to migrate.
		if _, err := e.Core(ctx); err != nil || len(ftHistory(t, e)) != 1 {
			t.Errorf("second render: %v, history %+v", err, ftHistory(t, e))
		}
	})

	t.Run("moved on the first install", func(t *testing.T) {
		state := ftEmpty(t, map[string]string{"core.md": hand})
		e := ftOpen(t, state)
		if _, err := e.Update(ctx, ftTx(0, ftCreate("topics/other.md", "# O\n\nOther. ^b0000003\n"))); err != nil {
			t.Fatal(err)
		}
		if got := ftRead(t, state, "topics/core.md"); got != hand {
			t.Errorf("topics/core.md holds %q", got)
		}
		if !strings.Contains(ftRead(t, state, "core.md"), "Craig prefers tea.") {
			t.Errorf("the install's render dropped the hand-written facts")
		}
	})

	t.Run("topics wins", func(t *testing.T) {
		state := ftEmpty(t, map[string]string{"core.md": hand, "topics/core.md": "# Core\n\nThe real core. ^b0000004\n"})
		e := ftOpen(t, state)
		if _, err := e.Core(ctx); err != nil {
			t.Fatal(err)
		}
		if got := ftRead(t, state, "core.md"); got != "The real core. ^b0000004\n" {
			t.Errorf("stray core.md not overwritten: %q", got)
		}
		if got := ftRead(t, state, "topics/core.md"); got != "# Core\n\nThe real core. ^b0000004\n" {
			t.Errorf("topics/core.md changed: %q", got)
		}
		if h := ftHistory(t, e); len(h) != 0 {
			t.Errorf("history %+v, want none", h)
		}
	})

	t.Run("invalid hand-written file is kept as evidence", func(t *testing.T) {
		const bad = "# Core\n\nA fact without an id.\n"
		state := ftEmpty(t, map[string]string{"core.md": bad})
		e := ftOpen(t, state)
		if _, err := e.Core(ctx); err != nil {
			t.Fatalf("render of an invalid hand-written core.md: %v", err)
		}
		// The only copy of the hand-written facts survives byte for byte as
		// trusted migration evidence, and topics/core.md cites it.
		if got := ftRead(t, state, "sources/migration/_v2/core.md"); !strings.Contains(got, bad) {
			t.Errorf("the hand-written bytes are not in the migration evidence: %q", got)
		}
		if got := ftRead(t, state, "topics/core.md"); !strings.Contains(got, "A fact without an id.[^e-") {
			t.Errorf("topics/core.md does not cite the evidence: %q", got)
		}
		if v, err := e.Verify(ctx); err != nil || !v.OK {
			t.Errorf("verify after the migration: %v %+v", err, v)
		}
	})

	t.Run("a deleted topics/core.md stays deleted", func(t *testing.T) {
		state := ftEmpty(t, map[string]string{"topics/core.md": "# Core\n\nTemporary. ^b0000005\n"})
		e := ftOpen(t, state)
		if _, err := e.Core(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Update(ctx, ftTx(0, ftDelete("topics/core.md"))); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Core(ctx); err != nil {
			t.Fatal(err)
		}
		if ftExists(state, "topics/core.md") {
			t.Errorf("the rendered core.md was migrated back into topics/core.md: %q", ftRead(t, state, "topics/core.md"))
		}
		if got := ftRead(t, state, "core.md"); got != "" {
			t.Errorf("core.md after deleting topics/core.md: %q", got)
		}
		if h := ftHistory(t, e); len(h) != 1 {
			t.Errorf("history %+v, want only the delete", h)
		}
	})
}
