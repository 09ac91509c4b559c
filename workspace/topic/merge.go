package topic

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
)

// Merge3 carries the change from base to theirs over to ours, element by
// element: a block is identified by its id, a footnote definition by its
// label, any other element (heading, untagged paragraph) by its exact
// text. It is how a revert undoes an old transaction under later ones and
// how a stale proposal is rebased onto the current file.
//
// A nil slice means "the file does not exist". When ours still equals
// base the result is theirs byte for byte; otherwise the merged file is
// rendered canonically. Every element that both sides changed (edited,
// removed or added with different text) is a Conflict, and then the
// result is nil.
func Merge3(base, ours, theirs []byte) ([]byte, []Conflict) {
	switch {
	case bytes.Equal(ours, base) && (ours == nil) == (base == nil):
		return theirs, nil
	case bytes.Equal(ours, theirs) && (ours == nil) == (theirs == nil):
		return ours, nil
	case base == nil || ours == nil || theirs == nil:
		// The file itself was created or deleted on one side and changed
		// on the other: every element of the changed side is in conflict.
		return nil, wholeFileConflicts(base, ours, theirs)
	}
	b, o, t := keyed(base), keyed(ours), keyed(theirs)
	var conflicts []Conflict
	changedTheirs := map[string]bool{}
	for _, k := range union(b.order, t.order) {
		if b.raw(k) != t.raw(k) {
			changedTheirs[k] = true
		}
	}
	for k := range changedTheirs {
		if b.raw(k) != o.raw(k) && o.raw(k) != t.raw(k) {
			conflicts = append(conflicts, Conflict{Key: k, Line: o.line(k)})
		}
	}
	if len(conflicts) > 0 {
		sortConflicts(conflicts)
		return nil, conflicts
	}
	// Start from ours; apply theirs' edits and deletions in place, then
	// insert theirs' additions after the element that precedes them there.
	var keys []string
	for _, k := range o.order {
		if _, kept := t.els[k]; changedTheirs[k] && !kept {
			continue // theirs removed it
		}
		keys = append(keys, k)
	}
	for i, k := range t.order {
		if _, had := o.els[k]; had || !changedTheirs[k] {
			continue
		}
		at := 0 // after the nearest preceding element of theirs that is kept
		for j := i - 1; j >= 0; j-- {
			if pos := slices.Index(keys, t.order[j]); pos >= 0 {
				at = pos + 1
				break
			}
		}
		keys = slices.Insert(keys, at, k)
	}
	out := make([]Element, len(keys))
	for i, k := range keys {
		if changedTheirs[k] {
			out[i] = t.els[k]
		} else {
			out[i] = o.els[k]
		}
	}
	return (&File{Elements: out}).Render(), nil
}

// ChangedKeys lists the merge keys of the elements that differ between two
// versions of a file (added, removed or edited), as Merge3 keys them.
func ChangedKeys(a, b []byte) map[string]bool {
	ka, kb := keyed(a), keyed(b)
	out := map[string]bool{}
	for _, k := range union(ka.order, kb.order) {
		if ka.raw(k) != kb.raw(k) {
			out[k] = true
		}
	}
	return out
}

// Conflict is one element both sides of a merge changed.
type Conflict struct {
	// Key names the element: "^<block id>" for a block, "[^<label>]" for
	// a footnote definition, otherwise its first line.
	Key string
	// Line is the element's line in ours (0 when ours no longer has it).
	Line int
}

// String formats the conflict for messages.
func (c Conflict) String() string {
	if c.Line > 0 {
		return fmt.Sprintf("%s (line %d)", c.Key, c.Line)
	}
	return c.Key
}

// keyedFile is a parsed file's elements by merge key, in file order.
type keyedFile struct {
	order []string
	els   map[string]Element
}

func (f keyedFile) raw(k string) string {
	if el, ok := f.els[k]; ok {
		return "\x01" + el.Raw // present, even when empty
	}
	return ""
}

// line is the element's line in f, 0 when f lacks it.
func (f keyedFile) line(k string) int {
	if el, ok := f.els[k]; ok {
		return el.Line
	}
	return 0
}

func keyed(data []byte) keyedFile {
	f, _ := Parse(data)
	kf := keyedFile{els: map[string]Element{}}
	for _, el := range f.Elements {
		k := elementKey(el)
		for i := 2; ; i++ {
			if _, dup := kf.els[k]; !dup {
				break
			}
			k = fmt.Sprintf("%s#%d", elementKey(el), i) // the same text twice
		}
		kf.order = append(kf.order, k)
		kf.els[k] = el
	}
	return kf
}

func elementKey(el Element) string {
	switch {
	case el.Kind == KindBlock && el.BlockID != "":
		return "^" + el.BlockID
	case el.Kind == KindFootnote && el.Label != "":
		return "[^" + el.Label + "]"
	}
	first, _, _ := bytes.Cut([]byte(el.Raw), []byte("\n"))
	return string(first)
}

func union(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, list := range [][]string{a, b} {
		for _, k := range list {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// wholeFileConflicts names the elements that make a file-level change
// (create or delete) collide with the other side: what ours changed since
// base, or, when neither had the file at base, where ours and theirs
// differ.
func wholeFileConflicts(base, ours, theirs []byte) []Conflict {
	ref := base
	if base == nil {
		ref = theirs
	}
	r, o := keyed(ref), keyed(ours)
	var out []Conflict
	for _, k := range union(r.order, o.order) {
		if r.raw(k) != o.raw(k) {
			out = append(out, Conflict{Key: k, Line: o.line(k)})
		}
	}
	if len(out) == 0 {
		out = []Conflict{{Key: "(the whole file)"}}
	}
	sortConflicts(out)
	return out
}

func sortConflicts(cs []Conflict) {
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Line != cs[j].Line {
			return cs[i].Line < cs[j].Line
		}
		return cs[i].Key < cs[j].Key
	})
}
