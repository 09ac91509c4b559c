package search

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/scale"
	"scriptorium/workspace/archive"
)

// resyncWorkspace generates a workspace of n records and builds its index
// once, as a first search does.
func resyncWorkspace(t *testing.T, n int) (string, scale.Manifest) {
	t.Helper()
	state := t.TempDir()
	m, err := scale.Workspace(filepath.Join(state, "memory"), n, scale.DefaultSeed)
	if err != nil {
		t.Fatal(err)
	}
	e := resyncOpen(t, state)
	if _, err := e.Search(context.Background(), result.SearchQuery{Text: m.Queries[0]}); err != nil {
		t.Fatal(err)
	}
	if StatsOf(e).Rebuilds != 1 {
		t.Fatalf("first search: %d rebuilds", StatsOf(e).Rebuilds)
	}
	e.Close()
	return state, m
}

func resyncOpen(t *testing.T, state string) *engine.Engine {
	t.Helper()
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// indexIDs lists every document id of the index of e's workspace.
func indexIDs(t *testing.T, e *engine.Engine) []string {
	t.Helper()
	s, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ix, done, err := stateOf(e).openIndex()
	if err != nil {
		t.Fatal(err)
	}
	defer done(false)
	docs, err := ix.DocsIn(append(append([]string(nil), s.TopicPaths()...), s.ArchivePaths()...))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, d := range docs {
		ids = append(ids, d.ID)
	}
	sort.Strings(ids)
	return ids
}

// snapshotIDs lists the ids of every document a full build of e's
// workspace holds.
func snapshotIDs(t *testing.T, e *engine.Engine) []string {
	t.Helper()
	s, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range DocMap(s) {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// docsOfFile counts the documents a snapshot of e's workspace has in p.
func docsOfFile(t *testing.T, e *engine.Engine, p string) int {
	t.Helper()
	s, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range DocMap(s) {
		if d.Path == p {
			n++
		}
	}
	return n
}

func touch(t *testing.T, state, rel string) {
	t.Helper()
	at := time.Now().Add(time.Minute)
	if err := os.Chtimes(filepath.Join(state, "memory", filepath.FromSlash(rel)), at, at); err != nil {
		t.Fatal(err)
	}
}

// TestIndexResync_TouchOneFile: touching one topic file of a 2k-record
// workspace re-indexes that file's documents and nothing else, with no
// rebuild, and the next search is answered from the index at once.
func TestIndexResync_TouchOneFile(t *testing.T) {
	state, m := resyncWorkspace(t, 2000)
	target := m.EditTopics[0]
	touch(t, state, target)
	e := resyncOpen(t, state)
	want := docsOfFile(t, e, target)
	if want == 0 {
		t.Fatalf("%s holds no documents: pick another file", target)
	}
	if _, err := e.Search(context.Background(), result.SearchQuery{Text: m.Queries[1]}); err != nil {
		t.Fatal(err)
	}
	if n := StatsOf(e).Rebuilds; n != 0 {
		t.Fatalf("touching one file caused %d full rebuilds", n)
	}
	if n := StatsOf(e).Resynced; n != int64(want) {
		t.Fatalf("touching %s (%d documents) re-indexed %d documents", target, want, n)
	}
	e.Close()
	e2 := resyncOpen(t, state)
	if _, err := e2.Search(context.Background(), result.SearchQuery{Text: m.Queries[1]}); err != nil {
		t.Fatal(err)
	}
	if StatsOf(e2).Fast != 1 {
		t.Errorf("after the resync the index is not fresh: the next cold search read the workspace")
	}
}

// TestIndexResync_TouchArchive: touching an archive re-indexes its records
// and the blocks that cite them (their trust and context come from it),
// nothing else.
func TestIndexResync_TouchArchive(t *testing.T) {
	state, m := resyncWorkspace(t, 2000)
	arch := m.Cites[0].Archive
	touch(t, state, arch)
	e := resyncOpen(t, state)
	s, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := docsOfFile(t, e, arch)
	for _, p := range s.TopicPaths() {
		t, _ := s.Topic(p)
		want += len(blocksCiting(t, map[string]bool{arch: true}, nil))
	}
	if _, err := e.Search(context.Background(), result.SearchQuery{Text: m.Queries[1]}); err != nil {
		t.Fatal(err)
	}
	if StatsOf(e).Rebuilds != 0 || StatsOf(e).Resynced > int64(want) || StatsOf(e).Resynced < int64(docsOfFile(t, e, arch)) {
		t.Fatalf("touching %s: %d rebuilds, %d documents re-indexed (its own and its citers': %d)",
			arch, StatsOf(e).Rebuilds, StatsOf(e).Resynced, want)
	}
}

// TestIndexResync_EditsMatchRebuild: hand edits of every kind (a topic
// rewritten, a topic deleted, a new topic, an archive cut short, an
// archive deleted) are resynced, and the index then holds exactly the
// documents a full build holds, and finds the new text.
func TestIndexResync_EditsMatchRebuild(t *testing.T) {
	state, m := resyncWorkspace(t, 2000)
	mem := filepath.Join(state, "memory")
	e := resyncOpen(t, state)
	s, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e.Close()
	// A rewritten topic: its first block replaced by new text.
	edit := m.EditTopics[0]
	data, err := os.ReadFile(filepath.Join(mem, edit))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mem, edit), append(data, []byte("\nThe owner repaired the zeppelin hangar. ^feedf00d\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	// A deleted topic, and an archive deleted (blocks citing it lose
	// their trust), and an archive cut in half.
	for _, p := range s.TopicPaths() {
		if p != edit && !slices.Contains(m.EditTopics, p) && strings.Count(p, "/") > 1 {
			if err := os.Remove(filepath.Join(mem, p)); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if err := os.Remove(filepath.Join(mem, m.Cites[0].Archive)); err != nil {
		t.Fatal(err)
	}
	for _, p := range s.ArchivePaths() {
		if p != m.Cites[0].Archive && strings.Contains(p, "/_v2/") {
			data, _ := s.Content(p)
			provider, thread := strings.Split(p, "/")[1], strings.TrimSuffix(path.Base(p), ".md")
			grown, _, err := archive.Append(data, []archive.Record{{SourceID: provider + "/" + thread + "/zz1", Role: "user",
				Time: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Content: "The blimp mooring mast was painted."}})
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(mem, p), grown, 0o600); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	e = resyncOpen(t, state)
	res, err := e.Search(context.Background(), result.SearchQuery{Text: "zeppelin hangar"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 || res[0].Ref != "feedf00d" {
		t.Fatalf("the new block is not found: %+v", res)
	}
	if res, err := e.Search(context.Background(), result.SearchQuery{Text: "blimp mooring mast"}); err != nil || len(res) == 0 || !strings.HasSuffix(res[0].Ref, "/zz1") {
		t.Fatalf("the appended record is not found: %+v %v", res, err)
	}
	if StatsOf(e).Rebuilds != 0 || StatsOf(e).Resynced == 0 {
		t.Fatalf("%d rebuilds, %d documents resynced: want a resync", StatsOf(e).Rebuilds, StatsOf(e).Resynced)
	}
	got, want := indexIDs(t, e), snapshotIDs(t, e)
	if !slices.Equal(got, want) {
		t.Fatalf("after the resync the index holds %d documents, a full build %d", len(got), len(want))
	}
}

// TestIndexResync_AfterInstall: an install updates the index and its
// record of file versions, so a hand edit after it is resynced too.
func TestIndexResync_AfterInstall(t *testing.T) {
	state, m := resyncWorkspace(t, 2000)
	e := resyncOpen(t, state)
	rev := int64(0)
	if st, err := e.Status(context.Background()); err == nil {
		rev = st.Revision
	}
	add := "The owner tuned the theremin. ^0dd0dd00\n"
	if _, err := e.Update(context.Background(), result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "append", Path: m.EditTopics[1], Content: &add}}}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	touch(t, state, m.EditTopics[0])
	e = resyncOpen(t, state)
	res, err := e.Search(context.Background(), result.SearchQuery{Text: "theremin"})
	if err != nil || len(res) != 1 {
		t.Fatalf("search after the install and the touch: %+v %v", res, err)
	}
	if StatsOf(e).Rebuilds != 0 || StatsOf(e).Resynced != int64(docsOfFile(t, e, m.EditTopics[0])) {
		t.Fatalf("a touch after an install: %d rebuilds, %d documents re-indexed", StatsOf(e).Rebuilds, StatsOf(e).Resynced)
	}
}

// TestIndexResync_CutShortKeepsItsProgress: a sync of many changed files
// whose context ends after its first batch (the prompt hook's budget)
// keeps that batch: the index, its record and its meta describe the files
// as far as it got, the search answers from the index as it stands, and
// the next sync re-indexes only the files left, ending exactly where a
// full build would.
func TestIndexResync_CutShortKeepsItsProgress(t *testing.T) {
	defer func(n int) { resyncChunk = n }(resyncChunk)
	resyncChunk = 8
	state, _ := resyncWorkspace(t, 2000)
	e := resyncOpen(t, state)
	s, err := e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	touched := 0
	for _, p := range s.ArchivePaths() {
		if touched == 2*resyncChunk+4 {
			break
		}
		touch(t, state, p)
		touched++
	}
	if touched*resyncShare > len(s.TopicPaths())+len(s.ArchivePaths()) {
		t.Fatalf("the workspace has too few files (%d) for %d touched", len(s.TopicPaths())+len(s.ArchivePaths()), touched)
	}
	e.Close()

	e = resyncOpen(t, state)
	s, err = e.Corpus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ix, done, err := stateOf(e).openIndex()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // ends the sync after its first batch
	if _, err := stateOf(e).syncIndex(ctx, ix, s); !errors.Is(err, errSyncCutShort) {
		t.Fatalf("a sync whose context ended: %v, want it cut short", err)
	}
	iq, err := checkQuery(result.SearchQuery{Text: "budget"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stateOf(e).searchAsItStands(ix, s, iq); err != nil {
		t.Fatalf("the answer as the index stands: %v", err)
	}
	done(false)
	first := StatsOf(e).Resynced
	if first == 0 || StatsOf(e).Rebuilds != 0 {
		t.Fatalf("cut short: %d documents re-indexed, %d rebuilds", first, StatsOf(e).Rebuilds)
	}
	e.Close()

	e = resyncOpen(t, state)
	if _, err := e.Search(context.Background(), result.SearchQuery{Text: "budget"}); err != nil {
		t.Fatal(err)
	}
	second := StatsOf(e).Resynced
	if StatsOf(e).Rebuilds != 0 || second == 0 {
		t.Fatalf("the continued sync: %d rebuilds, %d documents", StatsOf(e).Rebuilds, second)
	}
	if got, want := indexIDs(t, e), snapshotIDs(t, e); !slices.Equal(got, want) {
		t.Fatalf("after the continued sync the index holds %d documents, a full build %d", len(got), len(want))
	}
	// The second sync did only what the first left: together they wrote
	// about what one sync of every touched file writes (the blocks citing
	// archives of both halves are written by both).
	e.Close()
	ref, _ := resyncWorkspace(t, 2000)
	rs, _ := resyncOpen(t, ref).Corpus(context.Background())
	for _, p := range rs.ArchivePaths()[:touched] {
		touch(t, ref, p)
	}
	one := resyncOpen(t, ref)
	if _, err := one.Search(context.Background(), result.SearchQuery{Text: "budget"}); err != nil {
		t.Fatal(err)
	}
	all := StatsOf(one).Resynced
	if second >= all {
		t.Errorf("the continued sync wrote %d documents, a whole sync %d: it started again", second, all)
	}
	t.Logf("cut short after %d documents, continued with %d; one whole sync: %d", first, second, all)
}

// TestSearch_BudgetedCallerNeverRebuilds: a caller with a deadline (the
// prompt hook) whose index needs a full rebuild answers from the index as
// it stands, and leaves the rebuild to a caller without one.
func TestSearch_BudgetedCallerNeverRebuilds(t *testing.T) {
	state := coldFacts(t)
	mem := filepath.Join(state, "memory")
	// No record of the indexed versions: only a rebuild can sync.
	if err := os.Remove(filepath.Join(mem, ".scriptorium", "index", "files")); err != nil {
		t.Fatal(err)
	}
	edited := "# Facts\n\nThe owner keeps bees on the roof. ^0000000a\n\nThe owner plays the violin on Sundays. ^0000000c\n"
	if err := os.WriteFile(filepath.Join(mem, "topics", "facts.md"), []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	e := resyncOpen(t, state)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := e.Search(ctx, result.SearchQuery{Text: "bees cello"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Ref != "0000000a" {
		t.Fatalf("the budgeted answer: %+v (want the block the file still holds, not the edited-away one)", res)
	}
	if StatsOf(e).Rebuilds != 0 || StatsOf(e).Stale != 1 {
		t.Fatalf("budgeted: %d rebuilds, %d stale answers", StatsOf(e).Rebuilds, StatsOf(e).Stale)
	}
	res, err = e.Search(context.Background(), result.SearchQuery{Text: "violin"})
	if err != nil || len(res) != 1 || StatsOf(e).Rebuilds != 1 {
		t.Fatalf("unbudgeted: %+v %v, %d rebuilds", res, err, StatsOf(e).Rebuilds)
	}
}
