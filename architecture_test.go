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
	"slices"
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
		m + "engine/curate", m + "engine/revert", m + "engine/audit", m + "engine/forget", m + "engine/recall", m + "engine/search"}
	hosts := []string{m + "hosts/"}
	frontEnds := []string{m + "tui", m + "views", m + "keymap", m + "demo", m + "screenshots"}
	leaves := []string{m + "workspace", m + "trust", m + "render", m + "engine/index", m + "engine/sessions", m + "engine/config", m + "engine/vectors", m + "engine/records", m + "engine/result", m + "engine/deps", m + "engine/depcache", m + "engine/viewcache", m + "engine/filediff",
		m + "engine/model", m + "transcript", m + "errcode", m + "termsafe", m + "engine/runstatus", m + "engine/fence", m + "engine/cachedb",
		m + "engine/verify", m + "lazyre", m + "memo"}
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
	// Bubble Tea is the front end's: the TUI, its views and the programs
	// that run them (cmd/scriptorium-tui, screenshots/gen); nothing below
	// them (the engine, services, hosts, keymap) links it.
	teaUsers := []string{m + "tui", m + "views", m + "cmd/scriptorium-tui", m + "screenshots/gen"}
	for pkg, ds := range deps {
		if slicesContains(ds, "github.com/charmbracelet/bubbletea") && !slices.ContainsFunc(teaUsers, func(u string) bool { return exact(pkg, u) }) {
			t.Errorf("%s depends on Bubble Tea: only the TUI, its views and the programs that run them may", pkg)
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

// coreLineLimit is the most lines the core (engine/*.go, no tests, no
// sub-packages) may hold; coreFileLimit the most any one of its files may.
// The core is open, the read view, transactions and the journal, derived
// views and review; a service is a package on its exported API. The limit
// is a ratchet: it only goes down as services leave (issue 25's target is
// 5,000).
const (
	coreLineLimit = 4699
	coreFileLimit = 600
)

// TestArchitecture_CoreSize keeps the core small: a feature that does not
// need the journal goes into a package of its own.
func TestArchitecture_CoreSize(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("engine", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	total, files := 0, 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			n++
		}
		total += n
		files++
		if n > coreFileLimit {
			t.Errorf("%s has %d lines (limit %d): split it, or move what is not core into a package", p, n, coreFileLimit)
		}
	}
	if files < 5 {
		t.Fatalf("found only %d core files under engine/: run from the module root", files)
	}
	if total > coreLineLimit {
		t.Errorf("the core (engine/*.go, no tests) has %d lines, over coreLineLimit %d: services go into packages of their own (ARCHITECTURE.md)", total, coreLineLimit)
	}
	t.Logf("core: %d lines in %d files (limit %d)", total, files, coreLineLimit)
}

// goImports lists the direct imports of the packages matching patterns
// (non-test code).
func goImports(t *testing.T, patterns ...string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-json=ImportPath,Imports"}, patterns...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		imports[p.ImportPath] = p.Imports
	}
	return imports
}

// serviceEdges are the only imports allowed from one service to another
// (ARCHITECTURE.md, "Allowed imports"): a new edge is a decision to write
// down here and there, not an accident.
var serviceEdges = map[string][]string{
	"engine/writer":    {"engine/proposals"},                   // a batch in propose mode
	"engine/sleep":     {"engine/proposals", "engine/passlog"}, // a pass in propose mode; its report
	"engine/daemon":    {"engine/sleep"},                       // the nightly pass
	"engine/backend":   {"engine/writer"},                      // the embedded runtime's writes
	"engine/proposals": {"engine/passlog"},                     // an accepted proposal's pass report
	"engine/passlog":   {},
	"engine/importer":  {},
	"engine/curate":    {},
	"engine/revert":    {},
	"engine/audit":     {},
	"engine/forget":    {"engine/search"}, // the index documents and vector keys a forget previews and scrubs
	"engine/recall":    {},
	"engine/browse":    {},
	"engine/review":    {},
	"engine/search":    {},
}

