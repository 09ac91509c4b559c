package tui_test

// BenchmarkTUI measures the TUI over the real engine (tui/enginebackend)
// on a copy of a generated workspace (engine/benchgen_test.go caches them
// under $TMPDIR/scriptorium-bench/): the first frame of a fresh start, and
// per key the loop's own work — Update(key) and the View() that follows —
// for the keys an owner uses on every pane. Each key is interleaved with
// a baseline in the same run, lipgloss rendering the same screen once as
// one padded block (the library's cost for that content, independent of
// the TUI's code), and reported as a ratio (x-base), because absolute
// times on a shared machine are noise. Keys that ask the engine for something (a
// topic, an archive, a search) also report data-*: from the key until
// every command it started has finished and its result has been drawn.
//
// The 10k workspace is used when its cache exists, the 100k one with
// SCRIPTORIUM_BENCH_100K=1; neither is generated here (run the engine
// benchmarks once to create them). BENCHMARKS.md has the commands.

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/trust"
	"scriptorium/tui"
	"scriptorium/tui/enginebackend"
	"scriptorium/views"
	"scriptorium/workspace/treetest"
)

const benchW, benchH = 200, 50

// benchState copies the cached warm workspace into a temporary directory
// and returns the copy's state dir.
func benchState(b *testing.B) string {
	b.Helper()
	n := 10_000
	if os.Getenv("SCRIPTORIUM_BENCH_100K") == "1" {
		n = 100_000
	}
	src := filepath.Join(os.TempDir(), "scriptorium-bench", fmt.Sprintf("gen1-n%d", n), "warm-f3", "state")
	if _, err := os.Stat(filepath.Join(src, "memory")); err != nil {
		b.Skipf("no generated workspace at %s (the engine benchmarks create it)", src)
	}
	dst := filepath.Join(b.TempDir(), "state")
	if err := treetest.CopyTree(src, dst); err != nil {
		b.Fatal(err)
	}
	b.Logf("workspace: copy of %s", src)
	return dst
}

func openEngine(b *testing.B, dir string) *engine.Engine {
	b.Helper()
	e, err := engine.Open(context.Background(), engine.Options{StateDir: dir, Tier: trust.Owner, Interactive: true})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// callStats times every load the TUI asks of the engine.
type callStats struct {
	mu sync.Mutex
	d  map[string][]time.Duration
}

func (s *callStats) add(name string, t0 time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.d == nil {
		s.d = map[string][]time.Duration{}
	}
	s.d[name] = append(s.d[name], time.Since(t0))
}

func (s *callStats) log(b *testing.B) {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := make([]string, 0, len(s.d))
	for n := range s.d {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		b.Logf("engine %-10s n=%-4d p50 %8.1f ms  p95 %8.1f ms", n, len(s.d[n]), ms(pct(s.d[n], 50)), ms(pct(s.d[n], 95)))
	}
	clear(s.d)
}

func (s *callStats) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.d)
}

// timedBackend is the engine backend with its loads timed.
type timedBackend struct {
	tui.Backend
	s *callStats
}

func (t timedBackend) Status(ctx context.Context) (result.Status, error) {
	defer t.s.add("Status", time.Now())
	return t.Backend.Status(ctx)
}

func (t timedBackend) Pending(ctx context.Context) ([]result.PendingSource, error) {
	defer t.s.add("Pending", time.Now())
	return t.Backend.Pending(ctx)
}

func (t timedBackend) Rejected(ctx context.Context) ([]result.RejectedSource, error) {
	defer t.s.add("Rejected", time.Now())
	return t.Backend.Rejected(ctx)
}

func (t timedBackend) Audit(ctx context.Context, q result.AuditQuery) (result.AuditReport, error) {
	defer t.s.add("Audit", time.Now())
	return t.Backend.Audit(ctx, q)
}

func (t timedBackend) Topics(ctx context.Context) ([]result.TopicSummary, error) {
	defer t.s.add("Topics", time.Now())
	return t.Backend.Topics(ctx)
}

func (t timedBackend) Topic(ctx context.Context, path string) (result.TopicView, error) {
	defer t.s.add("Topic", time.Now())
	return t.Backend.Topic(ctx, path)
}

func (t timedBackend) Archive(ctx context.Context, path string) (result.ArchiveView, error) {
	defer t.s.add("Archive", time.Now())
	return t.Backend.Archive(ctx, path)
}

func (t timedBackend) Core(ctx context.Context) (result.CoreView, error) {
	defer t.s.add("Core", time.Now())
	return t.Backend.Core(ctx)
}

func (t timedBackend) Passes(ctx context.Context) ([]result.PassReport, error) {
	defer t.s.add("Passes", time.Now())
	return t.Backend.Passes(ctx)
}

func (t timedBackend) Proposals(ctx context.Context) ([]proposals.Proposal, error) {
	defer t.s.add("Proposals", time.Now())
	return t.Backend.Proposals(ctx)
}

