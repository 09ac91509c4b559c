package engine

import (
	"slices"
	"sort"

	"scriptorium/engine/deps"
	"scriptorium/errcode"
)

// An install is judged on the violations it introduces:
// introduced(before.violations(), after.violations()). Both sides are the
// same for every file the plan cannot affect, and introduced cancels them,
// so introducedBy validates only the files that can differ and returns
// the same list (TestIntroducedBy_MatchesFullValidation). verify still
// reads and validates everything.
//
// A topic file's violations depend on its own bytes, the paths its
// citations and links resolve to, and the other holders of its block ids;
// an archive's on its own bytes and the other archives holding its
// source-ids. Strays are the same on both sides (snapshot.with keeps them).

// introducedBy returns introduced(before.violations(), after.violations())
// for after = before.with(plan), validating only what plan can affect.
func (e *Engine) introducedBy(before, after *snapshot, plan *txPlan) []errcode.Violation {
	e.inc.mu.Lock()
	defer e.inc.mu.Unlock()
	x := &e.inc.idx
	x.sync(before)
	changedT, changedR := map[string]bool{}, map[string]bool{}
	affT, affR := map[string]bool{}, map[string]bool{}
	for _, p := range plan.order {
		if isTopicPath(p) {
			changedT[p], affT[p] = true, true
		} else {
			changedR[p], affR[p] = true, true
		}
		deps.AddKeys(affT, x.Citers(p))
	}
	for p := range changedT {
		for _, s := range []*snapshot{before, after} {
			if tf, ok := s.topics[p]; ok {
				for _, id := range tf.deps().IDs {
					deps.AddKeys(affT, x.Holding(id))
				}
			}
		}
	}
	for p := range changedR {
		for _, s := range []*snapshot{before, after} {
			for _, ref := range s.archiveRefs(x, p, changedR) {
				deps.AddKeys(affR, x.ArchivesHolding(ref))
			}
		}
	}
	return introduced(before.violationsIn(x, affT, affR, changedT, changedR),
		after.violationsIn(x, affT, affR, changedT, changedR))
}

// archiveRefs returns the distinct source-ids of the v2 archive at p in s:
// from the index for an archive the plan leaves alone, parsed otherwise.
func (s *snapshot) archiveRefs(x *depIndex, p string, changed map[string]bool) []string {
	a, ok := s.archives[p]
	switch {
	case !ok || a.legacy:
		return nil
	case !changed[p]:
		return x.ArchiveRefs(p)
	}
	return deps.FrameRefs(a.frames)
}

// violationsIn is violations() restricted to the topic files affT and the
// archives affR: exactly the violations a full validation reports for
// those files. x is the index of the snapshot before the plan; changedT
// and changedR are the files the plan changes, the only ones where s may
// differ from it.
func (s *snapshot) violationsIn(x *depIndex, affT, affR, changedT, changedR map[string]bool) []errcode.Violation {
	// The first holder of a source-id or block id decides which copies are
	// duplicates, so the loops below also walk every other holder of the
	// ids the affected files hold; they report only for affected files.
	walkR := map[string]bool{}
	for p := range affR {
		walkR[p] = true
		for _, ref := range s.archiveRefs(x, p, changedR) {
			deps.AddKeys(walkR, x.ArchivesHolding(ref))
		}
	}
	deps.AddKeys(walkR, changedR)
	walkT := map[string]bool{}
	for p := range affT {
		walkT[p] = true
		if tf, ok := s.topics[p]; ok {
			for _, id := range tf.deps().IDs {
				deps.AddKeys(walkT, x.Holding(id))
			}
		}
	}
	deps.AddKeys(walkT, changedT)
	archPaths := present(walkR, func(p string) bool { _, ok := s.archives[p]; return ok })
	topicPaths := present(walkT, func(p string) bool { _, ok := s.topics[p]; return ok })
	var out []errcode.Violation
	for _, v := range s.archiveViolationsOf(archPaths) {
		if affR[v.Path] {
			out = append(out, v)
		}
	}
	for _, v := range s.topicViolationsOf(topicPaths, func(p string) bool { return affT[p] }) {
		if affT[v.Path] {
			out = append(out, v)
		}
	}
	sortViolations(out)
	return out
}

// present returns the keys of set for which ok holds, sorted.
func present(set map[string]bool, ok func(string) bool) []string {
	var out []string
	for p := range set {
		if ok(p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// sortViolations orders violations by path and line, as violations does.
func sortViolations(out []errcode.Violation) {
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
}
