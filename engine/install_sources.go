package engine

import (
	"sort"
	"strings"
)

// installSources lists what an install concerns for its history row: the
// records it archives, the sources its changed topic files cite that none
// of them cited before (a block moved between files is no news), and extra
// (the promoted, the forgotten), each once, sorted.
func installSources(before, after *snapshot, plan *txPlan, extra []string) []string {
	set := map[string]bool{}
	for _, id := range extra {
		set[id] = true
	}
	was, now := map[string]bool{}, map[string]bool{}
	for _, p := range plan.order {
		switch {
		case strings.HasPrefix(p, "sources/"):
			if a, ok := after.archives[p]; ok {
				for _, src := range a.sources {
					if _, had := before.sources.Get(src.ref); !had {
						set[src.ref] = true
					}
				}
			}
		case strings.HasPrefix(p, "topics/"):
			addCites(was, before.topics[p])
			addCites(now, after.topics[p])
		}
	}
	for id := range now {
		if !was[id] {
			set[id] = true
		}
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// addCites adds the source-ids a topic file's footnotes cite to set.
func addCites(set map[string]bool, tf *topicFile) {
	if tf == nil || tf.file == nil {
		return
	}
	for _, d := range tf.file.Definitions() {
		for _, c := range d.Sources {
			set[c.SourceID] = true
		}
	}
}
