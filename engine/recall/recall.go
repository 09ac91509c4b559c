// Package recall is the one recall function: what an agent is given for a
// prompt. The Claude Code prompt hook, MCP's memory_recall, the HTTP API
// and the CLI's `recall` verb all call Recall, so each gives an agent the
// same bytes for the same prompt. It also explains and reorders core.md
// (explain.go), the other half of "what a prompt is given".
//
// A recall spends its budget on memory, not on the transcript: distilled
// blocks are shown first; a source comes in only when no block in the
// recall cites it, so never a block together with the source it cites
// (hits.go: the hits are packed in the search's one rank order, the
// blocks under a heading the prompt names first, heading.go); footnote
// markers and role prefixes are dropped; each item carries its date and
// its topic (the citation's path). For a coding session the project's own
// topic file (topics/projects/<project>.md, the project named by the
// session's working directory as the writer names it) comes before the
// search hits. Pending content never appears: the engine's read
// (engine.TrustedTopics) gives only trusted blocks and search never returns
// pending sources.
package recall

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"scriptorium/engine"
	memfence "scriptorium/engine/fence"
	"scriptorium/engine/result"
	"scriptorium/engine/result/prompt"
	"scriptorium/memo"
	"scriptorium/render"
	"scriptorium/workspace/topic"
)

// Item, Result and Request are defined in engine/result/prompt, which the
// small hook client (cmd/scriptorium-hook) links without the engine.
type (
	// Item is one piece of a recall, in the order it appears inside the fence.
	Item = prompt.Item
	// Result is the per-prompt context a host adds to a turn.
	Result = prompt.Result
	// Request is one recall.
	Request = prompt.Request
)

// minHits is the fewest hits a recall asks search for; a larger budget
// asks for more (hitLimit), so the budget rather than the limit decides
// what fits.
const minHits = 10

// hitLimit is how many hits to ask for under a budget: about one per 25
// tokens (a hit line is 25–60), between minHits and 100.
func hitLimit(budget int) int { return min(max(budget/25, minHits), 100) }

// maxQueryRunes bounds the part of a message searched for: a pasted log is
// still a message to recall for, but only its start is a query.
const maxQueryRunes = 1000

// minSourceWords is the fewest words a source line must say to be
// recalled.
const minSourceWords = 3

// maxHitRunes is the longest block a hit shows whole.
const maxHitRunes = 400

// Section headings inside the fence: which part is the standing memory,
// which the project's, which was found for this prompt.
const (
	coreHeading    = "## Core memory\n\n"
	projectHeading = "## This project\n\n"
	hitsHeading    = "## Recalled for this prompt\n\n"
)

// Recall returns what a host adds to one prompt, within the budget
// counted in o200k_base tokens on the fenced text. Items are whole lines:
// the first that does not fit ends its section, and the sections come in
// order (core, project, hits), so a small budget keeps the core.
func Recall(ctx context.Context, e *engine.Engine, req Request) (Result, error) {
	budget := req.Budget
	if budget <= 0 {
		budget = e.Config().Recall.BudgetTokens
	}
	res := Result{Budget: budget, Items: []Item{}}
	// The project is the working directory's nearest ancestor memory has
	// a project file for (or its repository root), as the writer files it:
	// every ancestor's file is read, the nearest that exists is kept.
	topics := projectCandidates(req.Cwd)
	m, err := read(ctx, e, Query(req.Prompt), hitLimit(budget), topics)
	if err != nil {
		return res, err
	}
	project := ProjectTopic(topic.ProjectRoot(req.Cwd, func(slug string) bool {
		_, ok := m.Topics["topics/projects/"+slug+".md"]
		return ok
	}))
	for _, p := range topics {
		if p != project {
			delete(m.Topics, p)
		}
	}
	p := packer{budget: budget, cited: map[string]int{}, citesOf: map[string][]string{}, blocks: map[string]bool{}}
	// The core and the project's memory are in the owner's order: each
	// ends at its first block that does not fit.
	coreBudget := e.Config().Memory.Core.Budget
	for _, b := range m.Core {
		n := len(p.items)
		if !p.addBlock("core", b) {
			break
		}
		if len(p.items) == n {
			continue // nothing to say
		}
		if p.coreTokens += p.items[n].Tokens; p.coreTokens > coreBudget {
			p.dropLast() // past memory.core.budget: core.md would leave it out too
			break
		}
	}
	for _, b := range m.Topics[project] {
		if !p.addBlock("project", b) {
			break
		}
	}
	p.addHits(headingFirst(m.Hits, req.Prompt))
	if len(p.items) == 0 {
		return res, nil
	}
	// The estimate may have let the last items overshoot by a token or two.
	text := fence(p.items)
	tokens := countFenced(text)
	for tokens > budget {
		if p.items = p.items[:len(p.items)-1]; len(p.items) == 0 {
			return res, nil
		}
		text = fence(p.items)
		tokens = countFenced(text)
	}
	res.Items, res.Text, res.Tokens = p.items, text, tokens
	return res, nil
}

