package distill

// Block is a block already in memory, as Merge needs it.
type Block struct {
	ID    string   // its block id
	Path  string   // its topic file, "topics/people/melanie-park.md"
	Text  string   // its text, without the id and footnote markers
	Cites []string // the source-ids its footnotes cite
	// Heading is the heading it is under ("Work", "Outcomes"), "" for none.
	Heading string
	// Key is its slot; "" recovers it (Slot), which gives the same answer
	// for a block the distiller wrote.
	Key string
}

// Op is what Merge does with a fact.
type Op string

// The merge operations.
const (
	// OpAdd adds the fact as a new block at Path under Heading.
	OpAdd Op = "add"
	// OpCite adds the fact's citations to Block, whose text stays: the
	// fact restates it.
	OpCite Op = "cite"
	// OpReplace gives Block the fact's text and cites both: a changed value
	// of the same slot (a new job, a move). The old text stays in history.
	OpReplace Op = "replace"
)

// Action is one change Merge asks for. Actions come in the order of the
// facts that caused them; a block gets at most one action.
type Action struct {
	Op    Op
	Block string // the block acted on; "" for OpAdd
	// Path and Heading are where the block is (OpCite, OpReplace) or goes
	// (OpAdd).
	Path, Heading string
	// Text is the block's text after the action (OpCite: unchanged).
	Text string
	// Cites are all the block's citations after the action, old ones first.
	Cites []string
	// Facts are the facts the action stands for, in order.
	Facts []Fact
}

// Merge decides, for each fact, whether it is new (OpAdd), restates a block
// already in memory or added by an earlier fact (OpCite, or folded into
// that OpAdd), or changes the value of the same subject and slot (OpReplace,
// or the OpAdd takes the new text). Restatement survives small rewording:
// most content words in common (porter stems, names aside). Facts whose
// citations a restated block already has change nothing, so merging the
// same turns twice asks for nothing the second time. A fact's topic is its
// Path (Distil fills it); facts and blocks in other files never meet.
func Merge(existing []Block, facts []Fact) []Action {
	return NewMerger().Merge(existing, facts)
}

// Merger is Merge with a memory: the stems of the texts it has read, so a
// writer that merges session after session against the same files reads
// each block once, not once per session. The memory is bounded, so a huge
// write does not grow it without end: at most 2×mergerMemoMax texts (the
// ones read since the last turnover and before it: a block read again is
// kept) and about mergerWordsMax words (forgotten all at once, as a word's
// stem is cheap to work out again). Not safe for concurrent use.
type Merger struct {
	cache     map[string]string             // word -> porter stem
	memo, old map[[2]string]map[string]bool // text, subject -> content stems
}

// The Merger's bounds: far above what one session's files hold, so a write
// reads each block once as before; far below what a huge write reads.
const (
	mergerMemoMax  = 8192
	mergerWordsMax = 1 << 16
)

// NewMerger returns an empty Merger.
func NewMerger() *Merger {
	return &Merger{cache: map[string]string{}, memo: map[[2]string]map[string]bool{}}
}

// stems are the content stems of text about subject, worked out once.
func (m *Merger) stems(text, subject string) map[string]bool {
	k := [2]string{text, subject}
	if st, ok := m.memo[k]; ok {
		return st
	}
	st, ok := m.old[k]
	if !ok {
		if len(m.cache) > mergerWordsMax {
			m.cache = map[string]string{}
		}
		st = contentStems(text, m.cache, subject)
	}
	if len(m.memo) >= mergerMemoMax {
		m.old, m.memo = m.memo, make(map[[2]string]map[string]bool, mergerMemoMax)
	}
	m.memo[k] = st
	return st
}

