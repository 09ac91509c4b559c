package sleep

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/workspace/topic"
)

// The offline organiser is the deterministic part of the sleep pass
// (SPEC §9). It works on an in-memory copy of the topic files in three
// phases and turns the result into an ordinary transaction:
//
//  1. Merge duplicates. Two trusted blocks are duplicates when their
//     normalised text is equal (NFKC, case-folded, punctuation and
//     whitespace ignored, footnote references dropped, link destinations
//     compared by the block they resolve to), or when they are near
//     duplicates: both have at least nearDupMinTokens distinct tokens, the
//     Jaccard similarity of their token sets is at least 0.9, they hold the
//     same numbers and the same links, the tokens they share come in the
//     same order, and no negation word is among the tokens they do not
//     share. The guards matter because a set ignores order ("Alice owes
//     Bob" / "Bob owes Alice") and a single token can flip a fact (a date,
//     "not"). The first block wins, with topics/core.md first so a merge
//     never takes a fact out of the always-visible set: it keeps its id and
//     text and gains the footnotes of the other (citations it already has
//     are not repeated); the other block is dropped and every link to it
//     is redirected. Pending blocks, blocks whose id is not unique and
//     blocks in files with format errors are never merged.
//  2. Split oversized files: a topic file over the token threshold (never
//     topics/core.md, never a file with violations) gives each "## "
//     section that holds a block its own file, topics/x.md ->
//     topics/x/<section-slug>.md. Ids are kept; footnote definitions travel
//     with the blocks that use them (copied when both parts use one),
//     citation and link paths are rebased for the new directory.
//  3. Repair links: every block link whose target file does not hold the
//     block (it moved, now or earlier) is rewritten to wherever the block
//     is now, found by id.
//
// Files are re-rendered with topic.File.Render, except files with format
// errors, whose bytes only ever get link targets substituted.

var footnoteRefRE = regexp.MustCompile(`\[\^[^\]\s]*\]`)

// nearDupMinTokens is the size below which only exact duplicates merge: in
// a short sentence one token is too much of the meaning.
const nearDupMinTokens = 8

// negations are words whose presence on one side only flips a fact, so a
// near-duplicate that differs by one of them is not merged.
var negations = map[string]bool{
	"not": true, "no": true, "never": true, "none": true, "nothing": true, "nobody": true, "neither": true,
	"nor": true, "without": true, "cannot": true, "t": true, "nicht": true, "kein": true, "keine": true,
	"nie": true, "pas": true, "jamais": true, "non": true, "ne": true,
	"不": true, "没": true, "無": true, "无": true, "非": true, "未": true, "别": true, "別": true, "勿": true, "否": true,
}

// orgFile is one topic file as the organiser changes it.
type orgFile struct {
	path string
	orig []byte // nil: created by this pass
	data []byte
	file *topic.File
	// broken files have format errors: never re-rendered, never merged or
	// split; only their link targets are rewritten, byte-wise.
	broken bool
	// clean files have no violation at all and may be split.
	clean bool
}

func (f *orgFile) setElements(els []topic.Element) {
	f.setData((&topic.File{Elements: els}).Render())
}

func (f *orgFile) setData(data []byte) {
	f.data = data
	f.file, _ = topic.Parse(data)
}

// organiser holds one offline pass's working state.
type organiser struct {
	files       map[string]*orgFile
	order       []string // existing paths sorted, then files this pass creates
	redirect    map[string]string
	trusted     map[string]bool // block ids that may be merged
	splitTokens int
	checkPath   func(string) string
}

func newOrganiser(v *engine.View, splitTokens int, checkPath func(string) string) *organiser {
	o := &organiser{files: map[string]*orgFile{}, redirect: map[string]string{}, trusted: map[string]bool{},
		splitTokens: splitTokens, checkPath: checkPath}
	bad := map[string]bool{}
	for _, viol := range v.Violations() {
		bad[viol.Path] = true
	}
	count := map[string]int{}
	for _, p := range v.TopicPaths() {
		data, file, _ := v.Topic(p)
		f := &orgFile{path: p, orig: data, data: data, file: file, clean: !bad[p]}
		for _, pr := range v.TopicProblems(p) {
			if pr.Severity == topic.SeverityError {
				f.broken = true
			}
		}
		o.files[p] = f
		o.order = append(o.order, p)
		for _, b := range file.Blocks() {
			count[b.BlockID]++
			if !f.broken && v.BlockTrusted(p, b) {
				o.trusted[b.BlockID] = true
			}
		}
	}
	for id, n := range count {
		if n > 1 {
			delete(o.trusted, id)
		}
	}
	return o
}

