package views

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"scriptorium/engine/result"
	"scriptorium/keymap"
)

func TestMain(m *testing.M) {
	// bubbles' viewport pads with the default renderer.
	lipgloss.SetColorProfile(termenv.Ascii)
	os.Exit(m.Run())
}

func newCommon(profile termenv.Profile) *Common {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(profile)
	st := NewStyles(r, DefaultPalette())
	km := keymap.Default()
	return &Common{Styles: &st, Keys: &km, Markdown: Markdown{Style: "notty", Profile: termenv.Ascii}}
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func TestFit_Cases(t *testing.T) {
	tests := []struct {
		name string
		in   string
		w, h int
		want string
	}{
		{"pads height", "a", 3, 3, "a\n\n"},
		{"cuts height", "a\nb\nc", 3, 2, "a\nb"},
		{"truncates width", "abcdef", 4, 1, "abc…"},
		{"wide runes", "密钥可以", 5, 1, "密钥…"},
		{"zero height", "abc", 3, 0, ""},
		{"zero width", "abc\ndef", 0, 2, "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Fit(tt.in, tt.w, tt.h); got != tt.want {
				t.Errorf("Fit(%q, %d, %d) = %q, want %q", tt.in, tt.w, tt.h, got, tt.want)
			}
		})
	}
}

