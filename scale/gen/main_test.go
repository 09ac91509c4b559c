package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/scale"
)

func TestRun_Workspace(t *testing.T) {
	dir := t.TempDir()
	state, man := filepath.Join(dir, "state"), filepath.Join(dir, "manifest.json")
	var out bytes.Buffer
	if err := run([]string{"-records", "300", "-out", state, "-manifest", man}, &out, &out); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	m, err := scale.ReadManifest(man)
	if err != nil || m.Records != 300 {
		t.Fatalf("manifest %+v, %v", m, err)
	}
	if _, err := os.Stat(filepath.Join(state, "memory", "topics", "core.md")); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("left behind: %v", entries)
	}
	if err := run([]string{"-records", "300", "-out", state}, &out, &out); err == nil {
		t.Fatal("an existing state dir: want an error")
	}
}

func TestRun_History(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.jsonl")
	var out bytes.Buffer
	if err := run([]string{"-history-sessions", "27", "-history-turns", "600", "-out", file}, &out, &out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil || string(data) != scale.History(27, 600, scale.HistorySeed) {
		t.Fatalf("history differs from scale.History (%v)", err)
	}
}

func TestRun_Usage(t *testing.T) {
	for _, args := range [][]string{nil, {"-records", "5"}, {"-records", "5", "-history-sessions", "2", "-history-turns", "4", "-out", "x"},
		{"-records", "5", "-out", "x", "-seed", "nope"}, {"extra"}, {"-import-mib", "1"}, {"-import-mib", "1", "-records", "5", "-out", "x"}} {
		var out bytes.Buffer
		if err := run(args, &out, &out); !errors.Is(err, errUsage) {
			t.Errorf("%q: got %v, want a usage error", strings.Join(args, " "), err)
		}
	}
}

func TestRun_ImportFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "in")
	var out bytes.Buffer
	if err := run([]string{"-import-mib", "3", "-kinds", "claude-code,telegram", "-out", dir}, &out, &out); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"claude-code/session-00.jsonl", "telegram-00/result.json"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() < 1<<20 {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if !strings.Contains(out.String(), "2 files") {
		t.Errorf("output %q", out.String())
	}
	if err := run([]string{"-import-mib", "1", "-kinds", "fax", "-out", filepath.Join(t.TempDir(), "x")}, &out, &out); err == nil || !strings.Contains(err.Error(), "fax") {
		t.Errorf("an unknown kind: %v", err)
	}
}
