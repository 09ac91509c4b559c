package recall

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// addHits packs the search hits in one rank order, blocks and sources
// alike, then shows the recalled blocks before the recalled sources, each
// in rank order.
//
// Packing every block before any source spent the budget on blocks ranked
// far below a source that answered the prompt: a rank-1 turn was left out
// for twenty lower blocks of the same person's file (BENCHMARKS.md,
// "Answer in context: where the misses were").
//
// A source comes in only while no recalled block cites it: a block that
// cites a recalled source takes its place, so a block and the source it
// cites are never both recalled; a block restating what recalled blocks
// cite is left out (restates). A hit that does not fit leaves room for a
// shorter one after it.
func (p *packer) addHits(hits []Hit) {
	first := len(p.items)
	for _, h := range hits {
		p.addHit(h)
	}
	rank := map[string]int{}
	for i, h := range hits {
		rank[h.Kind+"\x00"+h.Ref] = i
	}
	slices.SortStableFunc(p.items[first:], func(a, b Item) int {
		if c := boolInt(a.Kind == "source") - boolInt(b.Kind == "source"); c != 0 {
			return c
		}
		return cmp.Compare(rank[hitKind(a)+"\x00"+a.Ref], rank[hitKind(b)+"\x00"+b.Ref])
	})
}

// hitKind is the search kind an item came from.
func hitKind(it Item) string {
	if it.Kind == "source" {
		return "source"
	}
	return "topic"
}

// addHit adds a hit's block or source; false when nothing came in.
func (p *packer) addHit(h Hit) bool {
	switch {
	case h.Block != nil:
		b := *h.Block
		// A long block (an old writer's copy of a turn) is shown as its
		// snippet around the prompt's words.
		if utf8.RuneCountInString(b.Text) > maxHitRunes && h.Snippet != "" {
			b.Text = h.Snippet
		}
		return p.addCitingBlock(b)
	case h.Kind == "source" && p.cited[h.Ref] == 0:
		return p.addSource(h.SearchResult)
	}
	return false
}

// addCitingBlock adds a hit's block in place of the recalled sources it
// cites; when it does not fit even without them, they stay and it does
// not come in.
func (p *packer) addCitingBlock(b Block) bool {
	if p.blocks[b.ID] || p.restates(b) {
		return false
	}
	var replaced []Item
	for _, c := range b.Cites {
		if i := p.sourceItem(c); i >= 0 {
			replaced = append(replaced, p.items[i])
			p.remove(i)
		}
	}
	if p.addBlock("topic", b) {
		return true
	}
	for _, it := range replaced {
		p.add(it)
		p.cited[it.Ref]++
	}
	return false
}

// restates is true when every turn b cites is already cited by a recalled
// block: a session's thread block that repeats a fact its person's file
// holds, or one fact filed twice, says nothing the recall does not.
func (p *packer) restates(b Block) bool {
	if len(b.Cites) == 0 {
		return false
	}
	for _, c := range b.Cites {
		if p.cited[c] == 0 || p.sourceItem(c) >= 0 {
			return false
		}
	}
	return true
}

// sourceItem is the index of the recalled source ref, or -1.
func (p *packer) sourceItem(ref string) int {
	return slices.IndexFunc(p.items, func(it Item) bool { return it.Kind == "source" && it.Ref == ref })
}

// remove takes back the source at index i: the hits section keeps its
// heading while another item is under it.
func (p *packer) remove(i int) {
	it := p.items[i]
	p.items = slices.Delete(p.items, i, i+1)
	if p.cited[it.Ref]--; p.cited[it.Ref] <= 0 {
		delete(p.cited, it.Ref)
	}
	p.total -= it.Tokens + 1
	h := heading(it.Kind)
	if !slices.ContainsFunc(p.items, func(o Item) bool { return heading(o.Kind) == h }) {
		p.total -= headingTokens(h)
		p.section = ""
		if len(p.items) > 0 {
			p.section = heading(p.items[len(p.items)-1].Kind)
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wordCount is about how many words text says. Chinese and Japanese put
// no spaces between words (Korean does), so a whole sentence was one
// "word", and every such turn was dropped as an acknowledgement (the
// long-chat set's Chinese questions recalled 0.067 at 1,000 tokens, where
// search's R@10 is 1.0). There two characters count as about one word (a
// Chinese word is one or two), so "好的，谢谢！" is still two words and a
// sentence is many.
func wordCount(text string) int {
	n := 0
	for _, f := range strings.Fields(text) {
		cjk, other := 0, false
		for _, r := range f {
			switch {
			case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
				cjk++
			case unicode.IsLetter(r) || unicode.IsDigit(r):
				other = true
			}
		}
		n += (cjk + 1) / 2
		if other || cjk == 0 {
			n++
		}
	}
	return n
}
