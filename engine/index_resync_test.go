package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

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
	if _, err := e.Search(context.Background(), SearchQuery{Text: m.Queries[0]}); err != nil {
		t.Fatal(err)
	}
	if e.indexRebuilds.Load() != 1 {
		t.Fatalf("first search: %d rebuilds", e.indexRebuilds.Load())
	}
	e.Close()
	return state, m
}

func resyncOpen(t *testing.T, state string) *Engine {
	t.Helper()
	e, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// indexIDs lists every document id of the index of e's workspace.
func indexIDs(t *testing.T, e *Engine) []string {
	t.Helper()
	s, err := e.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ix, err := e.openIndex()
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	docs, err := ix.DocsIn(append(append([]string(nil), s.topicPaths...), s.archPaths...))
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
func snapshotIDs(t *testing.T, e *Engine) []string {
	t.Helper()
	s, err := e.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range s.docsOf() {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// docsOfFile counts the documents a snapshot of e's workspace has in p.
func docsOfFile(t *testing.T, e *Engine, p string) int {
	t.Helper()
	s, err := e.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range s.docsOf() {
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
	if _, err := e.Search(context.Background(), SearchQuery{Text: m.Queries[1]}); err != nil {
		t.Fatal(err)
	}
	if n := e.indexRebuilds.Load(); n != 0 {
		t.Fatalf("touching one file caused %d full rebuilds", n)
	}
	if n := e.indexResynced.Load(); n != int64(want) {
		t.Fatalf("touching %s (%d documents) re-indexed %d documents", target, want, n)
	}
	e.Close()
	e2 := resyncOpen(t, state)
	if _, err := e2.Search(context.Background(), SearchQuery{Text: m.Queries[1]}); err != nil {
		t.Fatal(err)
	}
	if e2.fastSearches.Load() != 1 {
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
	s, err := e.snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := docsOfFile(t, e, arch)
	for _, p := range s.topicPaths {
		want += len(s.topics[p].blocksCiting(map[string]bool{arch: true}, nil))
	}
	if _, err := e.Search(context.Background(), SearchQuery{Text: m.Queries[1]}); err != nil {
		t.Fatal(err)
	}
	if e.indexRebuilds.Load() != 0 || e.indexResynced.Load() > int64(want) || e.indexResynced.Load() < int64(docsOfFile(t, e, arch)) {
		t.Fatalf("touching %s: %d rebuilds, %d documents re-indexed (its own and its citers': %d)",
			arch, e.indexRebuilds.Load(), e.indexResynced.Load(), want)
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
	s, err := e.snapshot(context.Background())
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
	for _, p := range s.topicPaths {
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
	for _, p := range s.archPaths {
		if p != m.Cites[0].Archive && strings.Contains(p, "/_v2/") {
			a := s.archives[p]
			grown, _, err := archive.Append(a.data, []archive.Record{{SourceID: a.provider + "/" + a.thread + "/zz1", Role: "user",
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
	res, err := e.Search(context.Background(), SearchQuery{Text: "zeppelin hangar"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 || res[0].Ref != "feedf00d" {
		t.Fatalf("the new block is not found: %+v", res)
	}
	if res, err := e.Search(context.Background(), SearchQuery{Text: "blimp mooring mast"}); err != nil || len(res) == 0 || !strings.HasSuffix(res[0].Ref, "/zz1") {
		t.Fatalf("the appended record is not found: %+v %v", res, err)
	}
	if e.indexRebuilds.Load() != 0 || e.indexResynced.Load() == 0 {
		t.Fatalf("%d rebuilds, %d documents resynced: want a resync", e.indexRebuilds.Load(), e.indexResynced.Load())
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
	if _, err := e.Update(context.Background(), Transaction{BaseRevision: &rev, Edits: []Edit{{Op: "append", Path: m.EditTopics[1], Content: &add}}}); err != nil {
		t.Fatal(err)
	}
	e.Close()
	touch(t, state, m.EditTopics[0])
	e = resyncOpen(t, state)
	res, err := e.Search(context.Background(), SearchQuery{Text: "theremin"})
	if err != nil || len(res) != 1 {
		t.Fatalf("search after the install and the touch: %+v %v", res, err)
	}
	if e.indexRebuilds.Load() != 0 || e.indexResynced.Load() != int64(docsOfFile(t, e, m.EditTopics[0])) {
		t.Fatalf("a touch after an install: %d rebuilds, %d documents re-indexed", e.indexRebuilds.Load(), e.indexResynced.Load())
	}
}