// run performs the three phases and returns the pass's edits.
func (o *organiser) run() []result.Edit {
	o.mergeDuplicates()
	o.splitOversized()
	o.repairLinks()
	var edits []result.Edit
	for _, p := range o.order {
		f := o.files[p]
		content := string(f.data)
		switch {
		case f.orig == nil:
			edits = append(edits, result.Edit{Op: "create", Path: p, Content: &content})
		case !bytes.Equal(f.orig, f.data):
			edits = append(edits, result.Edit{Op: "replace", Path: p, Content: &content})
		}
	}
	return edits
}

// repairLinks points every block link at the file that holds the block
// now, following merges.
func (o *organiser) repairLinks() {
	loc := map[string]string{}
	ambiguous := map[string]bool{}
	holds := map[string]map[string]bool{}
	for _, p := range o.order {
		holds[p] = map[string]bool{}
		for _, b := range o.files[p].file.Blocks() {
			holds[p][b.BlockID] = true
			if prev, ok := loc[b.BlockID]; ok && prev != p {
				ambiguous[b.BlockID] = true
				continue
			}
			loc[b.BlockID] = p
		}
	}
	for _, p := range o.order {
		f := o.files[p]
		subs := map[string]string{}
		for _, el := range f.file.Elements {
			for _, l := range el.Links {
				if l.BlockID == "" {
					continue
				}
				id := o.follow(l.BlockID)
				cur := p
				if l.Path != "" {
					cur = topic.ResolvePath(p, l.Path)
				}
				if id == l.BlockID && holds[cur][id] {
					continue
				}
				want, ok := loc[id]
				if !ok || ambiguous[id] {
					continue // nowhere (or nowhere unique) to point it: left as it is
				}
				nt := "#^" + id
				if want != p {
					nt = topic.EscapePath(topic.RelPath(p, want)) + nt
				}
				if nt != l.Target {
					subs[l.Target] = nt
				}
			}
		}
		if len(subs) == 0 {
			continue
		}
		if f.broken {
			f.setData([]byte(replaceTargets(string(f.data), subs)))
			continue
		}
		els := slices.Clone(f.file.Elements)
		for i := range els {
			els[i].Raw = replaceTargets(els[i].Raw, subs)
		}
		f.setElements(els)
	}
}

// follow resolves a merged-away id to the block that absorbed it.
func (o *organiser) follow(id string) string {
	for range len(o.redirect) + 1 {
		to, ok := o.redirect[id]
		if !ok {
			return id
		}
		id = to
	}
	return id
}

// replaceTargets rewrites Markdown link destinations "](old)" (and
// "](<old>)") to their new values. A destination must be followed by ")"
// or by the space before a title to count, so a longer path that merely
// starts with old is left alone.
func replaceTargets(s string, subs map[string]string) string {
	if len(subs) == 0 {
		return s
	}
	keys := make([]string, 0, len(subs))
	for k := range subs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(s[i:], "](")
		if j < 0 {
			break
		}
		j += i + 2
		b.WriteString(s[i:j])
		i = j
		angle := i < len(s) && s[i] == '<'
		start := i
		if angle {
			start++
		}
		for _, k := range keys {
			end := start + len(k)
			if !strings.HasPrefix(s[start:], k) || end >= len(s) {
				continue
			}
			c := s[end]
			if angle && c == '>' || !angle && strings.IndexByte(") \t\r\n", c) >= 0 {
				if angle {
					b.WriteByte('<')
				}
				b.WriteString(subs[k])
				i = end
				break
			}
		}
	}
	b.WriteString(s[i:])
	return b.String()
}
