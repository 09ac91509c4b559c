package sleep

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"scriptorium/render"
	"scriptorium/workspace/topic"
)

// Phase 1 of the offline organiser: exact and near-duplicate merge.

// dupCand is one mergeable block with its comparison keys.
type dupCand struct {
	id, path string
	seq      []string        // tokens in text order
	distinct []string        // distinct tokens, rarest first once sorted
	set      map[string]bool // distinct tokens
	exact    string          // normalised text + links: equal means exact duplicate
	links    string
	digits   string
}

// mergeDuplicates compares every mergeable block with the representatives
// found so far (exact key first, then near duplicates through a prefix
// index) and folds each duplicate into the first block it matches.
func (o *organiser) mergeDuplicates() {
	fold := cases.Fold()
	var cands []*dupCand
	for _, p := range o.mergeOrder() {
		f := o.files[p]
		if f.broken {
			continue
		}
		for _, b := range f.file.Blocks() {
			if !o.trusted[b.BlockID] || !hasInlineID(b) {
				continue
			}
			if c := newDupCand(fold, p, b); len(c.seq) > 0 {
				cands = append(cands, c)
			}
		}
	}
	freq := map[string]int{}
	for _, c := range cands {
		for _, t := range c.distinct {
			freq[t]++
		}
	}
	for _, c := range cands {
		sort.Slice(c.distinct, func(i, j int) bool {
			a, b := c.distinct[i], c.distinct[j]
			if freq[a] != freq[b] {
				return freq[a] < freq[b]
			}
			return a < b
		})
	}
	exact := map[string]*dupCand{}
	var reps []*dupCand
	index := map[string][]int{} // prefix token -> indexes into reps
	for _, c := range cands {
		if r, ok := exact[c.exact]; ok && o.merge(r, c) {
			continue
		}
		if r := nearRep(c, reps, index); r != nil && o.merge(r, c) {
			continue
		}
		if _, ok := exact[c.exact]; !ok {
			exact[c.exact] = c
		}
		reps = append(reps, c)
		if len(c.distinct) >= nearDupMinTokens {
			for _, t := range c.distinct[:prefixLen(len(c.distinct))] {
				index[t] = append(index[t], len(reps)-1)
			}
		}
	}
}

// mergeOrder is topics/core.md first, then every other file in path order.
func (o *organiser) mergeOrder() []string {
	out := make([]string, 0, len(o.order))
	if _, ok := o.files[render.CoreTopicPath]; ok {
		out = append(out, render.CoreTopicPath)
	}
	for _, p := range o.order {
		if p != render.CoreTopicPath {
			out = append(out, p)
		}
	}
	return out
}

// prefixLen is the prefix-filter length for Jaccard 0.9: two sets with
// similarity >= 0.9 share a token among the first n - ceil(0.9 n) + 1
// tokens of each, in one global order. It keeps the search near-linear.
func prefixLen(n int) int { return n - (9*n+9)/10 + 1 }

// nearRep returns the earliest representative c is a near duplicate of.
func nearRep(c *dupCand, reps []*dupCand, index map[string][]int) *dupCand {
	if len(c.distinct) < nearDupMinTokens {
		return nil
	}
	seen := map[int]bool{}
	var ids []int
	for _, t := range c.distinct[:prefixLen(len(c.distinct))] {
		for _, i := range index[t] {
			if !seen[i] {
				seen[i] = true
				ids = append(ids, i)
			}
		}
	}
	sort.Ints(ids)
	for _, i := range ids {
		if nearDuplicate(reps[i], c) {
			return reps[i]
		}
	}
	return nil
}

// nearDuplicate applies the Jaccard test and its guards.
func nearDuplicate(a, b *dupCand) bool {
	na, nb := len(a.set), len(b.set)
	if na < nearDupMinTokens || nb < nearDupMinTokens || a.links != b.links || a.digits != b.digits {
		return false
	}
	if 10*min(na, nb) < 9*max(na, nb) {
		return false
	}
	inter := 0
	for t := range a.set {
		if b.set[t] {
			inter++
		} else if negations[t] {
			return false
		}
	}
	for t := range b.set {
		if !a.set[t] && negations[t] {
			return false
		}
	}
	if union := na + nb - inter; 10*inter < 9*union {
		return false
	}
	return slices.Equal(sharedOrder(a.seq, b.set), sharedOrder(b.seq, a.set))
}

