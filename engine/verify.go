package engine

import (
	"fmt"
	"strings"

	"scriptorium/workspace/topic"
)

// violations checks every rule of SPEC §3–§4 over the snapshot and returns
// every violation, sorted by path and line. Derived views are never checked:
// they are rebuilt, not validated.
func (s *snapshot) violations() []Violation {
	out := append([]Violation(nil), s.strays...)
	out = append(out, s.archiveViolationsOf(s.archPaths)...)
	out = append(out, s.topicViolationsOf(s.topicPaths, nil)...)
	sortViolations(out)
	return out
}

// archiveViolationsOf validates the archives at paths (sorted), as if they
// were the whole workspace's.
func (s *snapshot) archiveViolationsOf(paths []string) []Violation {
	var out []Violation
	firstSeen := map[string]string{} // source-id -> v2 archive path
	for _, p := range paths {
		a := s.archives[p]
		if a.legacy {
			continue
		}
		if a.stopErr != nil {
			where := ""
			if fl := a.stopErr.FrameLine; fl > 0 && fl != a.stopErr.Line {
				where = fmt.Sprintf(" (the frame starts at line %d)", fl)
			}
			out = append(out, Violation{Code: "invalid_frame", Path: p, Line: a.stopErr.Line,
				Message: "invalid or truncated frame" + where + "; parsing stops here and nothing after it is read: " + a.stopErr.Reason})
		}
		for _, f := range a.frames {
			if prev, dup := firstSeen[f.SourceID]; dup {
				out = append(out, Violation{Code: "duplicate_source", Path: p, Line: f.Line,
					Message: fmt.Sprintf("source-id %s is already archived in %s", f.SourceID, prev)})
				continue
			}
			firstSeen[f.SourceID] = p
		}
	}
	return out
}

type blockLoc struct {
	path string
	line int
}

// topicViolationsOf validates the topic files at paths (sorted), as if
// they were the whole workspace's; citations and links are checked only
// in the files links says (nil: all of them).
func (s *snapshot) topicViolationsOf(paths []string, links func(string) bool) []Violation {
	var out []Violation
	seen := map[string]blockLoc{}
	for _, p := range paths {
		tf := s.topics[p]
		for _, pr := range tf.problems {
			if pr.Severity == topic.SeverityWarning {
				continue // style, not a rule of SPEC §4
			}
			out = append(out, Violation{Code: pr.Code, Path: p, Line: pr.Line, Message: pr.Message})
		}
		for _, b := range tf.file.Blocks() {
			if first, dup := seen[b.BlockID]; dup && first.path != p {
				out = append(out, Violation{Code: "duplicate_block_id", Path: p, Line: b.Line,
					Message: fmt.Sprintf("block id ^%s is already used at %s:%d", b.BlockID, first.path, first.line)})
			} else if !dup {
				seen[b.BlockID] = blockLoc{p, b.Line}
			}
		}
	}
	for _, p := range paths {
		if links != nil && !links(p) {
			continue
		}
		tf := s.topics[p]
		for _, e := range tf.file.Elements {
			if e.Def != nil {
				out = append(out, s.citationViolations(tf, e)...)
			}
			for _, l := range e.Links {
				if v, bad := s.linkViolation(p, l); bad {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

func (s *snapshot) citationViolations(tf *topicFile, e topic.Element) []Violation {
	var out []Violation
	for _, c := range e.Def.Sources {
		if got, target := s.resolveCitation(tf.path, c); got == nil {
			out = append(out, Violation{Code: "unresolved_source", Path: tf.path, Line: e.Line,
				Message: s.whyUnresolved(c, target)})
		}
	}
	return out
}

// whyUnresolved names exactly what part of a citation does not resolve.
func (s *snapshot) whyUnresolved(c topic.Citation, target string) string {
	prefix := fmt.Sprintf("footnote cites [%s](%s#%s): ", c.SourceID, c.Path, c.Anchor)
	if target == "" {
		return prefix + "the path leaves the workspace"
	}
	a, ok := s.archives[target]
	if !ok {
		return prefix + "no source archive at " + target
	}
	if e, ok := s.anchors[target+"#"+c.Anchor]; ok {
		return prefix + fmt.Sprintf("anchor %s in %s holds source-id %s", c.Anchor, target, e.view.Ref)
	}
	for _, e := range a.sources {
		if e.view.Ref == c.SourceID {
			return prefix + fmt.Sprintf("%s holds %s under anchor %s", target, c.SourceID, e.view.Anchor)
		}
	}
	return prefix + fmt.Sprintf("%s has no valid frame with anchor %s", target, c.Anchor)
}

// linkViolation checks one block link: the file must exist under topics/
// and, with #^id, hold that block.
func (s *snapshot) linkViolation(from string, l topic.Link) (Violation, bool) {
	if strings.HasPrefix(l.Anchor, "source-") {
		target := resolveRel(from, l.Path)
		if _, ok := s.anchors[target+"#"+l.Anchor]; !ok {
			return Violation{Code: "broken_link", Path: from, Line: l.Line,
				Message: fmt.Sprintf("link (%s) points to a source frame that does not exist", l.Target)}, true
		}
		return Violation{}, false
	}
	if l.Path != "" && !strings.HasSuffix(l.Path, ".md") {
		return Violation{}, false // not a topic link; files outside topics are not our business
	}
	target := from
	if l.Path != "" {
		target = resolveRel(from, l.Path)
	}
	tf, ok := s.topics[target]
	if _, isArchive := s.archives[target]; !ok && isArchive && l.Anchor == "" {
		return Violation{}, false // a link to a whole source archive
	}
	if !ok {
		return Violation{Code: "broken_link", Path: from, Line: l.Line,
			Message: fmt.Sprintf("link (%s) points to a missing topic file", l.Target)}, true
	}
	if l.BlockID == "" {
		return Violation{}, false
	}
	for _, b := range tf.file.Blocks() {
		if b.BlockID == l.BlockID {
			return Violation{}, false
		}
	}
	return Violation{Code: "broken_link", Path: from, Line: l.Line,
		Message: fmt.Sprintf("link (%s) points to block ^%s, which %s does not hold", l.Target, l.BlockID, target)}, true
}
