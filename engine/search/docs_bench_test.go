package search

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/scale"
	"scriptorium/workspace/archive"
)

// BenchmarkDocs is the document building on a generated workspace of 20k
// records: every document of a snapshot (what a rebuild and the vector
// search index), and an install's difference after one record is appended
// to an archive (what every install re-indexes). BENCHMARKS.md compares it
// with the core's document building it replaced (issue 25).
func BenchmarkDocs(b *testing.B) {
	ctx := context.Background()
	state := b.TempDir()
	if _, err := scale.Workspace(filepath.Join(state, "memory"), 20_000, scale.DefaultSeed); err != nil {
		b.Fatal(err)
	}
	e, err := engine.Open(ctx, engine.Options{StateDir: state})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	before, err := e.Corpus(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var thread string
	for _, p := range before.ArchivePaths() {
		if prov, name, ok := strings.Cut(strings.TrimPrefix(p, "sources/"), "/_v2/"); ok {
			thread = prov + "/" + strings.TrimSuffix(name, ".md")
			break
		}
	}
	v, err := e.View(ctx)
	if err != nil {
		b.Fatal(err)
	}
	archives, err := e.ArchiveBatch(v, []archive.Record{{SourceID: thread + "/bench-1", Role: "user",
		Time: time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC), Content: "an appended turn"}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Install(ctx, engine.Change{Kind: "write", Actor: "owner", Archives: archives}); err != nil {
		b.Fatal(err)
	}
	after, err := e.Corpus(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("all", func(b *testing.B) {
		for range b.N {
			if len(DocMap(before)) == 0 {
				b.Fatal("no documents")
			}
		}
	})
	b.Run("install", func(b *testing.B) {
		for range b.N {
			if _, cur := IndexChanges(before, after); len(cur) == 0 {
				b.Fatal("no document changed")
			}
		}
	})
}