// sharedOrder lists the tokens of seq that other also has, first
// occurrences only, in seq's order.
func sharedOrder(seq []string, other map[string]bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range seq {
		if other[t] && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func newDupCand(fold cases.Caser, path string, b topic.Element) *dupCand {
	text := topic.BlockText(b)
	var links []string
	for _, l := range b.Links {
		text = strings.ReplaceAll(text, "]("+l.Target+")", "]")
		text = strings.ReplaceAll(text, "](<"+l.Target+">)", "]")
		target := path
		if l.Path != "" {
			target = topic.ResolvePath(path, l.Path)
		}
		links = append(links, target+"#"+l.Anchor)
	}
	sort.Strings(links)
	links = slices.Compact(links)
	text = footnoteRefRE.ReplaceAllString(text, " ")
	c := &dupCand{id: b.BlockID, path: path, set: map[string]bool{}, links: strings.Join(links, "\x00")}
	c.seq = dupTokens(fold, text)
	var digits []string
	for _, t := range c.seq {
		if c.set[t] {
			continue
		}
		c.set[t] = true
		c.distinct = append(c.distinct, t)
		if strings.ContainsFunc(t, unicode.IsDigit) {
			digits = append(digits, t)
		}
	}
	sort.Strings(digits)
	c.digits = strings.Join(digits, " ")
	c.exact = strings.Join(c.seq, " ") + "\x00" + c.links
	return c
}

// dupTokens splits normalised text into words (runs of letters, digits and
// marks); Han, kana and Hangul characters are one token each because those
// scripts do not separate words with spaces.
func dupTokens(fold cases.Caser, text string) []string {
	text = fold.String(norm.NFKC.String(text))
	var out []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			out = append(out, word.String())
			word.Reset()
		}
	}
	for _, r := range text {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			flush()
			out = append(out, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			word.WriteRune(r)
		default:
			flush()
		}
	}
	flush()
	return out
}

// hasInlineID reports whether the block's id ends its last text line
// (" ^id"), where merged footnote references can be inserted.
func hasInlineID(b topic.Element) bool {
	_, ok := insertRefs(b.Raw, b.BlockID, []string{"x"})
	return ok
}

// insertRefs inserts footnote references just before a block's " ^id".
func insertRefs(raw, id string, labels []string) (string, bool) {
	i := strings.LastIndexByte(raw, '\n') + 1
	trimmed := strings.TrimRight(raw[i:], " \t\r")
	tail := " ^" + id
	if !strings.HasSuffix(trimmed, tail) || len(trimmed) == len(tail) {
		return raw, false
	}
	at := i + len(trimmed) - len(tail)
	var b strings.Builder
	b.WriteString(raw[:at])
	for _, l := range labels {
		b.WriteString("[^" + l + "]")
	}
	b.WriteString(raw[at:])
	return b.String(), true
}

