package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The import diagram of ARCHITECTURE.md is drawn from go list, between
// these markers, so it cannot drift from the code: the test fails when
// they differ, and -update redraws it.
const (
	diagramBegin = "<!-- import diagram: drawn from go list by TestArchitecture_Diagram; go test -run TestArchitecture_Diagram -update . -->\n"
	diagramEnd   = "<!-- end of the import diagram -->\n"
)

// diagramLayers are the diagram's groups, top down; a package goes into
// the first whose test it passes.
var diagramLayers = []struct {
	name string
	in   func(pkg, name string) bool
}{
	{"programs (package main)", func(_, name string) bool { return name == "main" }},
	{"composition root and demo", func(p, _ string) bool { return p == "app" || p == "demo" }},
	{"front ends", func(p, _ string) bool { return under(p, "tui", "views", "keymap") }},
	{"hosts", func(p, _ string) bool { return under(p, "hosts") }},
	{"services", func(p, _ string) bool {
		_, ok := serviceEdges[p]
		return ok || strings.HasPrefix(p, "engine/writer/")
	}},
	{"core", func(p, _ string) bool { return p == "engine" }},
	{"test helpers", func(p, _ string) bool {
		return under(p, "engine/enginetest", "workspace/faultfs", "workspace/treetest", "tests") || strings.HasSuffix(p, "test")
	}},
	{"stores, formats and leaves", func(string, string) bool { return true }},
}

// under reports whether p is one of dirs or inside one.
func under(p string, dirs ...string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// drawDiagram lists, layer by layer, every package of the program with the
// program's packages it imports directly (non-test code).
func drawDiagram(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Name,GoFiles,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const m = "scriptorium/"
	short := func(p string) string {
		if p == "scriptorium" {
			return "main (CLI)"
		}
		return strings.TrimPrefix(p, m)
	}
	layers := make([][]string, len(diagramLayers))
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath, Name string
			GoFiles, Imports []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if len(p.GoFiles) == 0 {
			continue // tests only
		}
		var deps []string
		for _, im := range p.Imports {
			if strings.HasPrefix(im, m) {
				deps = append(deps, short(im))
			}
		}
		sort.Strings(deps)
		line := short(p.ImportPath)
		if len(deps) > 0 {
			line += " ──> " + strings.Join(deps, ", ")
		}
		for i, l := range diagramLayers {
			if l.in(strings.TrimPrefix(p.ImportPath, m), p.Name) {
				layers[i] = append(layers[i], wrapLine(line, 100))
				break
			}
		}
	}
	var b strings.Builder
	b.WriteString("```\n")
	for i, l := range diagramLayers {
		sort.Strings(layers[i])
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(l.name + "\n")
		for _, line := range layers[i] {
			b.WriteString(line)
		}
	}
	b.WriteString("```\n")
	return b.String()
}

// wrapLine indents line by two and wraps it at width on ", ", continuing
// under its first dependency.
func wrapLine(line string, width int) string {
	head, deps, ok := strings.Cut(line, " ──> ")
	if !ok {
		return "  " + line + "\n"
	}
	prefix := "  " + head + " ──> "
	pad := strings.Repeat(" ", len([]rune(prefix)))
	var b strings.Builder
	cur := prefix
	for i, d := range strings.Split(deps, ", ") {
		piece := d
		if i > 0 {
			piece = ", " + d
		}
		if len([]rune(cur+piece)) > width && cur != prefix && cur != pad {
			b.WriteString(cur + ",\n")
			cur = pad + d
			continue
		}
		cur += piece
	}
	return b.String() + cur + "\n"
}

// TestArchitecture_Diagram: ARCHITECTURE.md's import diagram is the one go
// list draws.
func TestArchitecture_Diagram(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), diagramBegin)
	old, after, ok2 := strings.Cut(rest, diagramEnd)
	if !ok1 || !ok2 {
		t.Fatalf("ARCHITECTURE.md has no import diagram markers (%q … %q)", diagramBegin, diagramEnd)
	}
	got := drawDiagram(t)
	if got == old {
		return
	}
	if updating() {
		if err := os.WriteFile("ARCHITECTURE.md", []byte(before+diagramBegin+got+diagramEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("ARCHITECTURE.md's import diagram differs from go list (go test -run TestArchitecture_Diagram -update . redraws it):\n--- ARCHITECTURE.md\n%s--- go list\n%s", old, got)
}
