package forget

import (
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/workspace/topic"
)

// elemEdit is what happens to one element of a topic file.
type elemEdit struct {
	remove bool
	raw    string // the new Raw when not removed
}

// rewriteTopics removes the blocks that cite only forgotten sources, drops
// forgotten citations from the other definitions (a definition left with
// none goes, with its references), deletes files left without blocks
// (except topics/core.md) and unlinks every link to what was removed.
func (fp *forgetPlan) rewriteTopics(v *engine.View) {
	per := map[string]map[int]elemEdit{}
	goneBlocks := map[string]map[string]bool{} // path -> block ids removed
	goneFiles := map[string]bool{}
	files, datas := map[string]*topic.File{}, map[string][]byte{}
	for _, p := range v.TopicPaths() {
		data, file, _ := v.Topic(p)
		files[p], datas[p] = file, data
		edits := map[int]elemEdit{}
		dead := map[string]bool{}
		for i, el := range files[p].Elements {
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
		defs := files[p].Definitions()
		blocksLeft := 0
		orphan := map[string]bool{} // labels of blocks removed for words only forgotten sources held
		for i, el := range files[p].Elements {
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
			if cited > 0 && !onlyDead && fp.derivedFromForgotten(v, el, defs) {
				onlyDead = true
				for _, r := range el.Refs {
					orphan[r.Label] = true
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
		fp.dropOrphans(files[p], edits, orphan)
		per[p] = edits
		if blocksLeft == 0 && p != coreTopicPath {
			goneFiles[p] = true
		}
	}
	// Links to a removed block or file would break: keep their text only.
	for _, p := range v.TopicPaths() {
		if goneFiles[p] {
			continue
		}
		for i, el := range files[p].Elements {
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
					target = topic.ResolvePath(p, l.Path)
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
			fp.edits = append(fp.edits, result.Edit{Op: "delete", Path: p})
			continue
		}
		content := string(spliceElements(datas[p], files[p], per[p]))
		fp.edits = append(fp.edits, result.Edit{Op: "replace", Path: p, Content: &content})
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
