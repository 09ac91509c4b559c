package render

import (
	"strings"
)

// DefaultCoreBudget is the core.md token budget when the configuration sets
// none (SPEC §8).
const DefaultCoreBudget = 2000

// CoreTopicPath is the workspace path of the canonical core topic.
const CoreTopicPath = "topics/core.md"

// CoreReport says what a core render did (SPEC §8, the `core` verb). Its
// JSON form is the `core` verb's output.
type CoreReport struct {
	// Budget is the token budget the render was asked to respect.
	Budget int `json:"budget"`
	// Tokens is the o200k_base token count of the rendered output.
	Tokens int `json:"tokens"`
	// Included are the ids of the rendered blocks, in file order.
	Included []string `json:"included"`
	// Excluded are the ids of trusted blocks left out: the first block that
	// did not fit and every trusted block after it, in file order.
	Excluded []string `json:"excluded"`
	// Pending are the ids of untrusted blocks, skipped, in file order.
	Pending []string `json:"pending"`
	// Costs maps every block id to the tokens of a render holding that
	// block alone (its text and its footnotes). It is for display: costs
	// of several blocks do not add up to Tokens exactly, since separators
	// and shared footnotes are counted once.
	Costs map[string]int `json:"-"`
	// Running maps each included block, and the first block that did not
	// fit, to the tokens of core.md with every block up to it: the running
	// total the budget is checked against.
	Running map[string]int `json:"-"`
}

// coreBlock is a block prepared for the core render: its text and footnote
// definitions with links rebased from the topic's directory to the
// workspace root, where core.md lives.
type coreBlock struct {
	raw   string
	notes []coreNote
}

// coreNote is one rebased footnote definition.
type coreNote struct {
	label, def string
}

// coreDoc accumulates the blocks and footnotes of a core render.
type coreDoc struct {
	blocks []string
	notes  []string
	seen   map[string]bool
}

// add appends b and its not yet seen footnotes, and returns a function
// that undoes the addition.
func (d *coreDoc) add(b coreBlock) (undo func()) {
	nb, nn := len(d.blocks), len(d.notes)
	var added []string
	d.blocks = append(d.blocks, b.raw)
	for _, n := range b.notes {
		key := n.label
		if key == "" {
			key = n.def
		}
		if d.seen[key] {
			continue
		}
		d.seen[key] = true
		added = append(added, key)
		d.notes = append(d.notes, n.def)
	}
	return func() {
		d.blocks, d.notes = d.blocks[:nb], d.notes[:nn]
		for _, l := range added {
			delete(d.seen, l)
		}
	}
}

// segments returns the blocks and then the footnote definitions: the
// pieces String joins with blank lines.
func (d *coreDoc) segments() []string {
	return append(d.blocks[:len(d.blocks):len(d.blocks)], d.notes...)
}

// String renders the document: blocks separated by blank lines, a blank
// line, then the footnote definitions separated by blank lines (so the
// result is itself a well-formed topic file), and a final newline.
func (d *coreDoc) String() string {
	if len(d.blocks) == 0 {
		return ""
	}
	var b strings.Builder
	for i, s := range d.blocks {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s)
	}
	for _, s := range d.notes {
		b.WriteString("\n\n")
		b.WriteString(s)
	}
	b.WriteString("\n")
	return b.String()
}

// Core renders core.md from the core topic under a token budget (SPEC §8).
// Blocks are taken in file order while the whole output, counted exactly
// with o200k_base, stays within budget; the first trusted block that does
// not fit and every trusted block after it are excluded, however small.
// Untrusted blocks are skipped and only their ids are reported. Links are
// rewritten to be relative to the workspace root, where core.md lives. A
// render with no included block is empty.
func Core(coreTopic Topic, budget int) (out []byte, rep CoreReport) {
	from := coreTopic.Path
	if from == "" {
		from = CoreTopicPath
	}
	blocks := make([]coreBlock, len(coreTopic.Blocks))
	for i, b := range coreTopic.Blocks {
		blocks[i] = prepareCore(b, from)
	}
	fast := segCounts{}.docTokens
	s, rep, check := coreRender(coreTopic.Blocks, blocks, budget, fast)
	if !check {
		// The cached sums disagreed with a full count (see count.go):
		// decide every block by counting its candidate in full.
		s, rep, _ = coreRender(coreTopic.Blocks, blocks, budget, exactTokens)
	}
	for i, b := range blocks {
		d := &coreDoc{seen: map[string]bool{}}
		d.add(b)
		rep.Costs[coreTopic.Blocks[i].ID] = fast(d)
	}
	if s == "" {
		return nil, rep
	}
	return []byte(s), rep
}

// exactTokens counts a core document in full.
func exactTokens(d *coreDoc) int { return CountTokens(d.String()) }

// coreRender runs the budget loop of Core with the given counter. It
// returns the output, the report without costs, and whether full counts of
// the output and of the first rejected candidate agreed with count.
func coreRender(src []Block, blocks []coreBlock, budget int, count func(*coreDoc) int) (string, CoreReport, bool) {
	rep := CoreReport{
		Budget:   budget,
		Included: []string{},
		Excluded: []string{},
		Pending:  []string{},
		Costs:    make(map[string]int, len(src)),
		Running:  make(map[string]int, len(src)),
	}
	doc := &coreDoc{seen: map[string]bool{}}
	full := budget <= 0
	agree := true
	for i, blk := range src {
		switch {
		case !blk.Trusted:
			rep.Pending = append(rep.Pending, blk.ID)
		case full:
			rep.Excluded = append(rep.Excluded, blk.ID)
		default:
			undo := doc.add(blocks[i])
			n := count(doc)
			rep.Running[blk.ID] = n
			if n > budget {
				agree = agree && n == CountTokens(doc.String())
				undo()
				full = true
				rep.Excluded = append(rep.Excluded, blk.ID)
				continue
			}
			rep.Included = append(rep.Included, blk.ID)
		}
	}
	s := doc.String()
	rep.Tokens = CountTokens(s)
	if len(rep.Included) > 0 {
		agree = agree && rep.Tokens == count(doc)
	}
	return s, rep, agree
}

// prepareCore rebases a block and its footnotes for the core render. Outer
// newlines are dropped so the blank-line separators stay exactly one line.
func prepareCore(b Block, from string) coreBlock {
	cb := coreBlock{raw: rebaseLinks(strings.Trim(b.Raw, "\r\n"), from)}
	for _, f := range b.Footnotes {
		cb.notes = append(cb.notes, coreNote{
			label: f.Label,
			def:   rebaseLinks(strings.Trim(f.Raw, "\r\n"), from),
		})
	}
	return cb
}
