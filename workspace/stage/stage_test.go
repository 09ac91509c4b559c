package stage

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func put(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// committed reads the test's journal: "rev\ntarget staged\n…", committed
// when it starts with "ok ".
func committed(data []byte) ([]Op, int64, bool) {
	s, ok := strings.CutPrefix(string(data), "ok ")
	if !ok {
		return nil, 0, false
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	var ops []Op
	for _, l := range lines[1:] {
		target, staged, _ := strings.Cut(l, " ")
		ops = append(ops, Op{Target: target, Staged: staged})
	}
	return ops, int64(len(lines[0])), true
}

func TestOverlay(t *testing.T) {
	root := t.TempDir()
	put(t, filepath.Join(root, "topics/old.md"), "old")
	put(t, filepath.Join(root, "topics/gone.md"), "gone")
	put(t, filepath.Join(root, ".meta/revision"), "1\n")
	rt := filepath.Join(root, ".meta/runtime")
	put(t, filepath.Join(rt, "tx-a/journal.json"), "ok 2\ntopics/old.md f0\ntopics/new.md f1\ntopics/gone.md \n.meta/x f2\n")
	put(t, filepath.Join(rt, "tx-a/f0"), "old, new version")
	put(t, filepath.Join(rt, "tx-a/f1"), "new")
	put(t, filepath.Join(rt, "tx-b/journal.json"), "torn")        // not committed
	put(t, filepath.Join(rt, "tx-c/journal.json.part"), "ok 3\n") // not committed either
	ov := Read(root, ".meta", "journal.json", committed)
	if ov.Empty() || ov.Seen != "1 tx-a" {
		t.Fatalf("overlay %+v", ov)
	}
	if target, deleted := ov.Target("topics/gone.md"); !target || !deleted {
		t.Error("gone.md is deleted by the stage")
	}
	if target, deleted := ov.Target("topics/old.md"); !target || deleted {
		t.Error("old.md is replaced by the stage")
	}
	if target, _ := ov.Target(".meta/x"); target {
		t.Error("only memory files are overlaid")
	}
	listed := map[string]bool{"topics/old.md": true, "topics/gone.md": true}
	if got := ov.Added("topics", func(p string) bool { return listed[p] }); !slices.Equal(got, []string{"topics/new.md"}) {
		t.Errorf("added %v", got)
	}
	if data, err := ov.ReadFile(root, "topics/old.md"); err != nil || string(data) != "old, new version" {
		t.Errorf("staged read %q %v", data, err)
	}
	// Renamed into place since: the target is read.
	if err := os.Rename(filepath.Join(rt, "tx-a/f1"), filepath.Join(root, "topics/new.md")); err != nil {
		t.Fatal(err)
	}
	if data, err := ov.ReadFile(root, "topics/new.md"); err != nil || string(data) != "new" {
		t.Errorf("renamed read %q %v", data, err)
	}
	// The install finishes: the stage goes, the revision moves.
	put(t, filepath.Join(root, ".meta/revision"), "2\n")
	if err := os.RemoveAll(filepath.Join(rt, "tx-a")); err != nil {
		t.Fatal(err)
	}
	if after := Read(root, ".meta", "journal.json", committed); !after.Empty() || after.Seen == ov.Seen {
		t.Errorf("after the install: %+v (before %q)", after, ov.Seen)
	}
}
