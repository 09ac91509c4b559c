package archive_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/workspace/archive"
)

func TestNamesIn(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"sources/tg/_v2/Group.md", "sources/tg/legacy.md", "sources/tg/_v2/notes.txt"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := archive.NamesIn(root)
	for _, c := range []struct {
		id      string
		collide bool
	}{{"TG/x/1", true}, {"tg/group/1", true}, {"tg/LEGACY/1", true}, {"tg/Group/1", false}, {"tg/notes/1", false}} {
		_, _, err := archive.Batch(names, []archive.Record{{SourceID: c.id, Role: "user", Time: time.Unix(1e9, 0), Content: "x"}}, func(string) []byte { return nil })
		if (err != nil) != c.collide {
			t.Errorf("%s: err %v, want a collision: %v", c.id, err, c.collide)
		}
	}
}
