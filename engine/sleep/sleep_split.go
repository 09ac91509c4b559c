package sleep

import (
	"fmt"
	"slices"
	"strings"

	"scriptorium/render"
	"scriptorium/workspace/topic"
)

// Phase 2 of the offline organiser: oversized files split at "## ".

// splitOversized splits every file over the token threshold that may be
// split: never topics/core.md (its file order is the core render), never a
// file with violations (they would move to a new path and count as new).
func (o *organiser) splitOversized() {
	existing := slices.Clone(o.order)
	for _, p := range existing {
		f := o.files[p]
		if p == render.CoreTopicPath || f.broken || !f.clean {
			continue
		}
		if render.CountTokens(string(f.data)) <= o.splitTokens {
			continue
		}
		o.split(f)
	}
}

// split moves every "## " section of f that holds a block into its own
// file under a directory named after f.
func (o *organiser) split(f *orgFile) {
	els := f.file.Elements
	type section struct {
		head int
		path string
	}
	var secs []section
	owner := make([]int, len(els)) // section index, -1 for the parent
	cur := -1
	for i, el := range els {
		if el.Kind == topic.KindHeading && el.Level <= 2 {
			cur = -1
			if el.Level == 2 {
				secs = append(secs, section{head: i})
				cur = len(secs) - 1
			}
		}
		owner[i] = cur
	}
	hasBlock := make([]bool, len(secs))
	for i, el := range els {
		if owner[i] >= 0 && el.Kind == topic.KindBlock {
			hasBlock[owner[i]] = true
		}
	}
	moving := false
	reserved := map[string]bool{}
	for si := range secs {
		if hasBlock[si] {
			secs[si].path = o.sectionPath(f.path, els[secs[si].head].Heading, si, reserved)
			reserved[secs[si].path] = true
			moving = moving || secs[si].path != ""
		}
	}
	if !moving {
		return
	}
	part := func(i int) int { // the part element i ends up in: -1 parent
		if s := owner[i]; s >= 0 && secs[s].path != "" {
			return s
		}
		return -1
	}
	uses := map[int]map[string]bool{-1: {}}
	for i, el := range els {
		if el.Kind == topic.KindFootnote {
			continue
		}
		pt := part(i)
		if uses[pt] == nil {
			uses[pt] = map[string]bool{}
		}
		for _, r := range el.Refs {
			uses[pt][r.Label] = true
		}
	}
	for si, sec := range secs {
		if sec.path == "" {
			continue
		}
		head := els[sec.head]
		title := head.Heading
		if title == "" {
			title = strings.TrimSuffix(sec.path[strings.LastIndexByte(sec.path, '/')+1:], ".md")
		}
		head.Raw = "# " + title
		head.Raw = rebaseLinks(head, f.path, sec.path)
		out := []topic.Element{head}
		placed := map[string]bool{}
		moveDef := func(el topic.Element) {
			d := *el.Def
			d.Sources = slices.Clone(d.Sources)
			for i, c := range d.Sources {
				d.Sources[i] = rebaseCitation(c, f.path, sec.path)
			}
			out = append(out, topic.Element{Kind: topic.KindFootnote, Raw: topic.FormatDefinition(d)})
			placed[d.Label] = true
		}
		for i, el := range els {
			if owner[i] != si || i == sec.head {
				continue
			}
			if el.Kind == topic.KindFootnote {
				if el.Def != nil && uses[si][el.Def.Label] && !placed[el.Def.Label] {
					moveDef(el)
				}
				continue
			}
			el.Raw = rebaseLinks(el, f.path, sec.path)
			out = append(out, el)
		}
		for _, el := range els {
			if el.Def != nil && uses[si][el.Def.Label] && !placed[el.Def.Label] {
				moveDef(el)
			}
		}
		nf := &orgFile{path: sec.path, clean: true}
		nf.setElements(out)
		o.files[sec.path] = nf
		o.order = append(o.order, sec.path)
	}
	var keep []topic.Element
	for i, el := range els {
		if el.Kind == topic.KindFootnote {
			usedMoved := false
			for si, sec := range secs {
				usedMoved = usedMoved || sec.path != "" && uses[si][el.Label]
			}
			if usedMoved && !uses[-1][el.Label] {
				continue // it travelled with the blocks that use it
			}
			keep = append(keep, el)
			continue
		}
		if part(i) < 0 {
			keep = append(keep, el)
		}
	}
	f.setElements(keep)
}

// sectionPath picks topics/x/<slug>.md for a section of topics/x.md, or ""
// when no acceptable free path exists. reserved holds the paths already
// picked for earlier sections of the same file.
func (o *organiser) sectionPath(parent, heading string, n int, reserved map[string]bool) string {
	dir := strings.TrimSuffix(parent, ".md")
	slug := topic.Slug(footnoteRefRE.ReplaceAllString(heading, ""))
	if slug == "" {
		slug = fmt.Sprintf("section-%d", n+1)
	}
	for i := 1; i <= 100; i++ {
		cand := dir + "/" + slug + ".md"
		if i > 1 {
			cand = fmt.Sprintf("%s/%s-%d.md", dir, slug, i)
		}
		if _, taken := o.files[cand]; !taken && !reserved[cand] && o.checkPath(cand) == "" {
			return cand
		}
	}
	return ""
}

// rebaseLinks rewrites an element's relative link paths for a move from
// one file to another. Same-file links are left for link repair, which
// knows where every block ends up.
func rebaseLinks(el topic.Element, from, to string) string {
	subs := map[string]string{}
	for _, l := range el.Links {
		if l.Path == "" {
			continue
		}
		target := topic.ResolvePath(from, l.Path)
		if target == "" {
			continue
		}
		nt := topic.EscapePath(topic.RelPath(to, target))
		if l.Anchor != "" {
			nt += "#" + l.Anchor
		}
		if nt != l.Target {
			subs[l.Target] = nt
		}
	}
	return replaceTargets(el.Raw, subs)
}
