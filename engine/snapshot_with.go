package engine

import (
	"slices"
	"strings"
)

// with returns the would-be snapshot after a plan: unchanged files are
// shared, changed ones re-parsed.
func (s *snapshot) with(plan *txPlan) *snapshot {
	n := &snapshot{topics: map[string]*topicFile{}, archives: map[string]*archiveFile{}, promoted: s.promoted,
		strays: s.strays}
	for p, tf := range s.topics {
		n.topics[p] = tf
	}
	n.topicPaths = append([]string(nil), s.topicPaths...)
	if !slices.ContainsFunc(plan.order, func(p string) bool { return !strings.HasPrefix(p, "topics/") }) {
		// Only topics change: the archives and the source index are s's,
		// shared as loadSnapshot shares them (never mutated once built).
		n.archives, n.archPaths, n.sources = s.archives, s.archPaths, s.sources
		n.archiveStrays = s.archiveStrays
		for _, p := range plan.order {
			if data := plan.files[p]; data == nil {
				n.removeTopic(p)
			} else {
				n.setTopic(p, data)
			}
		}
		return n
	}
	for p, a := range s.archives {
		n.archives[p] = a
	}
	n.archPaths = append([]string(nil), s.archPaths...)
	for _, p := range plan.order {
		data := plan.files[p]
		if strings.HasPrefix(p, "topics/") {
			if data == nil {
				n.removeTopic(p)
			} else {
				n.setTopic(p, data)
			}
			continue
		}
		// Archive files are re-parsed into fresh values so the old
		// snapshot's entries are never mutated. addArchive replaces the
		// entry in place: deleting it first would list an appended-to
		// archive twice in archPaths, and every frame would then be
		// reported as a duplicate of itself.
		n.addArchive(p, data)
	}
	var changedArch []string
	for _, p := range plan.order {
		if !strings.HasPrefix(p, "topics/") {
			changedArch = append(changedArch, p)
		}
	}
	if n.indexChanged(s, changedArch) {
		return n
	}
	// Entries point at archiveFile values; rebuild them all on copies so the
	// old snapshot stays intact.
	for p, a := range n.archives {
		cp := *a
		cp.sources = nil
		n.archives[p] = &cp
	}
	n.indexSources()
	return n
}

// indexChanged updates the source index of n, the snapshot after a plan
// built from s, for the archives the plan changes (changed), instead of
// rebuilding every entry of every archive: unchanged archives and their
// entries are shared with s, the maps are copied and only the changed
// archives' entries are replaced (issue 14: a writer batch appends to one
// archive of thousands). It handles what installs do to archives outside
// forget — appends to v2 archives and new v2 archives — and reports false
// for anything else (a legacy archive, a rewrite, an archive that stopped
// at a bad frame), leaving the caller to rebuild the index whole. The
// result is what indexSources builds (TestIndexChanged_MatchesFullIndex).
func (n *snapshot) indexChanged(s *snapshot, changed []string) bool {
	for _, p := range changed {
		old, a := s.archives[p], n.archives[p]
		if a == nil || a.legacy || old != nil && (old.legacy || old.stopErr != nil || !framesPrefix(old, a)) {
			return false
		}
	}
	n.sources = s.sources.Clone() // sharing what is unchanged
	for _, p := range changed {
		if old := s.archives[p]; old != nil {
			for _, e := range old.sources {
				if n.sources.Lookup(e.ref) == e {
					n.sources.Delete(e.ref)
				}
			}
		}
		n.indexArchive(n.archives[p])
	}
	return true
}

// framesPrefix reports whether a's frames begin with exactly old's.
func framesPrefix(old, a *archiveFile) bool {
	if len(a.frames) < len(old.frames) {
		return false
	}
	for i, f := range old.frames {
		g := a.frames[i]
		if f.SourceID != g.SourceID || f.Anchor != g.Anchor || f.Line != g.Line || f.Text != g.Text {
			return false
		}
	}
	return true
}

// wins reports whether entry e takes a source-id from cur: a v2 frame over
// a legacy record, else the first archive in path order (within one
// archive, the first record: cur); a legacy record never takes one.
func wins(e, cur *sourceEntry) bool {
	return !e.file.legacy && (cur.file.legacy || e.file.path < cur.file.path)
}
