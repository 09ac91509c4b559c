package local

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestSourceBuild: the CLI and the TUI built from one clean commit with
// one toolchain and flags name one build, whatever packages each links;
// a dirty tree, another commit, toolchain or flag, or no stamp at all
// names none (the executable's own build ID is used instead).
func TestSourceBuild(t *testing.T) {
	info := func(main string, deps []string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{GoVersion: "go1.26.0", Path: main, Main: debug.Module{Path: "scriptorium", Version: "(devel)"}}
		for _, d := range deps {
			bi.Deps = append(bi.Deps, &debug.Module{Path: d, Version: "v1.0.0"})
		}
		for _, kv := range settings {
			k, v, _ := strings.Cut(kv, "=")
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: k, Value: v})
		}
		return bi
	}
	clean := []string{"-compiler=gc", "CGO_ENABLED=1", "GOARCH=amd64", "GOOS=linux", "vcs=git", "vcs.revision=abc123", "vcs.time=2026-12-03T10:00:00Z", "vcs.modified=false"}
	cli := sourceBuild(info("scriptorium", []string{"github.com/modelcontextprotocol/go-sdk"}, clean...))
	tui := sourceBuild(info("scriptorium/cmd/scriptorium-tui", []string{"github.com/charmbracelet/bubbletea"}, clean...))
	if cli == "" || cli != tui {
		t.Fatalf("one clean commit: CLI %q, TUI %q", cli, tui)
	}
	with := func(change string) []string {
		k, _, _ := strings.Cut(change, "=")
		out := []string{change}
		for _, kv := range clean {
			if !strings.HasPrefix(kv, k+"=") {
				out = append(out, kv)
			}
		}
		return out
	}
	for _, change := range []string{"vcs.revision=def456", "-tags=netgo", "CGO_ENABLED=0", "GOARCH=arm64", "-ldflags=-X main.v=1"} {
		if got := sourceBuild(info("scriptorium", nil, with(change)...)); got == "" || got == cli {
			t.Errorf("%s: %q, want another build than %q", change, got, cli)
		}
	}
	other := info("scriptorium", nil, clean...)
	other.GoVersion = "go1.25.4"
	if got := sourceBuild(other); got == cli {
		t.Errorf("another toolchain names the same build %q", got)
	}
	for _, settings := range [][]string{with("vcs.modified=true"), clean[:6], {"-compiler=gc", "GOOS=linux"}} {
		if got := sourceBuild(info("scriptorium", nil, settings...)); got != "" {
			t.Errorf("%v: %q, want no source build", settings, got)
		}
	}
}
