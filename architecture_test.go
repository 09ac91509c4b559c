package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// The allowed-imports rules of ARCHITECTURE.md, checked on the real
// dependency graph (go list -deps, non-test code): the core knows no
// service, services know no host, formats and leaves know no engine, and
// the transcript parsers never touch the filesystem.
func TestArchitecture_ImportRules(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps=false", "-json=ImportPath,Deps,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps, imports := map[string][]string{}, map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath string
			Deps       []string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		deps[p.ImportPath] = p.Deps
		imports[p.ImportPath] = p.Imports
	}
	const m = "scriptorium/"
	services := []string{m + "engine/writer", m + "engine/sleep", m + "engine/daemon", m + "engine/backend", m + "engine/proposals"}
	hosts := []string{m + "hosts/"}
	frontEnds := []string{m + "tui", m + "views", m + "keymap", m + "demo", m + "screenshots"}
	leaves := []string{m + "workspace", m + "trust", m + "render", m + "engine/index", m + "engine/sessions",
		m + "engine/model", m + "transcript", m + "termsafe"}
	rules := []struct {
		pkgs      []string // import-path prefixes the rule is about
		forbidden []string // import-path prefixes they must not depend on
		why       string
		direct    bool // only direct imports count (the standard library imports os itself)
	}{
		{[]string{m + "engine"}, append(append(append([]string{m + "engine/enginetest"}, services...), hosts...), frontEnds...),
			"the core knows no service, host or front end (services are handed to it at Open)", false},
		{services, append(hosts, frontEnds...), "a service knows no host or front end", false},
		{hosts, frontEnds, "a host knows no front end", false},
		{leaves, append([]string{m + "engine"}, append(services, hosts...)...), "formats and stores know no engine", false},
		{[]string{m + "transcript"}, []string{"os", "io/fs", "path/filepath"}, "transcript parsers never touch the filesystem", true},
		{append(append([]string{m + "engine", m + "engine/"}, hosts...), append(frontEnds, leaves...)...), []string{m + "scale"},
			"the scale generators are a tool: nothing of the program imports them", false},
		{[]string{m + "scale"}, append(append([]string{m + "engine", m + "engine/index", m + "engine/model", m + "engine/enginetest"}, services...),
			append(hosts, frontEnds...)...), "a generator writes through the format packages (and engine/sessions), never the engine", false},
	}
	exact := func(p, prefix string) bool {
		// "scriptorium/engine" names the core alone; other prefixes cover
		// their sub-packages too.
		if prefix == m+"engine" {
			return p == prefix
		}
		return p == prefix || strings.HasPrefix(p, strings.TrimSuffix(prefix, "/")+"/")
	}
	checked := 0
	for pkg := range deps {
		for _, r := range rules {
			ds := deps[pkg]
			if r.direct {
				ds = imports[pkg]
			}
			about := false
			for _, pre := range r.pkgs {
				if exact(pkg, pre) {
					about = true
				}
			}
			if !about || strings.Contains(pkg, "/internal/") {
				continue
			}
			checked++
			for _, d := range ds {
				for _, f := range r.forbidden {
					if exact(d, f) {
						t.Errorf("%s depends on %s: %s", pkg, d, r.why)
					}
				}
			}
		}
	}
	// The CLI starts light: Go runs the init of every package it links, and
	// the TUI's (go-runewidth's width tables, chroma's lexers and styles)
	// cost each verb tens of milliseconds. The TUI is its own binary,
	// cmd/scriptorium-tui, which the CLI runs.
	tuiOnly := []string{m + "tui", m + "views", m + "keymap", "github.com/mattn/go-runewidth",
		"github.com/alecthomas/chroma/v2", "github.com/charmbracelet/bubbletea", "github.com/charmbracelet/glamour",
		"github.com/yuin/goldmark", "github.com/microcosm-cc/bluemonday"}
	root, ok := deps["scriptorium"]
	if !ok || len(root) == 0 {
		t.Fatal("go list did not report the root package (the CLI)")
	}
	for _, d := range root {
		for _, f := range tuiOnly {
			if exact(d, f) {
				t.Errorf("the CLI (the root package) depends on %s: only cmd/scriptorium-tui may link the TUI", d)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d package/rule pairs checked: go list found %d packages", checked, len(deps))
	}
}
