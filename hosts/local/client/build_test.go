package client

import (
	"os"
	"path/filepath"
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

// TestBuildOf_AsTheProgramItself: the build read from an executable file
// is the one that program names itself (here the test binary, which has
// no VCS stamp: its ELF build ID), so the small hook client asks in the
// CLI's name exactly as the CLI would; a file that is no Go program names
// none.
func TestBuildOf_AsTheProgramItself(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := BuildOf(exe), Build(); got == "" || got != want {
		t.Fatalf("BuildOf(%s) = %q, the program names itself %q", exe, got, want)
	}
	other := filepath.Join(t.TempDir(), "not-a-program")
	if err := os.WriteFile(other, []byte("#!/bin/sh\necho hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := BuildOf(other); got != "" {
		t.Fatalf("a shell script names the build %q", got)
	}
}
