package views

import (
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"scriptorium/engine/result"
)

// topicsFocus is the column of the topics pane that has the cursor.
type topicsFocus int

const (
	focusTree topicsFocus = iota
	focusBlocks
	focusNotes
)

// Topics is pane 2: the topic tree, the blocks of the selected file with
// trust badges, the selected block rendered with glamour and its footnotes;
// enter on a footnote's source drills down to the archive.
type Topics struct {
	c    *Common
	w, h int

	topics  []result.TopicSummary
	loaded  bool
	err     error
	tree    []treeRow
	files   []int // indexes into tree of the file rows
	cur     int   // index into files
	treeOff int

	path        string // the selected file
	topic       result.TopicView
	topicLoaded bool
	topicErr    error
	block       int
	blockOff    int
	note        int // index into noteRows of a source row
	noteOff     int
	focus       topicsFocus

	want struct{ path, id string } // an OpenBlock waiting for its data
	md   *mdCache
}

type treeRow struct {
	depth int
	name  string
	topic int // index into topics; -1 for a directory
}

// noteRow is one line of the footnote list: a footnote header or one of
// its sources.
type noteRow struct {
	num   int // the footnote's number, as the block's text shows it
	label string
	time  string
	src   *result.CitationView
	link  *blockLink // a link of the block's text, followed with enter
}

// NewTopics returns the topics pane.
func NewTopics(c *Common) *Topics { return &Topics{c: c, md: newMDCache()} }

// Title implements Component.
func (p *Topics) Title() string { return "Topics" }

// Init implements Component.
func (p *Topics) Init() tea.Cmd { return p.Refresh() }

// Refresh implements Component.
func (p *Topics) Refresh() tea.Cmd {
	cmds := []tea.Cmd{Send(LoadTopics{})}
	if p.path != "" {
		cmds = append(cmds, Send(LoadTopic{Path: p.path}))
	}
	return tea.Batch(cmds...)
}

// Capturing implements Component.
func (p *Topics) Capturing() bool { return false }

// SetSize implements Component.
func (p *Topics) SetSize(w, h int) { p.w, p.h = w, h }

// Path returns the selected file.
func (p *Topics) Path() string { return p.path }

// Block returns the selected block.
func (p *Topics) Block() (result.BlockView, bool) {
	if !p.topicLoaded || p.block >= len(p.topic.Blocks) {
		return result.BlockView{}, false
	}
	return p.topic.Blocks[p.block], true
}

// ShortHelp implements help.KeyMap.
func (p *Topics) ShortHelp() []key.Binding {
	k := p.c.Keys.Topics
	switch p.focus {
	case focusNotes:
		return append([]key.Binding{k.Open, k.Back}, curateHelp(k.Curate)...)
	case focusBlocks:
		return append([]key.Binding{k.Right, k.Left}, curateHelp(k.Curate)...)
	}
	return []key.Binding{k.Right, k.Left}
}

// FullHelp implements help.KeyMap.
func (p *Topics) FullHelp() [][]key.Binding {
	k := p.c.Keys.Topics
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Open, k.Right, k.Left, k.Back},
		curateHelp(k.Curate)}
}

// Update implements Component.
func (p *Topics) Update(msg tea.Msg) (Component, tea.Cmd) {
	switch msg := msg.(type) {
	case TopicsLoaded:
		p.loaded = true
		p.err = msg.Err
		if msg.Err != nil {
			return p, nil
		}
		return p, p.setTopics(msg.Topics)
	case TopicLoaded:
		if !samePath(msg.Path, p.path) {
			return p, nil
		}
		return p, p.setTopic(msg.Topic, msg.Err)
	case OpenBlock:
		return p, p.openBlock(msg.Path, msg.ID)
	case BlockMoved:
		// The block the owner moved from this file is followed to its new
		// one: the refresh after the move loads that file, not this one,
		// which may be gone.
		if msg.Err == nil && samePath(msg.Result.From, p.path) && p.focus > focusTree {
			p.want.path, p.want.id = msg.Result.To, msg.Result.ID
			p.path, p.topicLoaded = msg.Result.To, false
		}
	case BlockDeleted:
		if msg.Err == nil && msg.Result.FileDeleted && samePath(msg.Result.Path, p.path) {
			p.path, p.topicLoaded, p.focus = "", false, focusTree // the refresh selects a file that is there
		}
	case mdRendered:
		p.md.store(msg)
	case SizeChanged:
		return p, p.renderCmd()
	case tea.KeyMsg:
		return p, p.handleKey(msg)
	}
	return p, nil
}

