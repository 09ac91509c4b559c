package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
)

// BenchmarkIndexSync20k is the first search after the files changed
// behind the engine's back, at 20k records (issue 24 §4), as a one-shot
// CLI search or the prompt hook runs it: a new engine, one search.
// touch-topic and touch-archive touch one file (re-indexed alone, with
// what depends on it); full has no usable index (a full build).
func BenchmarkIndexSync20k(b *testing.B) {
	state, m := benchWarm(b, 20_000)
	run := func(b *testing.B, change func(b *testing.B, state string)) {
		for range b.N {
			b.StopTimer()
			cp := benchCopy(b, state)
			change(b, cp)
			b.StartTimer()
			e, err := engine.Open(context.Background(), engine.Options{StateDir: cp})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := e.Search(context.Background(), result.SearchQuery{Text: m.Queries[1]}); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			e.Close()
			os.RemoveAll(cp)
		}
	}
	touch := func(rel string) func(b *testing.B, state string) {
		return func(b *testing.B, state string) {
			at := time.Now().Add(time.Minute)
			if err := os.Chtimes(filepath.Join(memDir(state), filepath.FromSlash(rel)), at, at); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("touch-topic", func(b *testing.B) { run(b, touch(m.EditTopics[0])) })
	b.Run("touch-archive", func(b *testing.B) { run(b, touch(m.Cites[0].Archive)) })
	b.Run("full", func(b *testing.B) {
		run(b, func(b *testing.B, state string) {
			if err := os.RemoveAll(indexDir(state)); err != nil {
				b.Fatal(err)
			}
		})
	})
}