// lineTokens remembers the token counts of recalled lines: a resident
// process recalls the same core lines for every prompt, and counting them
// again was a quarter of its recall (BENCHMARKS.md, issue 26).
var lineTokens = memo.New(maxLineTokens, render.CountTokens)

const maxLineTokens = 8192

// countLine is render.CountTokens of one line, remembered.
func countLine(s string) int { return lineTokens.Get(s) }

// packer adds items while they fit.
type packer struct {
	budget  int
	total   int    // the estimated tokens of the fenced items
	section string // the heading of the last item
	items   []Item
	// coreTokens are the core section's: it stops at memory.core.budget.
	coreTokens int
	cited      map[string]int      // source-ids the recalled blocks cite, and recalled sources (how often)
	citesOf    map[string][]string // a recalled block's citations
	blocks     map[string]bool     // block ids recalled
}

// addBlock adds a block unless it is already recalled; false when it
// does not fit.
func (p *packer) addBlock(kind string, b Block) bool {
	if p.blocks[b.ID] {
		return true
	}
	text := cleanBlock(b.Text)
	if text == "" {
		return true // nothing to say is no reason to end a section
	}
	it := Item{Kind: kind, Ref: b.ID, Path: b.Path, Anchor: "^" + b.ID, Date: b.Date}
	it.Text = line(it, text)
	if !p.add(it) {
		return false
	}
	p.blocks[b.ID] = true
	p.citesOf[b.ID] = b.Cites
	for _, c := range b.Cites {
		p.cited[c]++
	}
	return true
}

// dropLast takes back the last item, a block.
func (p *packer) dropLast() {
	it := p.items[len(p.items)-1]
	p.items = p.items[:len(p.items)-1]
	delete(p.blocks, it.Ref)
	for _, c := range p.citesOf[it.Ref] {
		if p.cited[c]--; p.cited[c] <= 0 {
			delete(p.cited, c)
		}
	}
	p.total -= it.Tokens + 1
	if len(p.items) == 0 || heading(p.items[len(p.items)-1].Kind) != heading(it.Kind) {
		p.total -= headingTokens(heading(it.Kind))
		p.section = ""
		if len(p.items) > 0 {
			p.section = heading(p.items[len(p.items)-1].Kind)
		}
	}
}

// addSource adds a source hit's snippet, said by its speaker.
func (p *packer) addSource(r result.SearchResult) bool {
	it := Item{Kind: "source", Ref: r.Ref, Path: r.Path, Anchor: r.Anchor, Date: day(r.Time)}
	text := Clean(r.Snippet)
	// "Noted.", "ok thanks!": an acknowledgement carries no fact, and its
	// citation would cost more tokens than it says.
	if wordCount(text) < minSourceWords {
		return false
	}
	if who := speaker(r); who != "" {
		text = who + ": " + text
	}
	it.Text = line(it, text)
	if !p.add(it) {
		return false
	}
	p.cited[r.Ref]++
	return true
}

// add appends it when the fenced whole stays within the budget. Counting
// the whole fenced text for every candidate made a resident recall spend
// 70% of its time in the tokenizer (BENCHMARKS.md): the total is kept as
// the fence's, the headings' and the items' own counts added up, which is
// within a few tokens of the exact count; Recall takes the exact count at
// the end and drops the last items while it is over.
func (p *packer) add(it Item) bool {
	it.Tokens = countLine(it.Text)
	extra := it.Tokens + 1 // and its newline
	h := heading(it.Kind)
	if h != p.section {
		extra += headingTokens(h)
	}
	if p.total == 0 {
		p.total = fenceTokens()
	}
	if p.total+extra > p.budget {
		return false
	}
	p.items = append(p.items, it)
	p.total += extra
	p.section = h
	return true
}

var (
	countOnce     sync.Once
	fenceCount    int
	headingCounts map[string]int
)

func counts() {
	countOnce.Do(func() {
		fenceCount = render.CountTokens(memfence.Memory("x")) - render.CountTokens("x")
		headingCounts = map[string]int{}
		for _, h := range []string{coreHeading, projectHeading, hitsHeading} {
			headingCounts[h] = render.CountTokens("\n" + h)
		}
	})
}

// fenceTokens is what the fence and its note cost.
func fenceTokens() int { counts(); return fenceCount }

// headingTokens is what a section's heading (and the blank line before
// it) costs.
func headingTokens(h string) int { counts(); return headingCounts[h] }

// heading is the section an item kind goes under.
func heading(kind string) string {
	switch kind {
	case "core":
		return coreHeading
	case "project":
		return projectHeading
	}
	return hitsHeading
}

// line is an item as the agent reads it: its citation (cite), its date,
// and its text on one line.
func line(it Item, text string) string {
	var b strings.Builder
	b.WriteString("- [" + cite(it) + "]")
	if it.Date != "" {
		b.WriteString(" " + it.Date)
	}
	b.WriteString(" " + text)
	return b.String()
}