func (p *Topics) handleKey(msg tea.KeyMsg) tea.Cmd {
	k := p.c.Keys.Topics
	page := max(p.h/2, 1)
	switch {
	case key.Matches(msg, k.Up):
		return p.move(-1)
	case key.Matches(msg, k.Down):
		return p.move(1)
	case key.Matches(msg, k.PageUp):
		return p.move(-page)
	case key.Matches(msg, k.PageDown):
		return p.move(page)
	case key.Matches(msg, k.Top):
		return p.move(-1 << 20)
	case key.Matches(msg, k.Bottom):
		return p.move(1 << 20)
	case key.Matches(msg, k.Open):
		if p.focus == focusNotes {
			return p.drill()
		}
		p.deeper()
	case key.Matches(msg, k.Right):
		p.deeper()
	case key.Matches(msg, k.Left), key.Matches(msg, k.Back):
		if p.focus > focusTree {
			p.focus--
		}
	default:
		b, ok := p.Block()
		if !ok {
			return nil
		}
		if p.focus == focusTree {
			if _, curating := curateKey(k.Curate, msg, "", "", ""); curating {
				return Send(Notice{Text: "choose a block first (→ or enter), then E edits, D deletes, M moves it"})
			}
			return nil
		}
		cmd, _ := curateKey(k.Curate, msg, b.Ref, b.Path, b.Text)
		return cmd
	}
	return nil
}

func (p *Topics) deeper() {
	switch p.focus {
	case focusTree:
		if p.topicLoaded && len(p.topic.Blocks) > 0 {
			p.focus = focusBlocks
		}
	case focusBlocks:
		if p.firstSourceRow() >= 0 {
			p.focus = focusNotes
			p.note = p.firstSourceRow()
		}
	}
}

func (p *Topics) move(delta int) tea.Cmd {
	switch p.focus {
	case focusTree:
		next := clamp(p.cur+delta, 0, len(p.files)-1)
		if next == p.cur || len(p.files) == 0 {
			return nil
		}
		p.cur = next
		return p.selectFile(p.topics[p.tree[p.files[p.cur]].topic].Path)
	case focusBlocks:
		next := clamp(p.block+delta, 0, len(p.topic.Blocks)-1)
		if next != p.block {
			p.block = next
			p.note = p.firstSourceRow()
			return p.renderCmd()
		}
	case focusNotes:
		rows := p.noteRows()
		var sources []int
		for i, r := range rows {
			if r.selectable() {
				sources = append(sources, i)
			}
		}
		at := 0
		for i, r := range sources {
			if r == p.note {
				at = i
			}
		}
		if len(sources) > 0 {
			p.note = sources[clamp(at+delta, 0, len(sources)-1)]
		}
	}
	return nil
}

// selectFile makes path the selected file and asks for it.
func (p *Topics) selectFile(path string) tea.Cmd {
	p.path = path
	p.topicLoaded = false
	p.topicErr = nil
	p.block, p.blockOff, p.note, p.noteOff = 0, 0, 0, 0
	return Send(LoadTopic{Path: path})
}

func (p *Topics) drill() tea.Cmd {
	rows := p.noteRows()
	if p.note < 0 || p.note >= len(rows) || !rows[p.note].selectable() {
		return nil
	}
	if l := rows[p.note].link; l != nil {
		return l.follow()
	}
	c := rows[p.note].src
	return Send(OpenArchive{Path: c.Path, Anchor: c.Anchor})
}

func (p *Topics) openBlock(path, id string) tea.Cmd {
	p.want.path, p.want.id = path, id
	p.focus = focusBlocks
	if !p.loaded {
		return nil
	}
	return p.applyWant()
}

// applyWant moves the tree cursor to the wanted file and loads it; the
// block is selected when the file arrives.
func (p *Topics) applyWant() tea.Cmd {
	path := p.want.path
	for i, row := range p.files {
		if t := p.topics[p.tree[row].topic]; samePath(t.Path, path) {
			p.cur, path = i, t.Path
			break
		}
	}
	return p.selectFile(path)
}

func (p *Topics) setTopics(ts []result.TopicSummary) tea.Cmd {
	p.topics = append([]result.TopicSummary(nil), ts...)
	sort.Slice(p.topics, func(i, j int) bool { return p.topics[i].Path < p.topics[j].Path })
	p.buildTree()
	if p.want.path != "" {
		return p.applyWant()
	}
	for i, row := range p.files {
		if samePath(p.topics[p.tree[row].topic].Path, p.path) {
			p.cur = i
			return nil // the refresh that brought this also reloads the file
		}
	}
	if len(p.files) == 0 {
		p.path, p.topicLoaded = "", false
		return nil
	}
	p.cur = clamp(p.cur, 0, len(p.files)-1)
	p.focus = focusTree
	return p.selectFile(p.topics[p.tree[p.files[p.cur]].topic].Path)
}

