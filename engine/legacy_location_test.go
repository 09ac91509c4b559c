package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"scriptorium/workspace/archive"
)

// A file at the legacy path is frozen legacy evidence even when it carries
// the v2 marker: its speaker markers are never trusted, so copying a v2
// archive there cannot smuggle in a trusted identity.
func TestLegacyPath_V2MarkerGivesNoTrust(t *testing.T) {
	state := t.TempDir()
	data, _, err := archive.Append(nil, []archive.Record{{SourceID: "openprogram/old/m1", Role: "user",
		SpeakerID: "u100", SpeakerDisplay: "Owner", Time: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Content: "hello"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"sources/openprogram/old.md", "sources/openprogram/_v2/new.md"} {
		full := filepath.Join(state, "memory", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	v, err := e.View(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	a, ok := v.Archive("sources/openprogram/old.md")
	if !ok {
		t.Fatal("no legacy archive")
	}
	if !a.Legacy {
		t.Fatal("a file at the legacy path was read as v2")
	}
	for _, src := range a.Sources {
		if src.SpeakerTrusted || src.SpeakerID != "" {
			t.Errorf("legacy-path record %s has a trusted speaker %q", src.Ref, src.SpeakerID)
		}
	}
	v2, ok := v.Archive("sources/openprogram/_v2/new.md")
	if !ok {
		t.Fatal("no v2 archive")
	}
	if v2.Legacy || len(v2.Sources) != 1 || !v2.Sources[0].SpeakerTrusted {
		t.Errorf("the same bytes under _v2/ should be a trusted v2 frame: %+v", v2)
	}
}
