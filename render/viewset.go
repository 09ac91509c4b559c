package render

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
)

// ViewSet keeps the timeline, recent events and relations of a workspace
// as fragments per topic file, so replacing one topic re-renders what that
// topic contributes and merges it with the unchanged rest, instead of
// re-sorting and re-encoding every block (issue 14: a writer batch costs
// what it changes). Its output is byte for byte what Timeline,
// RecentEvents and Relations give for the same topics
// (TestViewSet_MatchesFullRender).
//
// Each block of a topic given to Set belongs to that topic: Block.Path is
// ignored. A ViewSet is not safe for concurrent use.
type ViewSet struct {
	paths []string            // every topic path, sorted
	files map[string]*vsTopic // by path

	// The dated views: the paths with entries at each date, sorted, and
	// the dates, sorted ascending.
	datePaths map[string][]string
	dates     []string
	days      map[string][]byte // timeline path → file bytes
	dirtyDays map[string]bool   // dates whose day file must be rendered again

	events      []byte // recent_events.jsonl; nil = render again
	eventsDirty bool
	dayEvents   map[string][]byte // date → its recent_events lines, every topic's
	dirtyEvents map[string]bool   // dates whose dayEvents must be joined again

	rel relState
}

// vsTopic is one topic's fragments.
type vsTopic struct {
	path    string
	entries []vsEntry         // trusted blocks with an id, in file order
	events  map[string][]byte // date → its recent_events lines, file order
	lines   map[string][]byte // date → its timeline list items, file order
	dates   []string          // keys of events, sorted
}

// vsEntry is one trusted block: what the relation graph needs and its
// rendered lines.
type vsEntry struct {
	id      string
	links   []string // normalised link targets, in order
	sources []string // non-empty cited source-ids, in order

	text  string   // the block's text, with id the key for reusing item and evs
	dates []string // distinct valid footnote dates, in order
	item  string   // its timeline list item
	evs   []string // its recent_events line per date
}

// NewViewSet returns an empty ViewSet.
func NewViewSet() *ViewSet {
	files := map[string]*vsTopic{}
	return &ViewSet{files: files, datePaths: map[string][]string{},
		days: map[string][]byte{}, dirtyDays: map[string]bool{}, dayEvents: map[string][]byte{},
		dirtyEvents: map[string]bool{}, rel: newRelState(files)}
}

// Grow sizes an empty ViewSet for about topics topics holding entries
// trusted blocks together: a fresh process merges every saved fragment at
// once, and its maps grown one rehash at a time were a good part of that
// (issue 26). A ViewSet already holding topics is left as it is.
func (v *ViewSet) Grow(topics, entries int) {
	if len(v.files) > 0 || topics <= 0 {
		return
	}
	v.files = make(map[string]*vsTopic, topics)
	v.paths = make([]string, 0, topics)
	r := &v.rel
	r.files = v.files
	r.owners, r.reg = make(map[string][]string, entries), make(map[string]relReg, entries)
	r.linkedBy, r.citedBy = make(map[string]map[string]int, entries), make(map[string]map[string]int, entries)
	r.links, r.dirtyLinks = make(map[string][]byte, entries), make(map[string]bool, entries)
	r.topicNode, r.fileNodes = make(map[string][]byte, topics), make(map[string][]byte, topics)
	r.contains, r.dirtyFiles = make(map[string][]byte, topics), make(map[string]bool, topics)
}

// Set adds topic t, or replaces the topic of the same path.
func (v *ViewSet) Set(t Topic) {
	// A topic is mostly replaced by a longer copy of itself (appends):
	// blocks whose id, text and dates are unchanged keep their rendered
	// lines.
	reuse := map[string]*vsEntry{}
	old, had := v.files[t.Path]
	if had {
		for i := range old.entries {
			e := &old.entries[i]
			if k := e.id + "\x00" + e.text; reuse[k] == nil {
				reuse[k] = e
			}
		}
	}
	vt := &vsTopic{path: t.Path, events: map[string][]byte{}, lines: map[string][]byte{}}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range t.Blocks {
		b := &t.Blocks[i]
		if !b.Trusted || b.ID == "" {
			continue
		}
		e := vsEntry{id: b.ID, text: b.Text, dates: blockDates(b)}
		for _, l := range b.Links {
			e.links = append(e.links, normalizeID(l))
		}
		for _, f := range b.Footnotes {
			for _, c := range f.Sources {
				if c.SourceID != "" {
					e.sources = append(e.sources, c.SourceID)
				}
			}
		}
		if o := reuse[e.id+"\x00"+e.text]; o != nil && slices.Equal(o.dates, e.dates) {
			e.item, e.evs = o.item, o.evs
		} else if len(e.dates) > 0 {
			ex := excerpt(b.Text)
			e.item = "- [" + escapeLinkText(ex) + "](" + linkDest("../../../"+t.Path+"#^"+b.ID) + ")\n"
			for _, d := range e.dates {
				buf.Reset()
				_ = enc.Encode(Event{Block: b.ID, Path: t.Path, Date: d, Excerpt: ex, Visibility: VisibilityOwner})
				e.evs = append(e.evs, buf.String())
			}
		}
		for j, d := range e.dates {
			vt.events[d] = append(vt.events[d], e.evs[j]...)
			vt.lines[d] = append(vt.lines[d], e.item...)
		}
		vt.entries = append(vt.entries, e)
	}
	if had && sameEntries(old.entries, vt.entries) {
		// What the views draw from the topic is unchanged (a writer
		// appended a pending block, say): every view stays as it is, and
		// recent_events.jsonl and relations.json are not joined again.
		return
	}
	v.Remove(t.Path)
	for d := range vt.events {
		vt.dates = append(vt.dates, d)
	}
	slices.Sort(vt.dates)
	v.files[t.Path] = vt
	v.paths = insertString(v.paths, t.Path)
	for _, d := range vt.dates {
		v.addDatePath(d, t.Path)
	}
	v.eventsDirty = v.eventsDirty || len(vt.dates) > 0
	v.rel.addTopic(vt)
}

