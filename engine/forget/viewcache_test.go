package forget_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/forget"
	"scriptorium/engine/result"
	"scriptorium/engine/revert"
	"scriptorium/engine/review"
	"scriptorium/engine/sessions"
	"scriptorium/engine/viewcache"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// TestViewCache_FreshEnginesOverForgetAndRevert: a random sequence (fixed
// seed) of topic edits, writer batches archiving owner and pending group
// turns, promotions, rejections, forgets and reverts, each step by a fresh
// engine (a fresh process, merging the views' fragments from views.cache,
// saved after every render that rendered a topic): after every step the
// derived views on disk are byte for byte a full render of the workspace.
func TestViewCache_FreshEnginesOverForgetAndRevert(t *testing.T) {
	defer func(old int) { viewcache.SaveShare = old }(viewcache.SaveShare)
	ctx := context.Background()
	for _, share := range []int{1 << 30, viewcache.SaveShare} {
		viewcache.SaveShare = share
		r := rand.New(rand.NewPCG(26, uint64(share)))
		state := ftEmpty(t, nil)
		open := func() *engine.Engine {
			e, err := engine.Open(ctx, engine.Options{StateDir: state, Interactive: true, Now: enginetest.Clock, Distiller: writer.Distiller{}})
			if err != nil {
				t.Fatal(err)
			}
			return e
		}
		turn := 0
		for step := range 30 {
			e := open()
			what := vcStep(t, ctx, e, r, state, &turn)
			e.Close()
			e = open()
			t.Logf("step %d: %s", step, what)
			vcCheck(t, e, fmt.Sprintf("share %d step %d (%s)", share, step, what))
			e.Close()
		}
	}
}

func vcStep(t *testing.T, ctx context.Context, e *engine.Engine, r *rand.Rand, state string, turn *int) string {
	t.Helper()
	soft := func(err error) { // a refused step (a conflict, nothing to do) is a step too
		if err != nil {
			t.Logf("%v", err)
		}
	}
	switch op := r.IntN(7); op {
	case 0, 1: // a writer batch: owner and pending group turns
		st, err := sessions.Open(workspace.SessionsDB(state), nil)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for range 1 + r.IntN(3) {
			*turn++
			if r.IntN(2) == 0 {
				fmt.Fprintf(&b, `{"session":"chat%d","id":"c%d","role":"user","content":"My friend number %d lives in Porto and likes tea.","time":"2026-08-%02dT12:00:00Z"}`+"\n",
					r.IntN(3), *turn, *turn, 1+r.IntN(9))
			} else {
				fmt.Fprintf(&b, `{"session":"grp","provider":"telegram","id":"g%d","role":"user","speaker_id":"u%d","speaker_display":"Stranger %d","content":"I am moving to Oslo number %d in May.","time":"2026-08-%02dT10:00:00Z","tier":"unpaired","group":true}`+"\n",
					*turn, r.IntN(3), *turn, *turn, 1+r.IntN(9))
			}
		}
		_, err = st.Import(strings.NewReader(b.String()))
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		_, err = writer.Write(ctx, e, writer.WriteOptions{Force: true})
		soft(err)
		return "write"
	case 2: // a topic edited by hand through update
		text := fmt.Sprintf("# Notes\n\nA note number %d. ^%08x\n", r.IntN(100), r.Uint32())
		_, err := e.Update(ctx, enginetest.Tx(ftRevision(t, e), enginetest.Append("topics/notes.md", text)))
		soft(err)
		return "update"
	case 3, 4: // promote or reject a pending source
		ps, err := e.PendingSources(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) == 0 {
			return "nothing pending"
		}
		ref := ps[r.IntN(len(ps))].Ref
		if r.IntN(2) == 0 {
			_, err = e.Promote(ctx, []string{ref})
			soft(err)
			return "promote " + ref
		}
		_, err = review.Reject(ctx, e, []string{ref}, "no")
		soft(err)
		return "reject " + ref
	case 5: // forget one archived source
		v, err := e.View(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var refs []string
		for _, p := range v.TopicPaths() {
			_, f, _ := v.Topic(p)
			for _, d := range f.Definitions() {
				for _, s := range d.Sources {
					refs = append(refs, s.SourceID)
				}
			}
		}
		if len(refs) == 0 {
			return "nothing to forget"
		}
		ref := refs[r.IntN(len(refs))]
		_, err = forget.Run(ctx, e, result.ForgetSelector{Sources: []string{ref}}, false)
		soft(err)
		return "forget " + ref
	default: // revert the last install
		h := ftHistory(t, e)
		if len(h) == 0 {
			return "nothing to revert"
		}
		_, err := revert.Revert(ctx, e, h[0].Revision, false) // newest first
		soft(err)
		return "revert"
	}
}

// vcCheck compares the derived views on disk with a full render.
func vcCheck(t *testing.T, e *engine.Engine, what string) {
	t.Helper()
	v, err := e.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := e.DerivedFiles(v)
	root := e.Root()
	if _, err := os.Stat(filepath.Join(root, "relations.json")); err != nil {
		return // nothing installed yet: no view rendered
	}
	got := map[string][]byte{}
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
			t.Fatalf("%s: %s differs from a full render:\n%s\nwant:\n%s", what, p, got[p], want[p])
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Fatalf("%s: %s is on disk but not in a full render", what, p)
		}
	}
}