func (p *Topics) buildTree() {
	p.tree, p.files = p.tree[:0], p.files[:0]
	var open []string // directories of the previous file
	for i, t := range p.topics {
		parts := strings.Split(strings.TrimPrefix(t.Path, "topics/"), "/")
		dirs := parts[:len(parts)-1]
		common := 0
		for common < len(dirs) && common < len(open) && dirs[common] == open[common] {
			common++
		}
		for d := common; d < len(dirs); d++ {
			p.tree = append(p.tree, treeRow{depth: d, name: dirs[d] + "/", topic: -1})
		}
		open = dirs
		p.files = append(p.files, len(p.tree))
		p.tree = append(p.tree, treeRow{depth: len(dirs), name: parts[len(parts)-1], topic: i})
	}
}

func (p *Topics) setTopic(t result.TopicView, err error) tea.Cmd {
	var keep string
	if b, ok := p.Block(); ok {
		keep = b.Ref
	}
	if p.want.id != "" {
		keep = strings.TrimPrefix(p.want.id, "^")
		p.want.path, p.want.id = "", ""
	}
	p.topicErr = err
	if err != nil {
		p.topicLoaded = false
		if p.focus > focusTree {
			p.focus = focusTree
		}
		return nil
	}
	p.topic = t
	p.topicLoaded = true
	p.block = clamp(p.block, 0, len(t.Blocks)-1)
	for i, b := range t.Blocks {
		if b.Ref == keep {
			p.block = i
		}
	}
	switch {
	case len(t.Blocks) == 0:
		p.focus = focusTree
	case p.focus == focusNotes && p.noteValid():
	default:
		if p.focus == focusNotes {
			p.focus = focusBlocks
		}
		p.note = p.firstSourceRow()
	}
	return p.renderCmd()
}

func (p *Topics) noteValid() bool {
	rows := p.noteRows()
	return p.note >= 0 && p.note < len(rows) && rows[p.note].selectable()
}

// selectable reports whether enter acts on the row: a source or a link.
func (r noteRow) selectable() bool { return r.src != nil || r.link != nil }

func (p *Topics) noteRows() []noteRow {
	b, ok := p.Block()
	if !ok {
		return nil
	}
	var rows []noteRow
	for n, f := range b.Footnotes {
		rows = append(rows, noteRow{num: n + 1, label: f.Label, time: f.Time})
		for i := range f.Sources {
			rows = append(rows, noteRow{num: n + 1, label: f.Label, src: &f.Sources[i]})
		}
	}
	for _, l := range blockLinks(b) {
		rows = append(rows, noteRow{link: &l})
	}
	return rows
}

// blockText is a block's text with its footnote references shown as the
// numbers of the footnote list under it ("[1]"), escaped for glamour when
// markdown is set.
func blockText(b result.BlockView, markdown bool) string {
	labels := make([]string, len(b.Footnotes))
	for i, f := range b.Footnotes {
		labels[i] = f.Label
	}
	return markFootnotes(b.Text, footnoteOrder(b.Text, labels), markdown)
}

func (p *Topics) firstSourceRow() int {
	for i, r := range p.noteRows() {
		if r.selectable() {
			return i
		}
	}
	return -1
}

// samePath compares topic paths with or without the "topics/" prefix.
func samePath(a, b string) bool {
	return a == b || strings.TrimPrefix(a, "topics/") == strings.TrimPrefix(b, "topics/")
}

// layout returns the tree width (0 when the tree is hidden) and the right
// column width (0 when hidden).
func (p *Topics) layout() (tw, rw int) {
	if p.w >= 60 {
		tw = clamp(p.w*3/10, 20, 32)
		return tw, p.w - tw - 3
	}
	if p.focus == focusTree {
		return p.w, 0
	}
	return 0, p.w
}

// blockListHeight is the height of the block list in the right column:
// every block when they fit, leaving the selected block's detail what it
// needs (but never more than half the pane), so a long file does not sit
// in a third of the screen.
func (p *Topics) blockListHeight() int {
	n := len(p.topic.Blocks) + 1
	detail := p.h / 2
	if b, ok := p.Block(); ok {
		need := 3 + len(Wrap(Visible(blockText(b, false)), max(p.w/2, 20))) + len(p.noteRows()) + 1
		detail = min(detail, need)
	}
	return clamp(n, 2, max(2, p.h-detail))
}

func (p *Topics) renderCmd() tea.Cmd {
	b, ok := p.Block()
	if !ok {
		return nil
	}
	_, rw := p.layout()
	if rw == 0 {
		rw = p.w
	}
	return p.md.request(p.c.Markdown, mdKey{text: blockText(b, true), width: rw})
}