// Merge is the package's Merge.
func (m *Merger) Merge(existing []Block, facts []Fact) []Action {
	type target struct {
		block  *Block // nil for a block this merge adds
		action int    // index in actions, -1 until acted on
		key    string
		keyed  bool // key is known: a block's slot is read only when a fact meets it
		// The stems last looked up for this target: the facts of a
		// session mostly share a subject, and looking the memo up by a
		// long text for every fact and block was most of Merge's time.
		stText, stSubject string
		st                map[string]bool
	}
	var targets []*target
	for i := range existing {
		targets = append(targets, &target{block: &existing[i], action: -1})
	}
	slot := func(tg *target) string {
		if !tg.keyed {
			tg.key, tg.keyed = tg.block.Slot(), true
		}
		return tg.key
	}
	var actions []Action
	text := func(tg *target) string {
		if tg.action >= 0 {
			return actions[tg.action].Text
		}
		return tg.block.Text
	}
	path := func(tg *target) string {
		if tg.block != nil {
			return tg.block.Path
		}
		return actions[tg.action].Path
	}
	cites := func(tg *target) []string {
		if tg.action >= 0 {
			return actions[tg.action].Cites
		}
		return tg.block.Cites
	}
	stems := func(tg *target, subject string) map[string]bool {
		t := text(tg)
		if tg.st == nil || tg.stText != t || tg.stSubject != subject {
			tg.st, tg.stText, tg.stSubject = m.stems(t, subject), t, subject
		}
		return tg.st
	}
	for _, f := range facts {
		fs := m.stems(f.Text, f.Subject)
		var restated, sameSlot *target
		for _, tg := range targets {
			if path(tg) != f.Path {
				continue
			}
			// The same text is a restatement even when it has no content
			// stems to compare ("No no."): merging twice changes nothing.
			// And a block already in memory that holds the fact's slot and
			// cites every turn of it has taken the fact in: a later value
			// of the same session replaced it ("lives in Oliwa" then "moved
			// to Wrzeszcz"), and merging the session again must not put the
			// old value back.
			taken := tg.block != nil && f.Key != "" && containsAll(tg.block.Cites, f.Cites) && slot(tg) == f.Key
			if taken || text(tg) == f.Text || restates(stems(tg, f.Subject), fs) {
				// The block the fact already made, if any, before another
				// that says much the same: merging twice changes nothing.
				if restated == nil || containsAll(cites(tg), f.Cites) && !containsAll(cites(restated), f.Cites) {
					restated = tg
				}
			}
			// Two facts of one statement ("always run make lint", "CI runs
			// golangci-lint") are two facets, not a changed value; a
			// session's new summary replaces its old one all the same.
			facet := f.Kind != KindSummary && sharesAny(cites(tg), f.Cites)
			if sameSlot == nil && f.Key != "" && !facet && slot(tg) == f.Key {
				sameSlot = tg
			}
		}
		switch {
		case f.Kind == KindSummary && sameSlot != nil && text(sameSlot) != f.Text:
			// A session's summary is rewritten whole, even when it only adds
			// to the old one (how a session that went on ended).
			replace(&actions, sameSlot.block, &sameSlot.action, f)
		case restated != nil:
			cite(&actions, restated.block, &restated.action, f)
		case sameSlot != nil:
			replace(&actions, sameSlot.block, &sameSlot.action, f)
		default:
			actions = append(actions, Action{Op: OpAdd, Path: f.Path, Heading: f.Theme, Text: f.Text,
				Cites: append([]string(nil), f.Cites...), Facts: []Fact{f}})
			targets = append(targets, &target{action: len(actions) - 1, key: f.Key, keyed: true})
		}
	}
	return actions
}

// cite records that f restates a block (or an earlier OpAdd).
func cite(actions *[]Action, b *Block, at *int, f Fact) {
	if *at >= 0 {
		a := &(*actions)[*at]
		a.Cites = appendNew(a.Cites, f.Cites...)
		a.Facts = append(a.Facts, f)
		return
	}
	cites := appendNew(append([]string(nil), b.Cites...), f.Cites...)
	if len(cites) == len(b.Cites) {
		return // every citation is there already: nothing to do
	}
	*actions = append(*actions, Action{Op: OpCite, Block: b.ID, Path: b.Path, Heading: f.Theme, Text: b.Text,
		Cites: cites, Facts: []Fact{f}})
	*at = len(*actions) - 1
}

// replace records that f changes a block's value (or an earlier OpAdd's).
func replace(actions *[]Action, b *Block, at *int, f Fact) {
	if *at >= 0 {
		a := &(*actions)[*at]
		if a.Op == OpCite {
			a.Op = OpReplace
		}
		a.Text = f.Text
		a.Cites = appendNew(a.Cites, f.Cites...)
		a.Facts = append(a.Facts, f)
		return
	}
	*actions = append(*actions, Action{Op: OpReplace, Block: b.ID, Path: b.Path, Heading: f.Theme, Text: f.Text,
		Cites: appendNew(append([]string(nil), b.Cites...), f.Cites...), Facts: []Fact{f}})
	*at = len(*actions) - 1
}

// containsAll reports whether xs holds every ref.
func containsAll(xs, refs []string) bool {
	for _, r := range refs {
		found := false
		for _, x := range xs {
			if x == r {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// sharesAny reports whether xs and ys have a ref in common.
func sharesAny(xs, ys []string) bool {
	for _, y := range ys {
		for _, x := range xs {
			if x == y {
				return true
			}
		}
	}
	return false
}