// merge folds block d into block k: k keeps its id and text and gains d's
// footnotes (minus sources it already cites), d is dropped and recorded in
// the redirect map. It reports false, changing nothing, when it cannot.
func (o *organiser) merge(k, d *dupCand) bool {
	fk, fd := o.files[k.path], o.files[d.path]
	ki, di := blockIndex(fk.file, k.id), blockIndex(fd.file, d.id)
	if ki < 0 || di < 0 {
		return false
	}
	kEl, dEl := fk.file.Elements[ki], fd.file.Elements[di]
	kDefs, dDefs := fk.file.Definitions(), fd.file.Definitions()
	kLabels := refLabels(kEl)
	cited := map[string]bool{}
	for _, l := range kLabels {
		if def := kDefs[l]; def != nil {
			for _, c := range def.Sources {
				cited[c.SourceID] = true
			}
		}
	}
	var addRefs []string
	var newDefs []topic.Definition
	extended := map[string]*topic.Definition{}
	taken := func(label string) bool {
		if _, ok := kDefs[label]; ok {
			return true
		}
		for _, nd := range newDefs {
			if nd.Label == label {
				return true
			}
		}
		return false
	}
	for _, l := range refLabels(dEl) {
		dd := dDefs[l]
		if dd == nil {
			return false
		}
		var rest []topic.Citation
		for _, c := range dd.Sources {
			if !cited[c.SourceID] {
				cited[c.SourceID] = true
				rest = append(rest, rebaseCitation(c, fd.path, fk.path))
			}
		}
		if len(rest) == 0 {
			continue // k already cites every source of this footnote
		}
		// The same definition already stands in k's file: reference it.
		if kd, ok := kDefs[l]; ok && len(rest) == len(dd.Sources) && kd.Date == dd.Date &&
			sameCitations(kd.Sources, fk.path, rest, fk.path) {
			addRefs = append(addRefs, l)
			continue
		}
		// A footnote of the same date that only k uses: extend it.
		if lab := exclusiveFootnote(fk.file, kDefs, kLabels, dd.Date); lab != "" {
			ext := extended[lab]
			if ext == nil {
				cp := *kDefs[lab]
				cp.Sources = slices.Clone(cp.Sources)
				ext = &cp
				extended[lab] = ext
			}
			ext.Sources = append(ext.Sources, rest...)
			continue
		}
		lab := l
		if taken(lab) {
			if lab = topic.UniqueFootnoteLabel(l+"|"+k.id, taken); lab == "" {
				return false
			}
		}
		newDefs = append(newDefs, topic.Definition{Label: lab, Date: dd.Date, Sources: rest})
		addRefs = append(addRefs, lab)
	}
	raw, ok := kEl.Raw, true
	if len(addRefs) > 0 {
		if raw, ok = insertRefs(kEl.Raw, k.id, addRefs); !ok {
			return false
		}
	}

	els := slices.Clone(fk.file.Elements)
	els[ki].Raw = raw
	insertAt := ki + 1
	for i, el := range els {
		if el.Def == nil {
			continue
		}
		if ext, ok := extended[el.Def.Label]; ok {
			els[i].Raw = topic.FormatDefinition(*ext)
			delete(extended, el.Def.Label) // rewrite the first definition only
		}
		if slices.Contains(kLabels, el.Def.Label) && i+1 > insertAt {
			insertAt = i + 1
		}
	}
	if len(newDefs) > 0 {
		add := make([]topic.Element, len(newDefs))
		for i, nd := range newDefs {
			add[i] = topic.Element{Kind: topic.KindFootnote, Raw: topic.FormatDefinition(nd)}
		}
		els = slices.Insert(els, insertAt, add...)
	}
	fk.setElements(els)

	// Drop d, then the definitions only d used.
	di = blockIndex(fd.file, d.id)
	if di < 0 {
		return false // cannot happen: d was found above and k's edit keeps it
	}
	els = slices.Delete(slices.Clone(fd.file.Elements), di, di+1)
	fd.setElements(els)
	dropUnusedDefs(fd, refLabels(dEl))
	o.redirect[d.id] = k.id
	return true
}

// exclusiveFootnote returns a label among k's that has the given date and
// that no other element of the file references, or "".
func exclusiveFootnote(f *topic.File, defs map[string]*topic.Definition, kLabels []string, date string) string {
	for _, l := range kLabels {
		def := defs[l]
		if def == nil || def.Date != date {
			continue
		}
		users := 0
		for _, el := range f.Elements {
			if slices.Contains(refLabels(el), l) {
				users++
			}
		}
		if users == 1 {
			return l
		}
	}
	return ""
}

// dropUnusedDefs removes the definitions of labels (which the pass took a
// reference away from) that nothing in the file references any more.
// Definitions that were unused before the pass stay: they may hold the only
// citation of a source.
func dropUnusedDefs(f *orgFile, labels []string) {
	used := map[string]bool{}
	for _, el := range f.file.Elements {
		for _, r := range el.Refs {
			used[r.Label] = true
		}
	}
	var keep []topic.Element
	dropped := false
	for _, el := range f.file.Elements {
		if el.Kind == topic.KindFootnote && slices.Contains(labels, el.Label) && !used[el.Label] {
			dropped = true
			continue
		}
		keep = append(keep, el)
	}
	if dropped {
		f.setElements(keep)
	}
}

func blockIndex(f *topic.File, id string) int {
	for i, el := range f.Elements {
		if el.Kind == topic.KindBlock && el.BlockID == id {
			return i
		}
	}
	return -1
}

// refLabels lists an element's footnote labels, first occurrence order.
func refLabels(el topic.Element) []string {
	var out []string
	for _, r := range el.Refs {
		if !slices.Contains(out, r.Label) {
			out = append(out, r.Label)
		}
	}
	return out
}

// rebaseCitation rewrites a citation's relative path for a definition that
// moves from one topic file to another.
func rebaseCitation(c topic.Citation, from, to string) topic.Citation {
	if from == to {
		return c
	}
	if target := topic.ResolvePath(from, c.Path); target != "" {
		c.Path = topic.RelPath(to, target)
	}
	return c
}

func sameCitations(a []topic.Citation, aFile string, b []topic.Citation, bFile string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].SourceID != b[i].SourceID || a[i].Anchor != b[i].Anchor ||
			topic.ResolvePath(aFile, a[i].Path) != topic.ResolvePath(bFile, b[i].Path) {
			return false
		}
	}
	return true
}
