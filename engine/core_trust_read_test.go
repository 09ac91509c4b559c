package engine

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"scriptorium/engine/deps"
	"scriptorium/workspace"

	"scriptorium/workspace/treetest"
)

// TestCore_ColdReadIsTrustOnly: the read a cold one-shot core renders
// from keeps of the archives only the entries the topics cite, without
// their bytes or parse (at 1M records they were 640 MB of a 1.4 GB heap,
// issue 26), is never cached, and resolves every block's trust as the
// full snapshot does.
func TestCore_ColdReadIsTrustOnly(t *testing.T) {
	ctx := context.Background()
	for _, src := range fixtureStates(t) {
		state, warm, full := warmCopy(t, src)
		_ = warm.Close()
		e := openCold(t, state)
		s, err := e.read(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		if !s.trustOnly || s.sources != nil || e.warm() {
			t.Errorf("%s: trust-only %v, source map %v, cached %v", src, s.trustOnly, s.sources != nil, e.warm())
		}
		cited := map[string]map[string]bool{}
		for _, tf := range full.topics {
			deps.AddAnchors(cited, tf.path, tf.definitions())
		}
		for _, p := range s.archPaths {
			a := s.archives[p]
			if a.data != nil || a.frames != nil || a.records != nil {
				t.Errorf("%s: %s keeps its bytes or parse", src, p)
			}
			for _, en := range a.sources {
				if !cited[p][en.anchor] {
					t.Errorf("%s: %s keeps %s, which nothing cites", src, p, en.anchor)
				}
			}
		}
		if !reflect.DeepEqual(s.archPaths, full.archPaths) || !reflect.DeepEqual(s.topicPaths, full.topicPaths) {
			t.Errorf("%s: the trust-only read lists other files", src)
		}
		for _, p := range full.topicPaths {
			for _, b := range full.topics[p].file.Blocks() {
				if got, want := s.blockTrusted(s.topics[p], b), full.blockTrusted(full.topics[p], b); got != want {
					t.Errorf("%s: %s ^%s trusted %v, the full snapshot says %v", src, p, b.BlockID, got, want)
				}
			}
		}
	}
}

// TestCore_ColdRendersAsWarm: a cold core (trust-only read, rendered
// whole) writes the same derived files and reports the same budget as a
// core on an engine holding the full snapshot.
func TestCore_ColdRendersAsWarm(t *testing.T) {
	ctx := context.Background()
	for _, src := range fixtureStates(t) {
		state, warm, _ := warmCopy(t, src)
		want, err := warm.Core(ctx)
		if err != nil {
			t.Fatal(err)
		}
		_ = warm.Close()
		wantTree := memTree(t, state)
		other, warm2, _ := warmCopy(t, src)
		_ = warm2.Close()
		e := openCold(t, other)
		got, err := e.Core(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if e.warm() {
			t.Errorf("%s: a cold core cached its read", src)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: cold core %+v, warm %+v", src, got, want)
		}
		if d := treetest.Diff(wantTree, memTree(t, other)); d != "" {
			t.Errorf("%s: the cold core wrote other files:\n%s", src, d)
		}
	}
}

func openCold(t *testing.T, state string) *Engine {
	t.Helper()
	e, err := Open(context.Background(), Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// memTree digests the workspace's files but .scriptorium/.
func memTree(t *testing.T, state string) map[string]string {
	t.Helper()
	st, err := treetest.State(filepath.Join(state, "memory"), workspace.MetaDir)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
