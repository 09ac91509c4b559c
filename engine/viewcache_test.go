package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"scriptorium/engine/viewcache"
)

// TestViewCache_FreshProcessesMatchFullRender is TestDerivedCache_MatchesFullRender
// with every step taken by a fresh engine (a fresh process: nothing kept
// in memory, the views' fragments merged from .scriptorium/runtime/views.cache),
// saving after every render that rendered a topic (SaveShare 1<<30) and at the
// default share: the views on disk are byte for byte a full render of the
// workspace after every install, and the cache is written and read.
func TestViewCache_FreshProcessesMatchFullRender(t *testing.T) {
	steps := 60
	if testing.Short() {
		steps = 25
	}
	for _, share := range []int{1 << 30, viewcache.SaveShare} {
		for seed := range uint64(2) {
			t.Run(fmt.Sprintf("share=%d/seed=%d", share, seed), func(t *testing.T) {
				defer func(old int) { viewcache.SaveShare = old }(viewcache.SaveShare)
				viewcache.SaveShare = share
				state := t.TempDir()
				w := &incWorld{t: t, r: rand.New(rand.NewPCG(seed, 26))}
				open := func() *Engine {
					e, err := Open(context.Background(), Options{StateDir: state})
					if err != nil {
						t.Fatal(err)
					}
					return e
				}
				w.engines = []*Engine{open()}
				saved := false
				for step := range steps {
					w.engines[0].Close()
					w.engines[0] = open()
					rev, _ := w.engines[0].ws.Revision()
					w.step()
					if now, _ := w.engines[0].ws.Revision(); now != rev {
						w.check(w.engines[0], step)
					}
					if _, err := os.Stat(filepath.Join(w.engines[0].ws.RuntimeDir(), viewcache.Name)); err == nil {
						saved = true
					}
				}
				w.engines[0].Close()
				if !saved {
					t.Fatal("no views.cache was ever written")
				}
			})
		}
	}
}
