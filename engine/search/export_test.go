package search

import (
	"scriptorium/engine"
	"scriptorium/engine/index"
)

// Temporary: the old core API under the names the golden test uses.
func DocMap(c engine.Corpus) map[string]index.Doc { return c.DocMap() }
func Docs(c engine.Corpus) []index.Doc            { return c.Docs() }
func Touched(before, after engine.Corpus) (old, cur map[string]index.Doc) {
	return after.Touched(before)
}
func Resync(c engine.Corpus, changed []string, refs map[string]bool, old []index.DocRef) ([]index.Doc, []string) {
	return c.Resync(changed, refs, old)
}
func Holds(c engine.Corpus, h index.Hit) bool     { return c.Holds(h) }
func HitText(c engine.Corpus, h index.Hit) string { return c.HitText(h) }