// cite is what an item's line cites: a block by its topic file and
// anchor (the file names the topic), a source by its source-id
// (<provider>/<thread>/<message-id>, which names the conversation and which
// `get` takes) rather than its archive path and anchor. The archive path
// repeats the conversation with a "sources/", a "_v2/" and a hash, about
// ten tokens a line: a sixth of a short source line, and the budget holds
// fewer answers for it (BENCHMARKS.md, "Answer in context, round six"). A
// source-id that is longer, or holds white space or brackets (the message
// id is free text), keeps the path and anchor.
func cite(it Item) string {
	long := it.Path + "#" + it.Anchor
	if it.Kind != "source" || it.Ref == "" || len(it.Ref) > len(long) ||
		strings.ContainsFunc(it.Ref, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune("[]()`<>", r) }) {
		return long
	}
	return it.Ref
}

// fence puts the items under their sections, fenced once.
func fence(items []Item) string {
	var b strings.Builder
	section := ""
	for _, it := range items {
		if h := heading(it.Kind); h != section {
			if section != "" {
				b.WriteString("\n")
			}
			b.WriteString(h)
			section = h
		}
		b.WriteString(it.Text + "\n")
	}
	return memfence.Memory(b.String())
}

// maxProjectDepth bounds the ancestors of a working directory that are
// looked up as projects.
const maxProjectDepth = 12

// projectCandidates are the project files of cwd and its ancestors,
// nearest first.
func projectCandidates(cwd string) []string {
	var out []string
	dir := strings.TrimRight(strings.ReplaceAll(cwd, `\`, "/"), "/")
	for i := 0; i < maxProjectDepth && dir != "" && dir != "." && dir != "/"; i++ {
		if p := ProjectTopic(dir); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
		parent := path.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return out
}

// ProjectTopic is the topic file of the project a working directory names,
// as the writer files a coding session's facts (distill.TopicFor:
// topics/projects/<slug of the directory's last element>.md); "" for "".
func ProjectTopic(cwd string) string {
	dir := strings.TrimRight(strings.ReplaceAll(cwd, `\`, "/"), "/")
	if dir == "" {
		return ""
	}
	slug := topic.Slug(path.Base(dir))
	if slug == "" {
		return ""
	}
	return "topics/projects/" + slug + ".md"
}

// Query turns a user's message into a search text: valid UTF-8, at most
// maxQueryRunes runes, "" when there is nothing to search for.
func Query(message string) string {
	if strings.TrimSpace(message) == "" {
		return ""
	}
	// A host passes the user's message as it came; bytes that are not
	// UTF-8 make it no less a message to recall for.
	text := strings.ToValidUTF8(message, " ")
	if r := []rune(text); len(r) > maxQueryRunes {
		text = string(r[:maxQueryRunes])
	}
	return text
}

var (
	footnoteRef = regexp.MustCompile(`\[\^[^\]\s]+\]`)
	// mdLink is a relative Markdown link: its text says what it is, its
	// target costs tokens the agent cannot follow.
	mdLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)\s]*\)`)
	listMarker = regexp.MustCompile(`(?m)^\s*(?:[-*+]|\d+[.)])\s+`)
	rolePrefix = regexp.MustCompile(`(?i)^(assistant|user|system|human|ai)\s*:\s*`)
)

// Clean is a block's or snippet's text as recall shows it: one line, no
// footnote markers, no role prefix, links as their text, a list's items
// joined by semicolons.
func Clean(text string) string {
	text = footnoteRef.ReplaceAllString(text, "")
	text = mdLink.ReplaceAllString(text, "$1")
	if listMarker.MatchString(text) {
		var parts []string
		for _, l := range strings.Split(listMarker.ReplaceAllString(text, ""), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				parts = append(parts, l)
			}
		}
		text = strings.Join(parts, "; ")
	}
	text = strings.Join(strings.Fields(text), " ")
	for {
		t := rolePrefix.ReplaceAllString(text, "")
		if t == text {
			return t
		}
		text = t
	}
}

// speaker is the name a source line is said by: a person's display name
// (the label without its speaker id, which `get` gives), else the label,
// never a role ("assistant", "user").
func speaker(r result.SearchResult) string {
	var l string
	switch {
	case r.SpeakerDisplay != nil && strings.TrimSpace(*r.SpeakerDisplay) != "":
		l = strings.TrimSpace(*r.SpeakerDisplay)
	case r.SpeakerLabel != nil:
		l = strings.TrimSpace(*r.SpeakerLabel)
	default:
		return ""
	}
	if rolePrefix.MatchString(l + ":") {
		return ""
	}
	return strings.Join(strings.Fields(l), " ")
}

// day is the date part of an RFC 3339 time.
func day(t string) string {
	if len(t) >= 10 {
		return t[:10]
	}
	return ""
}
