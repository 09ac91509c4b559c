package engine

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// forgetPlan is everything one forget removes, worked out on a snapshot.
type forgetPlan struct {
	sel       ForgetSelector
	ids       map[string]bool   // source-ids forgotten
	targets   []*sourceEntry    // every record of those ids, v2 and legacy
	archives  map[string][]byte // new archive bytes
	removed   []forgottenRecord // what the archives lost, with hashes
	edits     []Edit            // topic edits
	blocks    []string          // block ids removed
	labels    []string          // footnote labels removed
	citations int               // citations dropped from definitions that stay
	nodes     []sessions.Node   // sessions.db nodes to blank
	needles   needles
}

func (fp *forgetPlan) sourceIDs() []string {
	out := make([]string, 0, len(fp.ids))
	for id := range fp.ids {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func (fp *forgetPlan) record(now time.Time) *forgetRecord {
	return &forgetRecord{Selector: fp.sel, Time: now, Actor: "owner", Records: fp.removed,
		Blocks: nonNil(fp.blocks), Labels: nonNil(fp.labels)}
}

// planForget selects the records, rewrites the archives and topics, and
// finds the sessions.db nodes.
func (e *Engine) planForget(ctx context.Context, s *snapshot, sel ForgetSelector) (*forgetPlan, error) {
	fp := &forgetPlan{sel: sel, ids: map[string]bool{}, archives: map[string][]byte{}}
	found := s.forgetSelect(sel, fp)
	nodes, err := e.forgetNodes(sel)
	if err != nil {
		return nil, err
	}
	fp.nodes = nodes
	for _, n := range nodes {
		found[n.SourceID()] = true
	}
	var unknown []string
	for _, id := range sel.Sources {
		if !found[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return nil, Errorf(CodeNotFound, "no archived record or stored turn has source-id %s", strings.Join(unknown, ", "))
	}
	if len(fp.targets) == 0 && len(fp.nodes) == 0 {
		why := "nothing to forget"
		if len(found) > 0 {
			why = "everything it selects is forgotten already"
		}
		return nil, Errorf(CodeInvalidArgument, "forget %s: %s", sel, why)
	}
	fp.rewriteArchives(s)
	fp.rewriteTopics(s)
	fp.needles = fp.collectNeedles(s)
	return fp, nil
}

// forgetSelect fills fp.ids and fp.targets and returns every source-id the
// selection names that exists, forgotten already or not.
func (s *snapshot) forgetSelect(sel ForgetSelector, fp *forgetPlan) map[string]bool {
	want := map[string]bool{}
	for _, id := range sel.Sources {
		want[id] = true
	}
	found := map[string]bool{}
	hit := func(a *archiveFile, v SourceView) bool {
		switch {
		case len(want) > 0:
			return want[v.Ref]
		case sel.Speaker != "":
			return !v.Legacy && v.SpeakerTrusted && v.SpeakerID == sel.Speaker
		}
		p, t, _, err := archive.ParseSourceID(v.Ref)
		return a.provider+"/"+a.thread == sel.Thread || (err == nil && p+"/"+t == sel.Thread)
	}
	for _, p := range s.archPaths {
		a := s.archives[p]
		for _, src := range a.sources {
			if hit(a, src.view) {
				found[src.view.Ref] = true
				if !src.view.Forgotten {
					fp.ids[src.view.Ref] = true
				}
			}
		}
	}
	// Every copy of a selected record goes: a legacy record shadowed by its
	// v2 frame holds the same text.
	for _, p := range s.archPaths {
		for _, src := range s.archives[p].sources {
			if fp.ids[src.view.Ref] && !src.view.Forgotten {
				fp.targets = append(fp.targets, src)
			}
		}
	}
	return found
}

// forgetNodes lists the sessions.db nodes the selection blanks; a missing
// sessions.db holds none (and is not created).
func (e *Engine) forgetNodes(sel ForgetSelector) ([]sessions.Node, error) {
	path := workspace.SessionsDB(e.state)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	st, err := sessions.Open(path, nil)
	if err != nil {
		return nil, Wrap(CodeIO, err, "open sessions.db")
	}
	defer st.Close()
	nodes, err := st.Forgettable(sessionSelector(sel))
	if err != nil {
		return nil, Wrap(CodeIO, err, "read sessions.db")
	}
	return nodes, nil
}

func sessionSelector(sel ForgetSelector) sessions.Selector {
	return sessions.Selector{SourceIDs: sel.Sources, SpeakerID: sel.Speaker, Thread: sel.Thread}
}

// rewriteArchives replaces every target record in its archive: v2 frames
// by tombstones, legacy records by blanked ones.
func (fp *forgetPlan) rewriteArchives(s *snapshot) {
	ids := map[string]map[string]bool{}
	lines := map[string]map[int]bool{}
	for _, t := range fp.targets {
		p := t.file.path
		if t.file.legacy {
			if lines[p] == nil {
				lines[p] = map[int]bool{}
			}
			lines[p][t.view.Line] = true
			continue
		}
		if ids[p] == nil {
			ids[p] = map[string]bool{}
		}
		ids[p][t.view.Ref] = true
	}
	for _, p := range s.archPaths {
		a := s.archives[p]
		var out []byte
		var removed []archive.Removed
		switch {
		case ids[p] != nil:
			out, removed = archive.Forget(a.data, ids[p])
		case lines[p] != nil:
			out, removed = archive.ForgetLegacy(a.data, lines[p])
		default:
			continue
		}
		for _, r := range removed {
			ref := r.SourceID
			if ref == "" {
				ref = a.provider + "/" + a.thread + "/legacy-L" + strconv.Itoa(r.Line)
			}
			fp.removed = append(fp.removed, forgottenRecord{SourceID: ref, Path: p, Line: r.Line, SHA256: r.SHA256})
		}
		if len(removed) > 0 {
			fp.archives[p] = out
		}
	}
}

// elemEdit is what happens to one element of a topic file.
type elemEdit struct {
	remove bool
	raw    string // the new Raw when not removed
}

// rewriteTopics removes the blocks that cite only forgotten sources, drops
// forgotten citations from the other definitions (a definition left with
// none goes, with its references), deletes files left without blocks
// (except topics/core.md) and unlinks every link to what was removed.
func (fp *forgetPlan) rewriteTopics(s *snapshot) {
	per := map[string]map[int]elemEdit{}
	goneBlocks := map[string]map[string]bool{} // path -> block ids removed
	goneFiles := map[string]bool{}
	for _, p := range s.topicPaths {
		tf := s.topics[p]
		edits := map[int]elemEdit{}
		dead := map[string]bool{}
		for i, el := range tf.file.Elements {
			if el.Def == nil {
				continue
			}
			var keep []topic.Citation
			for _, c := range el.Def.Sources {
				if !fp.ids[c.SourceID] {
					keep = append(keep, c)
				}
			}
			switch {
			case len(keep) == len(el.Def.Sources):
			case len(keep) == 0:
				edits[i] = elemEdit{remove: true}
				dead[el.Def.Label] = true
				fp.labels = append(fp.labels, el.Def.Label)
			default:
				d := *el.Def
				d.Sources = keep
				edits[i] = elemEdit{raw: topic.FormatDefinition(d)}
				fp.citations += len(el.Def.Sources) - len(keep)
			}
		}
		if len(edits) == 0 {
			continue
		}
		defs := tf.file.Definitions()
		blocksLeft := 0
		for i, el := range tf.file.Elements {
			if el.Kind == topic.KindUntagged {
				blocksLeft++ // a paragraph without an id is still content
			}
			if el.Kind != topic.KindBlock {
				continue
			}
			cited, onlyDead := 0, true
			raw := el.Raw
			for _, r := range el.Refs {
				if _, ok := defs[r.Label]; !ok {
					continue
				}
				cited++
				if dead[r.Label] {
					raw = strings.ReplaceAll(raw, "[^"+r.Label+"]", "")
				} else {
					onlyDead = false
				}
			}
			switch {
			case cited > 0 && onlyDead:
				edits[i] = elemEdit{remove: true}
				fp.blocks = append(fp.blocks, el.BlockID)
				if goneBlocks[p] == nil {
					goneBlocks[p] = map[string]bool{}
				}
				goneBlocks[p][el.BlockID] = true
			case raw != el.Raw:
				edits[i] = elemEdit{raw: raw}
				blocksLeft++
			default:
				blocksLeft++
			}
		}
		per[p] = edits
		if blocksLeft == 0 && p != coreTopicPath {
			goneFiles[p] = true
		}
	}
	// Links to a removed block or file would break: keep their text only.
	for _, p := range s.topicPaths {
		if goneFiles[p] {
			continue
		}
		tf := s.topics[p]
		for i, el := range tf.file.Elements {
			if ed, ok := per[p][i]; ok && ed.remove {
				continue
			}
			raw := el.Raw
			if ed, ok := per[p][i]; ok {
				raw = ed.raw
			}
			changed := false
			for _, l := range el.Links {
				target := p
				if l.Path != "" {
					target = resolveRel(p, l.Path)
				}
				if goneFiles[target] || (l.BlockID != "" && goneBlocks[target][l.BlockID]) {
					raw, changed = unlink(raw, l), true
				}
			}
			if changed {
				if per[p] == nil {
					per[p] = map[int]elemEdit{}
				}
				per[p][i] = elemEdit{raw: raw}
			}
		}
	}
	paths := make([]string, 0, len(per)+len(goneFiles))
	for p := range per {
		paths = append(paths, p)
	}
	for p := range goneFiles {
		if per[p] == nil {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		if goneFiles[p] {
			fp.edits = append(fp.edits, Edit{Op: "delete", Path: p})
			continue
		}
		content := string(spliceElements(s.topics[p].data, s.topics[p].file, per[p]))
		fp.edits = append(fp.edits, Edit{Op: "replace", Path: p, Content: &content})
	}
}

// unlink replaces the link l in raw by its text.
func unlink(raw string, l topic.Link) string {
	head := "[" + l.Text + "](" + l.Target
	i := strings.Index(raw, head)
	if i < 0 {
		return raw
	}
	j := strings.IndexByte(raw[i+len(head):], ')')
	if j < 0 {
		return raw
	}
	return raw[:i] + l.Text + raw[i+len(head)+j+1:]
}

// spliceElements returns data with the edited elements replaced or
// removed, every other byte kept. A removed element takes the blank lines
// after it along, and a file whose last element went loses the blank lines
// left at its end.
func spliceElements(data []byte, f *topic.File, edits map[int]elemEdit) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	out := make([]string, len(lines))
	copy(out, lines)
	drop := make([]bool, len(lines))
	lastRemoved := false
	for i, el := range f.Elements {
		ed, ok := edits[i]
		lastRemoved = ok && ed.remove
		if !ok {
			continue
		}
		start, end := el.Line-1, min(el.EndLine, len(lines))
		if start < 0 || start >= end {
			continue
		}
		if ed.remove {
			for k := start; k < end; k++ {
				drop[k] = true
			}
			for k := end; k < len(lines) && strings.TrimSpace(lines[k]) == ""; k++ {
				drop[k] = true
			}
			continue
		}
		nl := ""
		if strings.HasSuffix(lines[end-1], "\n") {
			nl = "\n"
		}
		out[start] = ed.raw + nl
		for k := start + 1; k < end; k++ {
			drop[k] = true
		}
	}
	var kept []string
	for k, l := range out {
		if !drop[k] {
			kept = append(kept, l)
		}
	}
	if lastRemoved {
		for len(kept) > 0 && strings.TrimSpace(kept[len(kept)-1]) == "" {
			kept = kept[:len(kept)-1]
		}
	}
	return []byte(strings.Join(kept, ""))
}