// sameEntries reports whether two topics' trusted entries render alike:
// the events, timeline lines and relations derive from them alone.
func sameEntries(a, b []vsEntry) bool {
	return slices.EqualFunc(a, b, func(x, y vsEntry) bool {
		return x.id == y.id && x.text == y.text && x.item == y.item && slices.Equal(x.links, y.links) &&
			slices.Equal(x.sources, y.sources) && slices.Equal(x.dates, y.dates) && slices.Equal(x.evs, y.evs)
	})
}

// Remove drops the topic at path; a path never set is ignored.
func (v *ViewSet) Remove(path string) {
	vt, ok := v.files[path]
	if !ok {
		return
	}
	delete(v.files, path)
	v.paths = removeString(v.paths, path)
	for _, d := range vt.dates {
		v.removeDatePath(d, path)
	}
	v.eventsDirty = v.eventsDirty || len(vt.dates) > 0
	v.rel.removeTopic(vt)
}

func (v *ViewSet) addDatePath(d, path string) {
	ps, ok := v.datePaths[d]
	if !ok {
		v.dates = insertString(v.dates, d)
	}
	v.datePaths[d] = insertString(ps, path)
	v.dirtyDays[d], v.dirtyEvents[d] = true, true
}

func (v *ViewSet) removeDatePath(d, path string) {
	ps := removeString(v.datePaths[d], path)
	if len(ps) == 0 {
		delete(v.datePaths, d)
		v.dates = removeString(v.dates, d)
	} else {
		v.datePaths[d] = ps
	}
	v.dirtyDays[d], v.dirtyEvents[d] = true, true
}

// Timeline returns the timeline day files by workspace path, as Timeline
// renders them; only the days whose topics changed are rendered again.
// The map and its values are shared: callers must not modify them.
func (v *ViewSet) Timeline() map[string][]byte {
	for d := range v.dirtyDays {
		p := timelinePath(d)
		ps, ok := v.datePaths[d]
		if !ok {
			delete(v.days, p)
			continue
		}
		n := len("# \n") + len(d)
		for _, path := range ps {
			n += len("\n## \n\n") + len(path) + len(v.files[path].lines[d])
		}
		b := make([]byte, 0, n)
		b = append(b, "# "+d+"\n"...)
		for _, path := range ps {
			b = append(b, "\n## "+oneLine.Replace(path)+"\n\n"...)
			b = append(b, v.files[path].lines[d]...)
		}
		v.days[p] = b
	}
	clear(v.dirtyDays)
	return v.days
}

// RecentEvents returns recent_events.jsonl as RecentEvents renders it. The
// bytes are shared until the next change: callers must not modify them.
// Only the dates whose topics changed are joined again; the file is then
// the dates' lines, newest first, so a render after a one-session install
// costs one copy of the file, not a lookup per date and topic (issue 26).
func (v *ViewSet) RecentEvents() []byte {
	if v.events != nil && !v.eventsDirty {
		return v.events
	}
	for d := range v.dirtyEvents {
		ps, ok := v.datePaths[d]
		if !ok {
			delete(v.dayEvents, d)
			continue
		}
		n := 0
		for _, path := range ps {
			n += len(v.files[path].events[d])
		}
		b := make([]byte, 0, n)
		for _, path := range ps {
			b = append(b, v.files[path].events[d]...)
		}
		v.dayEvents[d] = b
	}
	clear(v.dirtyEvents)
	n := 0
	for _, day := range v.dayEvents {
		n += len(day)
	}
	b := make([]byte, 0, n)
	for i := len(v.dates) - 1; i >= 0; i-- {
		b = append(b, v.dayEvents[v.dates[i]]...)
	}
	v.events, v.eventsDirty = b, false
	return b
}

// Relations returns relations.json as Relations renders it. The bytes are
// shared until the next change: callers must not modify them.
func (v *ViewSet) Relations() []byte { return v.rel.render(v) }

// insertString inserts s into the sorted list unless it is there already.
func insertString(list []string, s string) []string {
	if n := len(list); n == 0 || list[n-1] < s {
		return append(list, s)
	}
	i := sort.SearchStrings(list, s)
	if i < len(list) && list[i] == s {
		return list
	}
	return slices.Insert(list, i, s)
}

// removeString removes s from the sorted list.
func removeString(list []string, s string) []string {
	i := sort.SearchStrings(list, s)
	if i < len(list) && list[i] == s {
		return slices.Delete(list, i, i+1)
	}
	return list
}