// pendingServices may be listed before their package exists (a service
// leaving the core in a parallel branch).
var pendingServices = map[string]bool{}

// frontEndServices are the services a front end may import: the TUI and
// its views reach services through tui/enginebackend, but for the result
// and request types of curate and proposals they show (a ratchet: the
// list only shrinks); hosts import the services they host.
var frontEndServices = map[string][]string{
	"tui":                 {"engine/curate", "engine/proposals"},
	"views":               {"engine/curate", "engine/proposals"},
	"keymap":              {},
	"tui/enginebackend":   {"engine/audit", "engine/browse", "engine/curate", "engine/forget", "engine/proposals", "engine/recall", "engine/review", "engine/revert", "engine/sleep"},
	"cmd/scriptorium-tui": {},
	"screenshots/gen":     {},
	"hosts/hook":          {"engine/importer", "engine/recall", "engine/search", "engine/writer"},
	"hosts/mcp":           {"engine/browse", "engine/proposals", "engine/recall"},
	"hosts/httpapi":       {"engine/audit", "engine/proposals", "engine/recall", "engine/review"},
	"hosts/hookhttp":      {},
	"hosts/local":         {"engine/recall"},
	"hosts/errdoc":        {},
	"hosts/loopback":      {},
}

// TestArchitecture_ServiceEdges: services import one another only along
// the listed edges, and front ends only the listed services.
func TestArchitecture_ServiceEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const m = "scriptorium/"
	imports := goImports(t, "./engine/...", "./tui/...", "./views/...", "./keymap/...", "./hosts/...", "./cmd/...", "./screenshots/...")
	isService := func(p string) bool {
		_, ok := serviceEdges[strings.TrimPrefix(p, m)]
		return ok
	}
	for pkg := range serviceEdges {
		if _, ok := imports[m+pkg]; !ok && !pendingServices[pkg] {
			t.Errorf("service %s is listed but go list does not know it", pkg)
		}
	}
	check := func(table map[string][]string, what string) {
		for pkg, allowed := range table {
			ims, ok := imports[m+pkg]
			if !ok && pendingServices[pkg] {
				continue
			}
			if !ok {
				t.Errorf("%s %s is listed but go list does not know it", what, pkg)
				continue
			}
			for _, im := range ims {
				if isService(im) && im != m+pkg && !slicesContains(allowed, strings.TrimPrefix(im, m)) {
					t.Errorf("%s %s imports the service %s: not an edge of ARCHITECTURE.md (allowed: %v)", what, pkg, im, allowed)
				}
			}
		}
	}
	check(serviceEdges, "service")
	check(frontEndServices, "front end")
	// Every service package of engine/ is listed: a new one declares its
	// edges.
	for p := range imports {
		rest, ok := strings.CutPrefix(p, m+"engine/")
		if !ok || strings.Contains(rest, "/") || isService(p) {
			continue
		}
		for _, im := range imports[p] {
			if im == m+"engine" && p != m+"engine/enginetest" {
				t.Errorf("%s imports the core but is not in serviceEdges: list it (a service) with its edges", p)
			}
		}
	}
}

// TestArchitecture_KeymapOnlyKeys: keymap is data (bindings and their
// help): it imports bubbles/key and the standard library, nothing else.
func TestArchitecture_KeymapOnlyKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	imports := goImports(t, "./keymap")
	ims, ok := imports["scriptorium/keymap"]
	if !ok {
		t.Fatal("go list does not know scriptorium/keymap")
	}
	for _, im := range ims {
		if im != "github.com/charmbracelet/bubbles/key" && strings.Contains(strings.SplitN(im, "/", 2)[0], ".") ||
			strings.HasPrefix(im, "scriptorium/") {
			t.Errorf("keymap imports %s: it may import only github.com/charmbracelet/bubbles/key", im)
		}
	}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
