package engine

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// incWorld drives random installs through two engines on one workspace
// (two processes: each sees the other's installs only on disk).
type incWorld struct {
	t       *testing.T
	r       *rand.Rand
	engines []*Engine
	n       int // records archived so far
}

func (w *incWorld) snapshot(e *Engine) *snapshot {
	s, err := e.snapshot(context.Background())
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// record archives one new record, pending one time in three.
func (w *incWorld) record() archive.Record {
	w.n++
	r := archive.Record{SourceID: fmt.Sprintf("chat/t%d/m%d", w.r.IntN(3), w.n), Role: "user",
		Time: time.Date(2025, 1, 1+w.r.IntN(5), 9, 0, 0, 0, time.UTC), Content: fmt.Sprintf("message %d", w.n)}
	if w.r.IntN(3) == 0 {
		r.SpeakerID, r.SpeakerDisplay, r.Pending = "u9", "Stranger", true
	}
	return r
}

// topicText draws a topic citing random archived sources and linking to
// random existing blocks.
func (w *incWorld) topicText(s *snapshot, p string) string {
	var srcs []*sourceEntry
	for _, ap := range s.archPaths {
		srcs = append(srcs, s.archives[ap].sources...)
	}
	var blocks []string // "path#id"
	for _, tp := range s.topicPaths {
		if tp == p {
			continue
		}
		for _, b := range s.topics[tp].file.Blocks() {
			blocks = append(blocks, tp+"#"+b.BlockID)
		}
	}
	var parts []string
	parts = append(parts, "# "+p)
	for i := range w.r.IntN(4) {
		id := fmt.Sprintf("%08x", w.r.Uint32())
		if len(blocks) > 0 && w.r.IntN(12) == 0 { // a duplicate block id
			_, id, _ = strings.Cut(blocks[w.r.IntN(len(blocks))], "#")
		}
		text := fmt.Sprintf("Block %d of %s", i, p)
		if len(blocks) > 0 && w.r.IntN(3) == 0 {
			to := blocks[w.r.IntN(len(blocks))]
			tp, bid, _ := strings.Cut(to, "#")
			if w.r.IntN(8) == 0 { // a broken link
				bid = "0badbad0"
			}
			text += fmt.Sprintf(" see [there](%s#^%s)", relFrom(p, tp), bid)
		}
		var defs []string
		for j := range w.r.IntN(3) {
			if len(srcs) == 0 {
				break
			}
			src := srcs[w.r.IntN(len(srcs))]
			label := topic.NewFootnoteLabel(fmt.Sprintf("%s/%d", id, j))
			text += "[^" + label + "]"
			c := topic.Citation{SourceID: src.view().Ref, Path: relFrom(p, src.view().Path), Anchor: src.view().Anchor}
			switch w.r.IntN(12) {
			case 0: // a citation that does not resolve (yet)
				c.Anchor = archive.AnchorFor(fmt.Sprintf("chat/t%d/m%d", w.r.IntN(3), w.n+1+w.r.IntN(3)))
				c.SourceID = fmt.Sprintf("chat/t%d/m%d", w.r.IntN(3), w.n+1)
			case 1: // one into an archive that does not exist (yet)
				c.Path = relFrom(p, "sources/chat/_v2/t9.md")
			}
			defs = append(defs, topic.FormatDefinition(topic.Definition{Label: label, Date: src.view().Time[:10],
				Sources: []topic.Citation{c}}))
		}
		parts = append(parts, text+" ^"+id)
		parts = append(parts, defs...)
	}
	return strings.Join(parts, "\n\n") + "\n"
}

// step installs one random change through one of the engines.
func (w *incWorld) step() {
	e, ch, ok := w.change()
	if !ok {
		return
	}
	if _, err := e.install(context.Background(), ch); err != nil && errcode.As(err).Code != errcode.Rejected {
		w.t.Fatal(err)
	}
}

// change draws a random change for a random engine; ok is false when the
// step was done already (a promotion) or has nothing to install.
func (w *incWorld) change() (e *Engine, ch Change, ok bool) {
	ctx := context.Background()
	e = w.engines[w.r.IntN(len(w.engines))]
	s := w.snapshot(e)
	paths := []string{"topics/core.md", "topics/a.md", "topics/b/c.md", "topics/people/d.md"}
	p := paths[w.r.IntN(len(paths))]
	ch = Change{Kind: "update", Actor: "owner"}
	switch op := w.r.IntN(12); {
	case op < 2: // archive records
		var recs []archive.Record
		for range 1 + w.r.IntN(3) {
			recs = append(recs, w.record())
		}
		archives, _, err := e.archiveBatch(s, recs)
		if err != nil {
			w.t.Fatal(err)
		}
		ch.Kind, ch.Archives = "write", archives
		w.damageArchive(s, ch.Archives)
	case op < 3: // promote a pending source, one that a block cites when there is one
		var pending, cited []string
		citedNow := s.citedSources()
		for _, ps := range s.pendingSources() {
			pending = append(pending, ps.Ref)
			if citedNow[ps.Ref] {
				cited = append(cited, ps.Ref)
			}
		}
		if len(cited) > 0 {
			pending = cited
		}
		if len(pending) > 0 {
			if _, err := e.Promote(ctx, []string{pending[w.r.IntN(len(pending))]}); err != nil {
				w.t.Fatal(err)
			}
		}
		return e, ch, false
	case op < 4: // delete
		if _, ok := s.topics[p]; ok {
			ch.Edits = []result.Edit{{Op: "delete", Path: p}}
		}
	case op < 5: // move
		to := paths[w.r.IntN(len(paths))]
		if _, ok := s.topics[p]; ok && s.topics[to] == nil {
			ch.Edits = []result.Edit{{Op: "move", Path: p, To: to}}
		}
	case op < 7: // append
		text := w.topicText(s, p)
		ch.Edits = []result.Edit{{Op: "append", Path: p, Content: &text}}
	case op < 8: // a topic written behind the engine's back, violations and all
		text := w.topicText(s, p)
		full := filepath.Join(e.ws.Root(), filepath.FromSlash(p))
		_ = os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			w.t.Fatal(err)
		}
		return e, ch, false
	default: // create or replace
		text := w.topicText(s, p)
		op := "create"
		if _, ok := s.topics[p]; ok {
			op = "replace"
		}
		ch.Edits = []result.Edit{{Op: op, Path: p, Content: &text}}
	}
	if w.r.IntN(6) == 0 {
		w.handEdit(e)
	}
	return e, ch, len(ch.Edits) > 0 || len(ch.Archives) > 0
}

