package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// updateRender rewrites the golden files instead of comparing with them.
// It is not called -update: x/exp/golden owns that flag in other packages.
var updateRender = flag.Bool("update-render", false, "rewrite render golden files in testdata/golden")

const goldenDir = "testdata/golden"

// checkGolden compares got with the golden file at rel, or rewrites it.
func checkGolden(t *testing.T, rel string, got []byte) {
	t.Helper()
	p := filepath.Join(goldenDir, filepath.FromSlash(rel))
	if *updateRender {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("read golden (run go test ./render -update-render): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n--- got ---\n%s\n--- want ---\n%s", rel, got, want)
	}
}

func TestGolden_Core(t *testing.T) {
	topics := fixtureTopics()
	out, rep := Core(topics[1], fixtureCoreBudget)
	checkGolden(t, "core.md", out)
	js, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "core_report.json", append(js, '\n'))
}

func TestGolden_Timeline(t *testing.T) {
	files := Timeline(fixtureTopics())
	dir := filepath.Join(goldenDir, "timeline")
	if *updateRender {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range files {
		if !strings.HasPrefix(name, "timeline/") {
			t.Fatalf("timeline key %q is outside timeline/", name)
		}
		checkGolden(t, name, data)
	}
	// Every golden file must have been produced, too.
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(goldenDir, p)
		if err != nil {
			return err
		}
		if _, ok := files[filepath.ToSlash(rel)]; !ok {
			t.Errorf("golden %s was not rendered", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGolden_RecentEvents(t *testing.T) {
	checkGolden(t, "recent_events.jsonl", RecentEvents(fixtureTopics()))
}

func TestGolden_Relations(t *testing.T) {
	checkGolden(t, "relations.json", Relations(fixtureTopics()))
}
