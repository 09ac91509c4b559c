package deps

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"scriptorium/workspace/archive"
)

// TestIndex_ArchivesHoldingAsASet: the one-archive map and the overflow
// sets answer as one set per source-id did, through random adds and
// drops of archives sharing source-ids.
func TestIndex_ArchivesHoldingAsASet(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 1))
	var x Index
	want := map[string]map[string]bool{} // archive → its refs
	for step := range 2000 {
		p := fmt.Sprintf("sources/p/_v2/t%d.md", r.IntN(6))
		if _, ok := want[p]; ok && r.IntN(3) == 0 {
			x.DropArchive(p)
			delete(want, p)
		} else {
			if ok {
				x.DropArchive(p)
			}
			var frames []archive.Frame
			refs := map[string]bool{}
			for range r.IntN(5) {
				id := fmt.Sprintf("p/t/%d", r.IntN(10))
				frames = append(frames, archive.Frame{SourceID: id})
				refs[id] = true
			}
			x.AddArchive(p, frames)
			want[p] = refs
		}
		for i := range 10 {
			id := fmt.Sprintf("p/t/%d", i)
			exp := map[string]struct{}{}
			for a, refs := range want {
				if refs[id] {
					exp[a] = struct{}{}
				}
			}
			got := x.ArchivesHolding(id)
			if len(exp) == 0 && got != nil || len(exp) > 0 && !maps.Equal(got, exp) {
				t.Fatalf("step %d: ArchivesHolding(%s) = %v, want %v", step, id, got, exp)
			}
		}
		if n := len(x.refMore); n > 0 {
			for id, m := range x.refMore {
				if len(m) < 2 {
					t.Fatalf("step %d: %s kept a set of %d", step, id, len(m))
				}
			}
		}
	}
}

// TestIndex_ArchivesReadOnFirstQuestion: adding archives indexes none of
// their source-ids until a question about archives is asked (a fresh
// process's one-file update never asks), and the answers are then the
// same as an index that read each archive as it was added, through random
// adds, drops and re-adds with questions now and then.
func TestIndex_ArchivesReadOnFirstQuestion(t *testing.T) {
	var x Index
	x.AddArchive("sources/p/_v2/a.md", []archive.Frame{{SourceID: "p/a/1"}})
	x.AddArchive("sources/p/_v2/b.md", []archive.Frame{{SourceID: "p/b/1"}, {SourceID: "p/a/1"}})
	x.AddTopic("topics/t.md", &Topic{Targets: []string{"sources/p/_v2/a.md"}, Refs: []string{"p/a/1"}})
	if len(x.refHold)+len(x.refMore)+len(x.archRefs) != 0 {
		t.Fatalf("archives indexed before any question: hold %v more %v refs %v", x.refHold, x.refMore, x.archRefs)
	}
	if got := x.ArchivesHolding("p/a/1"); len(got) != 2 {
		t.Fatalf("ArchivesHolding(p/a/1) = %v, want both archives", got)
	}
	r := rand.New(rand.NewPCG(26, 7))
	var lazy, eager Index
	present := map[string]bool{}
	for step := range 3000 {
		p := fmt.Sprintf("sources/p/_v2/t%d.md", r.IntN(8))
		switch {
		case present[p] && r.IntN(3) == 0:
			lazy.DropArchive(p)
			eager.DropArchive(p)
			delete(present, p)
		default:
			if present[p] { // a changed archive is dropped first, as the engine does
				lazy.DropArchive(p)
				eager.DropArchive(p)
			}
			var frames []archive.Frame
			for range r.IntN(5) {
				frames = append(frames, archive.Frame{SourceID: fmt.Sprintf("p/t/%d", r.IntN(12))})
			}
			lazy.AddArchive(p, frames)
			eager.AddArchive(p, frames)
			eager.readArchives()
			present[p] = true
		}
		if r.IntN(6) != 0 {
			continue
		}
		for i := range 12 {
			id := fmt.Sprintf("p/t/%d", i)
			if got, want := lazy.ArchivesHolding(id), eager.ArchivesHolding(id); !maps.Equal(got, want) {
				t.Fatalf("step %d: ArchivesHolding(%s) = %v, want %v", step, id, got, want)
			}
		}
		for i := range 8 {
			p := fmt.Sprintf("sources/p/_v2/t%d.md", i)
			if got, want := lazy.ArchiveRefs(p), eager.ArchiveRefs(p); !slices.Equal(got, want) {
				t.Fatalf("step %d: ArchiveRefs(%s) = %v, want %v", step, p, got, want)
			}
		}
	}
}