// damageArchive now and then appends to an archive of the batch a copy of
// another archive's frame (a duplicate source) or bytes that are no frame.
func (w *incWorld) damageArchive(s *snapshot, archives map[string][]byte) {
	for p, data := range archives {
		switch w.r.IntN(10) {
		case 0:
			for _, q := range s.archPaths {
				if a := s.archives[q]; q != p && len(a.frames) > 0 {
					frames, _ := archive.ParseV2(data)
					archives[p] = archive.RenderV2(append(frames, a.frames[w.r.IntN(len(a.frames))]))
					break
				}
			}
		case 1:
			archives[p] = append(data, "\n<a id=\"source-zz\"></a>\nnot a frame\n"...)
		}
	}
}

// handEdit changes a derived file behind the engine's back: the next
// install must put the rendered bytes back.
func (w *incWorld) handEdit(e *Engine) {
	var files []string
	_ = filepath.WalkDir(e.ws.Root(), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.Contains(p, ".scriptorium") && !strings.Contains(p, "/topics/") &&
			!strings.Contains(p, "/sources/") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		return
	}
	slices.Sort(files)
	f := files[w.r.IntN(len(files))]
	data, _ := os.ReadFile(f)
	if w.r.IntN(2) == 0 {
		data = bytes.ToUpper(data) // same size, in place
	} else {
		data = append(data, "hand edit\n"...)
	}
	if err := os.WriteFile(f, data, 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// check compares the derived files on disk with a render from scratch of
// a freshly read workspace.
func (w *incWorld) check(e *Engine, step int) {
	ctx := context.Background()
	promoted, err := e.rec.Promoted(ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	fresh, err := loadSnapshot(e.ws.Root(), promoted, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	want, wantRep := e.derivedFiles(fresh)
	// A cold core's trust-only read renders the same bytes and report.
	lean, err := loadSnapshotDoubting(e.ws.Root(), promoted, nil, nil, true)
	if err != nil {
		w.t.Fatal(err)
	}
	if leanFiles, leanRep := e.derivedFiles(lean); !maps.EqualFunc(leanFiles, want, bytes.Equal) || !reflect.DeepEqual(leanRep, wantRep) {
		w.t.Fatalf("step %d: a trust-only read renders other views", step)
	}
	got := map[string][]byte{}
	root := e.ws.Root()
	for _, p := range []string{"core.md", "recent_events.jsonl", "relations.json"} {
		got[p], _ = os.ReadFile(filepath.Join(root, p))
	}
	_ = filepath.WalkDir(filepath.Join(root, "timeline"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			got[filepath.ToSlash(rel)], _ = os.ReadFile(p)
		}
		return nil
	})
	for p := range want {
		if !bytes.Equal(got[p], want[p]) {
			w.t.Fatalf("step %d: %s differs from a full render:\n%s\nwant:\n%s", step, p, got[p], want[p])
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			w.t.Fatalf("step %d: %s is on disk but not in a full render", step, p)
		}
	}
}

// TestDerivedCache_MatchesFullRender: after every step of a random
// sequence of archive appends, topic creates, replaces, appends, deletes,
// moves and promotions, by two engines on one workspace and with derived
// files edited by hand now and then, the derived views on disk are byte
// for byte a full render of the workspace as read from disk.
func TestDerivedCache_MatchesFullRender(t *testing.T) {
	steps := 70
	if testing.Short() {
		steps = 25
	}
	for seed := range uint64(3) {
		state := t.TempDir()
		w := &incWorld{t: t, r: rand.New(rand.NewPCG(seed, 14))}
		for range 2 {
			e, err := Open(context.Background(), Options{StateDir: state})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			w.engines = append(w.engines, e)
		}
		for step := range steps {
			rev, _ := w.engines[0].ws.Revision()
			w.step()
			if now, _ := w.engines[0].ws.Revision(); now != rev {
				// The other engine renders on its next install; the one that
				// installed must have rendered the workspace as it is now.
				w.check(w.engines[0], step)
			}
		}
	}
}
