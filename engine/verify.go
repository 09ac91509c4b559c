package engine

import (
	"scriptorium/engine/verify"
	"scriptorium/errcode"
	"scriptorium/workspace/topic"
)

// violations checks every rule of SPEC §3–§4 over the snapshot and returns
// every violation, sorted by path and line. Derived views are never checked:
// they are rebuilt, not validated.
func (s *snapshot) violations() []errcode.Violation {
	out := append([]errcode.Violation(nil), s.strays...)
	out = append(out, s.archiveViolationsOf(s.archPaths)...)
	out = append(out, s.topicViolationsOf(s.topicPaths, nil)...)
	sortViolations(out)
	return out
}

// archiveViolationsOf validates the archives at paths (sorted), as if they
// were the whole workspace's. The rules are engine/verify's; the walk is
// the core's.
func (s *snapshot) archiveViolationsOf(paths []string) []errcode.Violation {
	var out []errcode.Violation
	firstSeen := map[string]string{} // source-id -> v2 archive path
	for _, p := range paths {
		if a := s.archives[p]; !a.legacy {
			out = append(out, verify.Archive(p, a.stopErr, a.frames, firstSeen)...)
		}
	}
	return out
}

// topicViolationsOf validates the topic files at paths (sorted), as if
// they were the whole workspace's; citations and links are checked only
// in the files links says (nil: all of them).
func (s *snapshot) topicViolationsOf(paths []string, links func(string) bool) []errcode.Violation {
	var out []errcode.Violation
	seen := map[string]verify.Loc{}
	for _, p := range paths {
		out = append(out, verify.Topic(p, s.topics[p].problems, s.topics[p].file, seen)...)
	}
	for _, p := range paths {
		if links != nil && !links(p) {
			continue
		}
		tf := s.topics[p]
		for _, e := range tf.file.Elements {
			if e.Def != nil {
				for _, c := range e.Def.Sources {
					if got, target := s.resolveCitation(tf.path, c); got == nil {
						out = append(out, verify.Unresolved(s, tf.path, e.Line, c, target))
					}
				}
			}
			for _, l := range e.Links {
				if v, bad := verify.Link(s, p, l); bad {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// The snapshot answers engine/verify's cross-file lookups (verify.Workspace).

func (s *snapshot) TopicFile(p string) (*topic.File, bool) {
	tf, ok := s.topics[p]
	if !ok {
		return nil, false
	}
	return tf.file, true
}

func (s *snapshot) IsArchive(p string) bool { _, ok := s.archives[p]; return ok }

func (s *snapshot) AnchorRef(p, anchor string) (string, bool) {
	if e, ok := s.anchorEntry(p, anchor); ok {
		return e.ref, true
	}
	return "", false
}

func (s *snapshot) ArchiveAnchor(p, ref string) (string, bool) {
	for _, e := range s.archives[p].sources {
		if e.ref == ref {
			return e.anchor, true
		}
	}
	return "", false
}
