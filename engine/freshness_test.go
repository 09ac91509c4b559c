package engine

import (
	"encoding/json"
	"testing"
	"time"

	"scriptorium/engine/index"
)

// TestColdSearch_RacyFiles covers what a signature cannot see: an edit in
// the same clock tick as the write before it, with the same size on the
// same inode. Files changed just before the index recorded them carry
// their content hash, and a changed hash makes the index stale.
func TestColdSearch_RacyFiles(t *testing.T) {
	now := time.Now()
	old := fileSig{size: 5, mtime: now.Add(-time.Hour).UnixNano(), ctime: now.Add(-time.Hour).UnixNano(), ino: 1}
	recent := fileSig{size: 5, mtime: now.UnixNano(), ctime: now.UnixNano(), ino: 2}
	s := &snapshot{
		topics:     map[string]*topicFile{"topics/a.md": {sig: old, data: []byte("apple")}, "topics/b.md": {sig: recent, data: []byte("berry")}},
		topicPaths: []string{"topics/a.md", "topics/b.md"},
		archives:   map[string]*archiveFile{},
	}
	meta := s.racyFiles(now)
	var rec index.Racy
	if err := json.Unmarshal([]byte(meta), &rec); err != nil {
		t.Fatal(err)
	}
	if _, ok := rec.Files["topics/a.md"]; ok || len(rec.Files) != 1 {
		t.Fatalf("racy files %v: want only the recent topics/b.md", rec.Files)
	}
	disk := map[string]string{"topics/a.md": "apple", "topics/b.md": "berry"}
	content := func(p string) ([]byte, bool) { d, ok := disk[p]; return []byte(d), ok }
	if !index.RacyHold(meta, content) {
		t.Fatal("unchanged racy file reported changed")
	}
	disk["topics/a.md"] = "apric" // not racy: its signature decides
	if !index.RacyHold(meta, content) {
		t.Fatal("a file that was not racy was hashed")
	}
	disk["topics/b.md"] = "bunny" // same size, same signature, new bytes
	if index.RacyHold(meta, content) {
		t.Fatal("a same-tick edit of a racy file went unseen")
	}
	delete(disk, "topics/b.md")
	if index.RacyHold(meta, content) {
		t.Fatal("a missing racy file went unseen")
	}
	for _, bad := range []string{"", "{", `{"stamp":1}`, "null"} {
		if index.RacyHold(bad, content) {
			t.Errorf("damaged racy record %q trusted", bad)
		}
	}
}
