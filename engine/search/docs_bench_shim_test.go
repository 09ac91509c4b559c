package search

import (
	"scriptorium/engine"
	"scriptorium/engine/index"
)

// The document building BenchmarkDocs measures (the baseline tree defines
// these on the core's old Corpus methods).
func benchDocMap(c engine.Corpus) map[string]index.Doc { return DocMap(c) }

func benchChanges(before, after engine.Corpus) (old, cur map[string]index.Doc) {
	return IndexChanges(before, after)
}