func (t timedBackend) Search(ctx context.Context, q result.SearchQuery) ([]result.SearchResult, error) {
	defer t.s.add("Search", time.Now())
	return t.Backend.Search(ctx, q)
}

// loop drives a model the way Bubble Tea does: commands run concurrently,
// their messages come back through one channel and are handed to Update
// one at a time. Timers are off (tui.WithoutTimers), so the loop settles.
type loop struct {
	b        *testing.B
	m        tea.Model
	msgs     chan tea.Msg
	inflight int
}

func newLoop(b *testing.B, be tui.Backend) *loop {
	l := &loop{b: b, m: tui.WithoutTimers(tui.New(be, tui.Options{MarkdownStyle: "dark"})), msgs: make(chan tea.Msg, 1024)}
	l.start(l.m.Init())
	l.update(tea.WindowSizeMsg{Width: benchW, Height: benchH})
	return l
}

func (l *loop) start(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	l.inflight++
	go func() { l.msgs <- cmd() }()
}

// update hands one message to the model and starts what it returns.
func (l *loop) update(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil, tea.QuitMsg:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			l.start(c)
		}
		return
	}
	var cmd tea.Cmd
	l.m, cmd = l.m.Update(msg)
	l.start(cmd)
}

// settle runs until no command is left, drawing a frame after each result
// as the renderer would.
func (l *loop) settle() {
	for l.inflight > 0 {
		select {
		case msg := <-l.msgs:
			l.inflight--
			l.update(msg)
			_ = l.m.View()
		case <-time.After(5 * time.Minute):
			l.b.Fatal("the loop does not settle")
		}
	}
}

// key is one keypress and the frame drawn after it: what the loop does
// before the owner sees the result.
func (l *loop) key(k tea.KeyMsg) {
	l.update(k)
	_ = l.m.View()
}

func (l *loop) press(keys ...string) {
	for _, k := range keys {
		l.key(keyOf(k))
		l.settle()
	}
}

func (l *loop) view() string { return l.m.View() }