func TestVisible_Cases(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "hello 密钥", "hello 密钥"},
		{"escape sequence", "a\x1b[31mb", "a␛[31mb"},
		{"bell", "x\x07", "x␇"},
		{"crlf", "a\r\nb", "a␍\nb"},
		{"tab", "a\tb", "a␉b"},
		{"line separator", "a\u2028b\u2029c", "a␤b¶c"},
		{"c1 control", "a\u0085b", "a<U+0085>b"},
		{"arabic letter mark", "a\u061cb", "a<U+061C>b"},
		{"delete", "a\x7fb", "a␡b"},
		{"invalid utf-8", "a\xffb", "a<0xFF>b"},
		{"bidi override", "a\u202eb", "a<U+202E>b"},
		{"lf stays", "a\nb", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Visible(tt.in); got != tt.want {
				t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPlural_Cases(t *testing.T) {
	tests := []struct {
		n          int
		word, want string
	}{{1, "source", "1 source"}, {2, "source", "2 sources"}, {0, "pass", "0 passes"}, {1, "pass", "1 pass"}}
	for _, tt := range tests {
		if got := plural(tt.n, tt.word); got != tt.want {
			t.Errorf("plural(%d, %q) = %q, want %q", tt.n, tt.word, got, tt.want)
		}
	}
}

func TestModelLabel_Cases(t *testing.T) {
	const off = "offline (built-in deterministic model, no network)"
	tests := []struct{ in, want string }{
		{"offline", off}, {"", off}, {"offline:v1", off}, {"openai:gpt-4o-mini", "openai:gpt-4o-mini"},
	}
	for _, tt := range tests {
		if got := ModelLabel(tt.in); got != tt.want {
			t.Errorf("ModelLabel(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestScrollTo_Cases(t *testing.T) {
	tests := []struct{ off, cur, h, n, want int }{
		{0, 0, 5, 3, 0},   // fits
		{0, 7, 5, 20, 3},  // below the window
		{10, 4, 5, 20, 4}, // above the window
		{3, 5, 5, 20, 3},  // visible: no move
		{18, 19, 5, 20, 15},
		{0, 3, 0, 20, 0}, // no room
	}
	for _, tt := range tests {
		if got := scrollTo(tt.off, tt.cur, tt.h, tt.n); got != tt.want {
			t.Errorf("scrollTo(%d, %d, %d, %d) = %d, want %d", tt.off, tt.cur, tt.h, tt.n, got, tt.want)
		}
	}
}

func TestThreadOfRef_Cases(t *testing.T) {
	tests := []struct{ in, want string }{
		{"telegram/group-42/m1", "telegram/group-42"}, {"nothread", "nothread"}, {"a/b", "a"},
	}
	for _, tt := range tests {
		if got := threadOfRef(tt.in); got != tt.want {
			t.Errorf("threadOfRef(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPassesDiff_ColouredByLineKind(t *testing.T) {
	c := newCommon(termenv.ANSI256)
	p := NewPasses(c)
	rep := result.PassReport{Pass: 1, Changed: []result.FileDiff{{Path: "topics/a.md",
		Diff: "--- a/topics/a.md\n+++ b/topics/a.md\n@@ -1 +1 @@\n-old\n+new\n same\n"}}}
	lines := strings.Split(p.diffText(rep, 80), "\n")
	st := c.Styles
	want := map[string]string{
		"-old": st.DiffDel.Render("-old"), "+new": st.DiffAdd.Render("+new"),
		"@@ -1 +1 @@": st.DiffHunk.Render("@@ -1 +1 @@"), " same": " same",
	}
	found := 0
	for _, l := range lines {
		if w, ok := want[ansi.Strip(l)]; ok {
			found++
			if l != w {
				t.Errorf("line %q rendered %q, want %q", ansi.Strip(l), l, w)
			}
		}
	}
	if found != len(want) {
		t.Errorf("found %d of %d diff lines in %q", found, len(want), lines)
	}
	if add, del := st.DiffAdd.Render("+x"), st.DiffDel.Render("-x"); add == "+x" || del == "-x" || add == del {
		t.Errorf("diff styles carry no distinct colour: %q %q", add, del)
	}
}

func TestMDCache_RendersOncePerTextAndWidth(t *testing.T) {
	c := newCommon(termenv.Ascii)
	cache := newMDCache()
	k := mdKey{text: "some **bold** text", width: 40}
	cmd := cache.request(c.Markdown, k)
	if cmd == nil {
		t.Fatal("no render command for a new key")
	}
	if cache.request(c.Markdown, k) != nil {
		t.Fatal("a second command for a render under way")
	}
	cache.store(cmd().(mdRendered))
	if cache.request(c.Markdown, k) != nil {
		t.Fatal("a command for a cached render")
	}
	out, ok := cache.get(k)
	if !ok || !strings.Contains(out, "bold") {
		t.Fatalf("cached render = %q, %v", out, ok)
	}
	if cache.request(c.Markdown, mdKey{text: k.text, width: 60}) == nil {
		t.Fatal("no command for another width")
	}
}

func TestRenderMarkdown_StoredControlCodesStayInert(t *testing.T) {
	c := newCommon(termenv.Ascii)
	out, err := renderMarkdown(c.Markdown, "evil \x1b]0;title\x07 text", 40)
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, "␛]0;title␇") {
		t.Fatalf("render = %q", out)
	}
}

func pendingFixture() []result.PendingSource {
	return []result.PendingSource{
		{Ref: "telegram/g/m1", Thread: "telegram/g", Time: "2026-08-10T12:00:00Z", SpeakerLabel: "B (u456)", Content: "one"},
		{Ref: "slack/x/m9", Thread: "slack/x", Time: "2026-08-10T12:01:00Z", SpeakerLabel: "C (u1)", Content: "two"},
		{Ref: "telegram/g/m2", Thread: "telegram/g", Time: "2026-08-10T12:02:00Z", SpeakerLabel: "B (u456)", Content: "three"},
	}
}

func TestPending_DrivenDirectly(t *testing.T) {
	p := NewPending(newCommon(termenv.Ascii))
	p.SetSize(80, 20)
	p.Update(PendingLoaded{Sources: pendingFixture()})
	// Grouped by thread: m1, m2 (telegram/g), then m9 (slack/x).
	var order []string
	for _, row := range p.rows {
		if row.src >= 0 {
			order = append(order, p.all[row.src].Ref)
		}
	}
	if fmt.Sprint(order) != "[telegram/g/m1 telegram/g/m2 slack/x/m9]" {
		t.Fatalf("row order = %v", order)
	}
	p.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	p.Update(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	_, cmd := p.Update(runes("p"))
	conf, ok := cmd().(Confirm)
	if !ok {
		t.Fatalf("p sent %T, want Confirm", cmd())
	}
	req := conf.Action.(Promote)
	if fmt.Sprint(req.Refs) != "[telegram/g/m1 telegram/g/m2]" || req.Summary != "2 sources from telegram/g" {
		t.Errorf("promote request = %+v", req)
	}
	// A reload without the promoted sources drops them from the selection.
	p.Update(PendingLoaded{Sources: pendingFixture()[1:2]})
	if len(p.Selected()) != 0 {
		t.Errorf("selection kept vanished sources: %v", p.Selected())
	}
	if cur, _ := p.Current(); cur.Ref != "slack/x/m9" {
		t.Errorf("cursor on %q", cur.Ref)
	}
}

// TestPending_SenderGroups: in a thread, sources are grouped by sender
// (oldest first) under a header with the sender's count; P takes every
// source of the cursor's sender in its thread, whatever the filter shows,
// and none of another thread; X asks a reason first.
func TestPending_SenderGroups(t *testing.T) {
	p := NewPending(newCommon(termenv.Ascii))
	p.SetSize(80, 20)
	src := append(pendingFixture(),
		result.PendingSource{Ref: "telegram/g/m3", Thread: "telegram/g", Time: "2026-08-10T12:03:00Z", SpeakerID: "u7", SpeakerLabel: "D (u7)", Content: "four"},
		result.PendingSource{Ref: "slack/x/m10", Thread: "slack/x", Time: "2026-08-10T12:04:00Z", SpeakerID: "u456", SpeakerLabel: "B (u456)", Content: "five"},
		result.PendingSource{Ref: "telegram/g/m4", Thread: "telegram/g", Time: "2026-08-10T12:05:00Z", SpeakerID: "u456", SpeakerLabel: "B (u456)", Content: "six"},
	)
	src[0].SpeakerID, src[2].SpeakerID = "u456", "u456"
	p.Update(PendingLoaded{Sources: src})
	var rows []string
	for _, r := range p.rows {
		switch r.src {
		case rowThread:
			rows = append(rows, r.thread)
		case rowSender:
			rows = append(rows, fmt.Sprintf("  %s %d", r.label, r.count))
		default:
			rows = append(rows, "    "+p.all[r.src].Ref)
		}
	}
	want := []string{"telegram/g", "  B (u456) 3", "    telegram/g/m1", "    telegram/g/m2", "    telegram/g/m4",
		"  D (u7) 1", "    telegram/g/m3", "slack/x", "  C (u1) 1", "    slack/x/m9", "  B (u456) 1", "    slack/x/m10"}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	mustShow := ansi.Strip(p.View())
	if !strings.Contains(mustShow, "  B (u456) (3)") {
		t.Errorf("view lacks the sender header:\n%s", mustShow)
	}
	// The filter hides m2; P still takes all three of B's in telegram/g.
	p.filter.SetValue("one")
	p.rebuild()
	_, cmd := p.Update(runes("P"))
	conf, ok := cmd().(Confirm)
	if !ok {
		t.Fatalf("P sent %T", cmd())
	}
	req := conf.Action.(Promote)
	if fmt.Sprint(req.Refs) != "[telegram/g/m1 telegram/g/m2 telegram/g/m4]" || !strings.HasPrefix(conf.Prompt, "Promote every source of B (u456) here: 3 sources from telegram/g?") {
		t.Errorf("P: %+v\n%s", req, conf.Prompt)
	}
	p.Update(runes("X"))
	if !p.Capturing() {
		t.Fatal("X did not ask for a reason")
	}
	_, cmd = p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	conf = cmd().(Confirm)
	if r := conf.Action.(Reject); fmt.Sprint(r.Refs) != "[telegram/g/m1 telegram/g/m2 telegram/g/m4]" {
		t.Errorf("X: %+v", r)
	}
}

func TestArchive_ScrolledToAnchorAndHighlighted(t *testing.T) {
	a := NewArchive(newCommon(termenv.Ascii))
	a.SetSize(60, 12)
	var srcs []result.SourceView
	for i := range 30 {
		ref := fmt.Sprintf("p/t/m%02d", i)
		srcs = append(srcs, result.SourceView{Ref: ref, Anchor: fmt.Sprintf("source-%08d", i), Trust: "trusted",
			Time: "2026-01-01T00:00:00Z", Label: "user", Text: "[2026-01-01T00:00:00Z] user: message " + ref})
	}
	a.Open("sources/p/_v2/t.md", "source-00000020")
	a.Update(ArchiveLoaded{Path: "sources/p/_v2/t.md", Archive: result.ArchiveView{Sources: srcs}})
	v := a.View()
	if !strings.Contains(v, "▌ source-00000020 · p/t/m20  ◀ cited") || strings.Contains(v, "p/t/m00") {
		t.Fatalf("not scrolled to the anchor:\n%s", v)
	}
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if _, ok := cmd().(CloseArchive); !ok {
		t.Fatal("esc does not close the drill-down")
	}
	// An archive that arrives for another path is ignored.
	a.Update(ArchiveLoaded{Path: "other.md", Archive: result.ArchiveView{}})
	if sel, _ := a.Selected(); sel.Ref != "p/t/m20" {
		t.Errorf("selected %q after an unrelated load", sel.Ref)
	}
}

func TestArchive_CitedFrameNearTheEndFillsThePage(t *testing.T) {
	tests := []struct {
		name   string
		anchor int // index of the cited frame among 9
	}{{"last", 8}, {"second to last", 7}, {"middle", 4}, {"first", 0}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := NewArchive(newCommon(termenv.Ascii))
			a.SetSize(60, 24)
			var srcs []result.SourceView
			for i := range 9 {
				ref := fmt.Sprintf("p/t/m%02d", i)
				srcs = append(srcs, result.SourceView{Ref: ref, Anchor: fmt.Sprintf("source-%08d", i),
					Trust: "trusted", Time: "2026-01-01T00:00:00Z", Label: "user",
					Text: "[2026-01-01T00:00:00Z] user: message " + ref})
			}
			anchor := fmt.Sprintf("source-%08d", tt.anchor)
			a.Open("sources/p/_v2/t.md", anchor)
			a.Update(ArchiveLoaded{Path: "sources/p/_v2/t.md", Archive: result.ArchiveView{Sources: srcs}})
			v := a.View()
			if !strings.Contains(v, fmt.Sprintf("▌ %s · p/t/m%02d  ◀ cited", anchor, tt.anchor)) {
				t.Fatalf("cited frame not shown highlighted:\n%s", v)
			}
			// 9 frames of 4 lines (3 + a blank) do not fit in 22: the page
			// ends at the last frame and has no empty rows above it.
			lines := strings.Split(v, "\n")
			last := len(lines) - 1
			for last >= 0 && strings.TrimSpace(lines[last]) == "" {
				last--
			}
			if tt.anchor >= 4 && last < len(lines)-2 {
				t.Errorf("page ends at line %d of %d:\n%s", last+1, len(lines), v)
			}
			if tt.anchor >= 4 && !strings.Contains(v, "message p/t/m08") {
				t.Errorf("last frame not shown:\n%s", v)
			}
		})
	}
}

// settle feeds the commands a pane returns back to it until none is left,
// the way the root would (requests are dropped: there is no engine here).
func settle(c Component, cmd tea.Cmd) {
	for i := 0; cmd != nil && i < 100; i++ {
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			var next []tea.Cmd
			for _, b := range batch {
				if b == nil {
					continue
				}
				_, c2 := c.Update(b())
				next = append(next, c2)
			}
			cmd = tea.Batch(next...)
			continue
		}
		_, cmd = c.Update(msg)
	}
}

func TestTopics_FootnoteReferencesShownAsNumbers(t *testing.T) {
	const path = "topics/people/craig.md"
	text := "Craig is building a **budget tracker**.[^e-1175dea39c] It is due in April.[^e-2a2b3c4d5e]"
	notes := []result.FootnoteView{
		{Label: "e-1175dea39c", Time: "2024-03-15", Sources: []result.CitationView{{Ref: "p/t/m1", Path: "sources/p.md", Anchor: "source-1"}}},
		{Label: "e-2a2b3c4d5e", Time: "2024-03-16", Sources: []result.CitationView{{Ref: "p/t/m2", Path: "sources/p.md", Anchor: "source-2"}}},
	}
	for _, w := range []int{100, 50} { // the glamour render, and the narrow layout
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			p := NewTopics(newCommon(termenv.Ascii))
			p.SetSize(w, 30)
			_, cmd := p.Update(TopicsLoaded{Topics: []result.TopicSummary{{Path: path, Blocks: 1}}})
			settle(p, cmd)
			_, cmd = p.Update(TopicLoaded{Path: path, Topic: result.TopicView{Path: path, Blocks: []result.BlockView{
				{Ref: "f888f60e", Path: path, Text: text, Trust: "trusted", Footnotes: notes}}}})
			settle(p, cmd)
			p.Update(tea.KeyMsg{Type: tea.KeyEnter}) // to the blocks column
			v := ansi.Strip(p.View())
			if strings.Contains(v, "[^") {
				t.Errorf("raw footnote reference shown:\n%s", v)
			}
			for _, want := range []string{"tracker**.[1]", "April.[2]", "[1] 2024-03-15 · e-1175dea39c",
				"[2] 2024-03-16 · e-2a2b3c4d5e"} {
				if !strings.Contains(v, want) {
					t.Errorf("view lacks %q:\n%s", want, v)
				}
			}
		})
	}
}

func TestCore_FootnoteReferencesShownAsNumbers(t *testing.T) {
	p := NewCore(newCommon(termenv.Ascii))
	p.SetSize(100, 20)
	text := "Current project: a budget tracker in Flask.[^e-1175dea39c] Due in April.[^e-2a2b3c4d5e]"
	p.Update(CoreLoaded{Core: result.CoreView{Report: result.CoreReport{Budget: 100, Tokens: 30},
		Blocks: []result.CoreBlock{{ID: "c0ffee01", Text: text, Tokens: 30, State: "included"}}}})
	check := func(v string, wants ...string) {
		t.Helper()
		if strings.Contains(v, "[^") {
			t.Errorf("raw footnote reference shown:\n%s", v)
		}
		for _, want := range wants {
			if !strings.Contains(v, want) {
				t.Errorf("view lacks %q:\n%s", want, v)
			}
		}
	}
	legend := "[1] e-1175dea39c · [2] e-2a2b3c4d5e"
	check(ansi.Strip(p.View()), "^c0ffee01  Current project: a budget tracker in Flask.[1] Due in April.[2]", legend)
	p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	check(ansi.Strip(p.View()), "Flask.[1] Due in April.[2]", legend)
}

func TestMarkFootnotes_Cases(t *testing.T) {
	tests := []struct {
		name, text string
		labels     []string
		md         bool
		want       string
	}{
		{"listed order", "a[^y] b[^x]", []string{"x", "y"}, false, "a[2] b[1]"},
		{"unlisted numbered after", "a[^z] b[^x]", []string{"x"}, false, "a[2] b[1]"},
		{"repeated label same number", "a[^x] b[^x]", nil, false, "a[1] b[1]"},
		{"markdown escapes brackets", "a[^x](b)", nil, true, `a\[1\](b)`},
		{"no reference", "plain [text] and [^] and [^ x]", nil, false, "plain [text] and [^] and [^ x]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			order := footnoteOrder(tt.text, tt.labels)
			if got := markFootnotes(tt.text, order, tt.md); got != tt.want {
				t.Errorf("markFootnotes(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestPasses_CoreGapComparedWithTheOlderPass(t *testing.T) {
	gap := []string{"60669bf1", "8937d85f", "c27fe4ed"}
	tests := []struct {
		name          string
		older, newer  []string
		wantOld, want string // the line for the older and the newer pass
		not           string
	}{
		{"same gap", gap, gap, "core budget excludes 3 blocks", "core budget excludes 3 blocks (none new since pass #1)", "now excludes"},
		{"one fell out", gap[:2], gap, "core budget excludes 2 blocks",
			"core budget excludes 3 blocks; fell out since pass #1: ^c27fe4ed", "^60669bf1"},
		{"one back in", gap, gap[1:], "core budget excludes 3 blocks",
			"core budget excludes 2 blocks (none new since pass #1); back in: ^60669bf1", "fell out"},
		{"all back in", gap[:1], nil, "core budget excludes 1 block", "core budget excludes no block; back in: ^60669bf1", "fell out"},
		{"no gap", nil, nil, "", "", "core budget"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPasses(newCommon(termenv.Ascii))
			p.SetSize(120, 30)
			p.Update(PassesLoaded{Passes: []result.PassReport{
				{Pass: 2, Time: "2026-11-01T08:07:00Z", Model: "offline", CoreGap: tt.newer},
				{Pass: 1, Time: "2026-11-01T08:06:00Z", Model: "offline", Revision: 4, CoreGap: tt.older},
			}})
			v := ansi.Strip(p.View())
			if !strings.Contains(v, tt.want) || (tt.not != "" && strings.Contains(v, tt.not)) {
				t.Errorf("pass #2: want %q, not %q:\n%s", tt.want, tt.not, v)
			}
			p.Update(tea.KeyMsg{Type: tea.KeyDown})
			v = ansi.Strip(p.View())
			if !strings.Contains(v, tt.wantOld) || strings.Contains(v, "since pass") || strings.Contains(v, "now excludes") {
				t.Errorf("pass #1 (the oldest): want %q and no comparison:\n%s", tt.wantOld, v)
			}
		})
	}
}

func TestPasses_DetailsWrapBetweenFields(t *testing.T) {
	p := NewPasses(newCommon(termenv.Ascii))
	p.Update(PassesLoaded{Passes: []result.PassReport{{Pass: 1, Time: "2026-11-01T08:06:00Z", Model: "offline",
		Revision: 4, CoreGap: []string{"60669bf1"}}}})
	for w := 40; w <= 160; w++ {
		p.SetSize(w, 30)
		v := ansi.Strip(p.View())
		if !strings.Contains(v, "revision 4") {
			t.Fatalf("width %d: no revision in the details:\n%s", w, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if i := strings.Index(l, "│ "); i >= 0 {
				l = l[i+len("│ "):]
			}
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "·") || strings.HasSuffix(l, "·") {
				t.Errorf("width %d: a details line starts or ends with a separator: %q", w, l)
			}
		}
	}
}

func TestWideDetails_NoRuleBesideTheDivider(t *testing.T) {
	c := newCommon(termenv.Ascii)
	pend := NewPending(c)
	pend.Update(PendingLoaded{Sources: pendingFixture()})
	passes := NewPasses(c)
	passes.Update(PassesLoaded{Passes: []result.PassReport{{Pass: 1, Time: "2026-11-01T08:06:00Z", Model: "offline"}}})
	for _, tt := range []struct {
		name    string
		p       Component
		wide    int
		stacked int
	}{{"pending", pend, 120, 80}, {"passes", passes, 120, 80}} {
		t.Run(tt.name, func(t *testing.T) {
			tt.p.SetSize(tt.wide, 24)
			if v := ansi.Strip(tt.p.View()); strings.Contains(v, "│ ───") {
				t.Errorf("side by side, the right column starts with a rule:\n%s", v)
			}
			tt.p.SetSize(tt.stacked, 24)
			if v := ansi.Strip(tt.p.View()); !strings.Contains(v, strings.Repeat("─", tt.stacked)) {
				t.Errorf("stacked, no rule between list and details:\n%s", v)
			}
		})
	}
}

func TestStripFootnotes_Cases(t *testing.T) {
	tests := []struct {
		name, in string
		cut      bool
		want     string
	}{
		{"whole", "due April.[^e-1175dea39c] Next.[^x]", false, "due April. Next."},
		{"cut in half", "due April.[^e-1175", true, "due April."},
		{"cut at the bracket", "due April.[", true, "due April."},
		{"complete keeps a bracket", "a [", false, "a ["},
		{"link kept", "see [docs](x)", true, "see [docs](x)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stripFootnotes(tt.in, tt.cut); got != tt.want {
				t.Errorf("stripFootnotes(%q, %v) = %q, want %q", tt.in, tt.cut, got, tt.want)
			}
		})
	}
}

func TestWrapParts_Cases(t *testing.T) {
	parts := []string{"pass 1", "2026-11-01T08:06:00Z", "model offline", "revision 4"}
	tests := []struct {
		w    int
		want []string
	}{
		{80, []string{"pass 1 · 2026-11-01T08:06:00Z · model offline · revision 4"}},
		{45, []string{"pass 1 · 2026-11-01T08:06:00Z · model offline", "revision 4"}},
		{20, []string{"pass 1", "2026-11-01T08:06:00Z", "model offline", "revision 4"}},
	}
	for _, tt := range tests {
		if got := WrapParts(parts, " · ", tt.w); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("WrapParts(w=%d) = %q, want %q", tt.w, got, tt.want)
		}
	}
	// A part wider than the line is wrapped on its own.
	got := WrapParts([]string{"a", "model offline", "b"}, " · ", 8)
	if want := []string{"a", "model", "offline", "b"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("WrapParts(long part) = %q, want %q", got, want)
	}
	if got := WrapParts(nil, " · ", 8); len(got) != 0 {
		t.Errorf("WrapParts(nil) = %q, want no line", got)
	}
}

func TestSearch_EmptyQueryAsksForOne(t *testing.T) {
	s := NewSearch(newCommon(termenv.Ascii))
	s.SetSize(80, 20)
	s.Update(runes("/"))
	_, cmd := s.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if n, ok := cmd().(Notice); !ok || !strings.Contains(n.Text, "type a query") {
		t.Fatalf("enter on an empty query sent %#v", cmd())
	}
}

func TestSearch_StaleResultsIgnored(t *testing.T) {
	s := NewSearch(newCommon(termenv.Ascii))
	s.SetSize(80, 20)
	s.Update(runes("/"))
	for _, r := range "copper" {
		s.Update(runes(string(r)))
	}
	s.Update(tea.KeyMsg{Type: tea.KeyEnter})
	s.Update(SearchDone{Query: result.SearchQuery{Text: "old"}, Results: []result.SearchResult{{Kind: "topic"}}})
	if len(s.Results()) != 0 {
		t.Fatal("results of another query were shown")
	}
}

func TestDialog_OnlyYConfirms(t *testing.T) {
	d := NewDialog(newCommon(termenv.Ascii), Confirm{Prompt: "Do it?", Action: RunSleep{}})
	tests := []struct {
		key  tea.KeyMsg
		want bool
	}{
		{runes("y"), true}, {runes("Y"), false}, {runes("n"), false}, {tea.KeyMsg{Type: tea.KeyEnter}, false},
	}
	for _, tt := range tests {
		if got := d.Accepts(tt.key); got != tt.want {
			t.Errorf("Accepts(%q) = %v, want %v", tt.key.String(), got, tt.want)
		}
	}
	for _, w := range []int{1, 5, 12, 40} {
		for _, l := range strings.Split(d.View(w), "\n") {
			if ansi.StringWidth(l) > w {
				t.Errorf("dialog at width %d has a line of %d cells", w, ansi.StringWidth(l))
			}
		}
	}
}
