// Package index is Scriptorium's full-text search index: a bleve v2 (scorch)
// index with BM25 scoring over trusted topic blocks and source records.
//
// The index is a rebuildable cache of the Markdown workspace. It lives in a
// directory chosen by the caller (the engine uses <memory>/.scriptorium/index/):
//
//	<dir>/format     the format version stamp, written only after a complete Rebuild
//	<dir>/lock       a flock(2) lock held while the index is open
//	<dir>/bleve/     the bleve index itself
//
// Open never fails because of what it finds on disk: a missing, corrupt or
// different-version index is replaced by an empty one and NeedsRebuild reports
// true, so the caller re-feeds every document with Rebuild. Incremental
// changes go through Apply, one bleve batch per installed transaction.
//
// No text is stored: hits carry ids, locations, times and speaker fields, and
// the caller fetches the text from the workspace. MakeSnippet cuts a
// query-centred excerpt from that text.
//
// Scoring is BM25 over four fields: the document's own words (text), who
// said it (who: trusted speaker fields only), the conversation around it
// (ctx, low weight) and its days (date: its time and the dates its text
// names or implies); query.go says how a question is turned into lookups
// of them and dates.go how dates are found.
//
// bleve derives the average field length from per-segment dictionary sizes,
// which changes rankings whenever segments merge, so the index keeps its own
// running totals (documents and analysed tokens of the scored fields) inside
// the index, updated atomically with each batch, and hands them to bleve
// with every search. The token counts come from the one analysis of each
// document: the scored fields hand bleve the tokens already counted
// (encode.go). Equal ranks come back in id order, so a search answers the
// same whatever the segment layout; ties.go says how without paying for
// bleve's sort on the id.
package index
