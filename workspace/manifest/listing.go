package manifest

import (
	"sort"
	"strings"

	"scriptorium/workspace/archive"
)

// Listing is the memory files a stat walk found, with the manifest
// brought up to date with them: what a one-shot reading verb consults to
// name the few files its answer is made of, instead of reading the
// workspace.
type Listing struct {
	Topics   []string // listed topic paths, sorted
	Archives []string // listed archive paths, sorted
	M        *Manifest

	listed              map[string]bool
	byThread, byForeign map[string][]string // ArchivesHolding's lookups, built on first use
}

// Listed reports whether the walk found p.
func (l *Listing) Listed(p string) bool {
	if l.listed == nil {
		l.listed = make(map[string]bool, len(l.Topics)+len(l.Archives))
		for _, p := range l.Topics {
			l.listed[p] = true
		}
		for _, p := range l.Archives {
			l.listed[p] = true
		}
	}
	return l.listed[p]
}

// WithCites is the set of the listed paths among paths and the listed
// archives the manifest says they cite.
func (l *Listing) WithCites(paths []string) map[string]bool {
	want := map[string]bool{}
	for _, p := range paths {
		if !l.Listed(p) {
			continue
		}
		want[p] = true
		if ent := l.M.Get(p); ent != nil {
			for _, c := range ent.Cites {
				if l.Listed(c) {
					want[c] = true
				}
			}
		}
	}
	return want
}

// ArchivesHolding names every archive that may hold a record of the
// source-id: the thread's own archives (v2 and legacy) and any archive the
// manifest lists it in as out of thread. The lookup tables are built once
// per listing (a pending list asks for thousands of ids).
func (l *Listing) ArchivesHolding(id string) []string {
	if l.byThread == nil {
		l.byThread, l.byForeign = map[string][]string{}, map[string][]string{}
		for _, p := range l.Archives {
			provider, thread, _, _ := archive.PathParts(p)
			key := provider + "/" + thread + "/"
			l.byThread[key] = append(l.byThread[key], p)
			if ent := l.M.Get(p); ent != nil {
				for _, f := range ent.Foreign {
					l.byForeign[f] = append(l.byForeign[f], p)
				}
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	// A thread's key "provider/thread/" is a prefix of the id ending in a
	// slash: look each such prefix up.
	for i := 0; i < len(id); i++ {
		if id[i] != '/' {
			continue
		}
		for _, p := range l.byThread[id[:i+1]] {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	for _, p := range l.byForeign[id] {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// TopicHolding names the first topic file (in path order) with the block.
func (l *Listing) TopicHolding(id string) []string {
	for _, p := range l.Topics {
		if ent := l.M.Get(p); ent != nil {
			for _, b := range ent.Blocks {
				if b == id {
					return []string{p}
				}
			}
		}
	}
	return nil
}

// PathsForRef names the files a get of ref reads: the file of a
// "path#anchor" reference, the topic holding a block id ("^1a2b3c4d" or
// bare), or the archives that may hold a source-id.
func (l *Listing) PathsForRef(ref string) []string {
	ref = strings.TrimSpace(ref)
	if p, _, ok := strings.Cut(ref, "#"); ok {
		return []string{strings.TrimPrefix(p, "./")}
	}
	if id := strings.TrimPrefix(ref, "^"); len(id) == 8 {
		if hits := l.TopicHolding(id); hits != nil {
			return hits
		}
	}
	if strings.Count(ref, "/") >= 2 {
		return l.ArchivesHolding(ref)
	}
	return nil
}

// PendingPaths names the archives the pending list is made of: those
// holding a frame marked pending that no promotion lifted, and every other
// archive holding a record of the same source-id (the preferred record
// decides).
func (l *Listing) PendingPaths(promoted map[string]bool) []string {
	var out []string
	for _, p := range l.Archives {
		ent := l.M.Get(p)
		if ent == nil {
			continue
		}
		for _, id := range ent.Pending {
			if !promoted[id] {
				out = append(out, l.ArchivesHolding(id)...)
			}
		}
	}
	return out
}
