package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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
	services := []string{m + "engine/writer", m + "engine/sleep", m + "engine/daemon", m + "engine/backend", m + "engine/proposals", m + "engine/importer",
		m + "engine/curate", m + "engine/forget", m + "engine/recall"}
	hosts := []string{m + "hosts/"}
	frontEnds := []string{m + "tui", m + "views", m + "keymap", m + "demo", m + "screenshots"}
	leaves := []string{m + "workspace", m + "trust", m + "render", m + "engine/index", m + "engine/sessions",
		m + "engine/model", m + "transcript", m + "errcode", m + "termsafe"}
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
		{[]string{m + "errcode"}, []string{m}, "the error codes are a leaf every layer shares: they import nothing of the program", false},
		{[]string{m + "hosts/errdoc"}, []string{m + "engine", m + "engine/"}, "the error document is built from the codes alone, not the engine", false},
		{[]string{m + "engine/importer"}, []string{m + "engine"}, "the import service needs the conversation store and the parsers, not the core", false},
		{append(append([]string{m + "engine", m + "engine/", m + "tui", m + "views", m + "keymap"}, hosts...), leaves...), []string{m + "app"},
			"the composition root is for the programs (the CLI, cmd/…, screenshots/gen) and the demo: hosts are handed openers", false},
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

// TestArchitecture_OneCompositionRoot: the engine is opened in package app
// alone (and by the test helpers of engine/enginetest), so every front end
// gets an engine wired for its role.
func TestArchitecture_OneCompositionRoot(t *testing.T) {
	var found []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if dir == "app" || dir == "engine/enginetest" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte("engine.Open(")) {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range found {
		t.Errorf("%s calls engine.Open: open the engine through package app (app.Open and its role)", p)
	}
}

// cliLayer is where a file of the root package (the CLI) sits: the runner
// (main.go, runner.go, help.go) parses the command line against the table
// (commands*.go), which lists the verbs (cmd_*.go), which use the helpers
// (every other file: cli.go, open.go, print.go, …). A file may use its own
// layer's files only among the helpers: one verb file never uses another.
func cliLayer(file string) int {
	switch {
	case file == "main.go" || file == "runner.go" || file == "help.go":
		return 3
	case strings.HasPrefix(file, "commands"):
		return 2
	case strings.HasPrefix(file, "cmd_"):
		return 1
	}
	return 0
}

// TestArchitecture_CLIFileLayers: no file-level dependency of the root
// package runs back up (a helper using a verb, a verb using the table or
// the runner) or sideways between verb files. References are found
// syntactically: package-level names a file does not declare itself, and
// calls of the package's unexported methods (exported ones only satisfy
// interfaces).
func TestArchitecture_CLIFileLayers(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
	}
	declared := map[string]string{} // name -> file
	methods := map[string]string{}  // unexported method name -> file
	for path, f := range files {
		name := filepath.Base(path)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					declared[d.Name.Name] = name
				} else if !d.Name.IsExported() {
					methods[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						declared[s.Name.Name] = name
					case *ast.ValueSpec:
						for _, n := range s.Names {
							declared[n.Name] = name
						}
					}
				}
			}
		}
	}
	if len(files) < 10 || declared["verbs"] == "" {
		t.Fatalf("parsed %d files of the root package; no command table", len(files))
	}
	for path, f := range files {
		from := filepath.Base(path)
		uses := map[string]string{} // file -> one name it uses there
		for _, id := range f.Unresolved {
			if to, ok := declared[id.Name]; ok && to != from {
				uses[to] = id.Name
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if to, ok := methods[sel.Sel.Name]; ok && to != from {
					uses[to] = sel.Sel.Name
				}
			}
			return true
		})
		for to, name := range uses {
			lf, lt := cliLayer(from), cliLayer(to)
			if lt > lf || (lt == lf && lf == 1) {
				t.Errorf("%s uses %s of %s: the CLI's files depend downwards only (runner → table → verbs → helpers; no verb file on another)", from, name, to)
			}
		}
	}
}
