package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"scriptorium/scale"
)

// TestImport_DiscordFolder: `import DIR` of a folder of overlapping
// DiscordChatExporter exports of one channel stores each message once
// (the repeats are duplicates), again with --format discord stores
// nothing; with one export broken it names the file and line and stores
// nothing.
func TestImport_DiscordFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exports")
	_, turns, err := scale.DiscordOverlap(dir, 256<<10, scale.DiscordOverlapSeed)
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state")
	doc, r := importDoc(t, "", dir, "--state", state)
	skipped, _ := doc["skipped"].(map[string]any)
	if r.code != 0 || num(doc["imported"]) != turns || num(skipped["duplicate"]) < turns/4 {
		t.Fatalf("exit %d, want %d turns: %s%s", r.code, turns, r.stdout, r.stderr)
	}
	doc, r = importDoc(t, "", dir, "--format", "discord", "--state", state)
	if r.code != 0 || num(doc["imported"]) != 0 {
		t.Fatalf("again: exit %d %s%s", r.code, r.stdout, r.stderr)
	}

	names, _ := filepath.Glob(filepath.Join(dir, "*(part 3).json"))
	if len(names) != 1 {
		t.Fatalf("part 3: %v", names)
	}
	data, _ := os.ReadFile(names[0])
	at := bytes.LastIndex(data, []byte(`"timestamp": "`)) + len(`"timestamp": "`)
	if err := os.WriteFile(names[0], append(append(data[:at:at], "yesterday"...), data[at+len("2021-03-01T08:03:01.000+00:00"):]...), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "state")
	r = runCLI(t, "", "import", dir, "--state", fresh)
	line := 1 + bytes.Count(data[:bytes.LastIndex(data[:at], []byte("\n    {"))+1], []byte("\n"))
	if r.code == 0 || !strings.Contains(r.stderr, "(part 3).json") || !strings.Contains(r.stderr, `"yesterday"`) ||
		!strings.Contains(r.stderr, ":"+strconv.Itoa(line)) {
		t.Fatalf("broken: exit %d, want line %d: %s", r.code, line, r.stderr)
	}
	// Nothing was stored: mended, the folder imports whole.
	if err := os.WriteFile(names[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	doc, r = importDoc(t, "", dir, "--state", fresh)
	if r.code != 0 || num(doc["imported"]) != turns {
		t.Fatalf("mended: exit %d %s", r.code, r.stdout)
	}
}