func keyOf(s string) tea.KeyMsg {
	named := map[string]tea.KeyMsg{
		"enter":     {Type: tea.KeyEnter},
		"esc":       {Type: tea.KeyEsc},
		"tab":       {Type: tea.KeyTab},
		"backspace": {Type: tea.KeyBackspace},
		"pgdown":    {Type: tea.KeyPgDown},
		"pgup":      {Type: tea.KeyPgUp},
	}
	if k, ok := named[s]; ok {
		return k
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// keyScenario is a pane reached by setup, then keys pressed in a cycle
// that returns to where it started, so every iteration sees the same data.
type keyScenario struct {
	name  string
	setup []string
	open  bool // then drill down to the workspace's largest archive
	cycle []string
}

func keyScenarios() []keyScenario {
	repeat := func(n int, ks ...string) []string {
		var out []string
		for range n {
			out = append(out, ks...)
		}
		return out
	}
	jk := append(repeat(10, "j"), repeat(10, "k")...)
	return []keyScenario{
		{name: "pending/j-k", cycle: jk},
		{name: "pending/pgdown-pgup", cycle: append(repeat(3, "pgdown"), repeat(3, "pgup")...)},
		{name: "panes/tab", cycle: repeat(7, "tab")},
		{name: "panes/number", cycle: []string{"2", "3", "4", "5", "6", "7", "1"}},
		{name: "topics/tree-j-k", setup: []string{"2"}, cycle: jk},
		{name: "topics/blocks-j-k", setup: []string{"2", "enter"}, cycle: append(repeat(5, "j"), repeat(5, "k")...)},
		{name: "topics/open-close", setup: []string{"2"}, cycle: []string{"enter", "esc"}},
		{name: "topics/drill-back", setup: []string{"2", "enter", "enter"}, cycle: []string{"enter", "esc"}},
		{name: "archive/j-k", setup: []string{"2", "enter", "enter", "enter"}, cycle: jk},
		{name: "archive/largest-j-k", open: true, cycle: jk},
		{name: "archive/largest-pgdown-pgup", open: true, cycle: append(repeat(5, "pgdown"), repeat(5, "pgup")...)},
		{name: "pending/filter-typing", setup: []string{"/"},
			cycle: []string{"a", "l", "i", "c", "e", "backspace", "backspace", "backspace", "backspace", "backspace"}},
		{name: "core/j-k", setup: []string{"3"}, cycle: jk},
		{name: "core/pgdown-pgup", setup: []string{"3"}, cycle: append(repeat(3, "pgdown"), repeat(3, "pgup")...)},
		{name: "passes/j-k", setup: []string{"4"}, cycle: jk},
		{name: "audit/j-k", setup: []string{"7"}, cycle: jk},
		{name: "search/typing", setup: []string{"5", "/"},
			cycle: []string{"a", "l", "i", "c", "e", "backspace", "backspace", "backspace", "backspace", "backspace"}},
		{name: "search/enter", setup: []string{"5", "/", "a", "l", "i", "c", "e", "enter"}, cycle: []string{"/", "enter"}},
		{name: "search/results-j-k", setup: []string{"5", "/", "a", "l", "i", "c", "e", "enter"}, cycle: jk},
	}
}

func BenchmarkTUI(b *testing.B) {
	prev := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.TrueColor) // what a terminal draws, escapes and all
	b.Cleanup(func() { lipgloss.SetColorProfile(prev) })

	dir := benchState(b)
	stats := &callStats{}

	// Warm up untimed: the first open fills the page cache. (The copy's
	// first search rebuilds the index, because the copy has new inodes: the
	// search scenarios' setup does that, untimed.)
	t0 := time.Now()
	e := openEngine(b, dir)
	b.Cleanup(func() { e.Close() })
	be := timedBackend{Backend: enginebackend.New(e, nil), s: stats}
	w := newLoop(b, be)
	w.settle()
	b.Logf("warm-up (open, every pane loaded): %v", time.Since(t0).Round(time.Millisecond))
	stats.log(b)

	b.Run("first-frame", func(b *testing.B) { benchFirstFrame(b, dir) })
	largest := largestArchive(b, dir)
	for _, sc := range keyScenarios() {
		b.Run("keys/"+sc.name, func(b *testing.B) { benchKeys(b, be, stats, sc, largest) })
	}
}

// largestArchive is the biggest archive file of the workspace, relative
// to the memory dir ("sources/…").
func largestArchive(b *testing.B, dir string) string {
	mem := filepath.Join(dir, "memory")
	var best string
	var size int64
	err := filepath.WalkDir(filepath.Join(mem, "sources"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		if fi, err := d.Info(); err == nil && fi.Size() > size {
			best, size = p, fi.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	rel, _ := filepath.Rel(mem, best)
	b.Logf("largest archive: %s (%d bytes)", rel, size)
	return filepath.ToSlash(rel)
}

// benchFirstFrame times a fresh start as the CLI does it: engine.Open,
// the model, the first View (panes still loading), then the frame with the
// pending pane's data, then the frame after every pane has loaded.
func benchFirstFrame(b *testing.B, dir string) {
	var open, first, pane, all []time.Duration
	stats := &callStats{}
	for b.Loop() {
		t0 := time.Now()
		e := openEngine(b, dir)
		open = append(open, time.Since(t0))
		l := newLoop(b, timedBackend{Backend: enginebackend.New(e, nil), s: stats})
		_ = l.view()
		first = append(first, time.Since(t0))
		got := false
		for l.inflight > 0 {
			msg := <-l.msgs
			l.inflight--
			l.update(msg)
			v := l.view()
			if !got && strings.Contains(v, "sources in") {
				got = true
				pane = append(pane, time.Since(t0))
			}
		}
		all = append(all, time.Since(t0))
		e.Close()
	}
	report(b, "open", open)
	report(b, "first", first)
	report(b, "pane", pane)
	report(b, "all", all)
	stats.log(b)
}

func benchKeys(b *testing.B, be tui.Backend, stats *callStats, sc keyScenario, largest string) {
	l := newLoop(b, be)
	l.settle()
	l.press(sc.setup...)
	if sc.open {
		l.update(views.OpenArchive{Path: largest})
		l.settle()
		if v := l.view(); !strings.Contains(v, "frames") {
			b.Fatalf("the archive did not open:\n%s", v)
		}
	}
	// The baseline draws the same screen with lipgloss alone: one padded
	// block of the frame's lines, what the library costs for this content
	// whatever the TUI does around it.
	screen := l.view()
	pad := lipgloss.NewStyle().Padding(0, 1)
	stats.reset()

	var ours, baseT, data []time.Duration
	i := 0
	for b.Loop() {
		k := keyOf(sc.cycle[i%len(sc.cycle)])
		i++
		t0 := time.Now()
		l.key(k)
		ours = append(ours, time.Since(t0))
		if l.inflight > 0 {
			l.settle()
			data = append(data, time.Since(t0))
		}
		b.StopTimer()
		t1 := time.Now()
		_ = pad.Render(screen)
		baseT = append(baseT, time.Since(t1))
		b.StartTimer()
	}
	report(b, "", ours)
	report(b, "base-", baseT)
	if b50 := pct(baseT, 50); b50 > 0 {
		b.ReportMetric(float64(pct(ours, 50))/float64(b50), "x-base")
	}
	if len(data) > 0 {
		report(b, "data-", data)
	}
	stats.log(b)
}

func report(b *testing.B, prefix string, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	b.ReportMetric(ms(pct(ds, 50)), prefix+"p50-ms")
	b.ReportMetric(ms(pct(ds, 95)), prefix+"p95-ms")
}

// pct is the nearest-rank percentile.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	return s[max(i, 0)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
