package engine

import (
	"context"
	"os"
	"testing"

	"scriptorium/workspace/manifest"
)

// TestPartial_RepairHoldsNoParse: a cold read with no manifest parses
// every file to write one, and keeps none of them (at 1M records keeping
// them all made status as heavy as verify, issue 26); the answer, from
// the few files it picks again, is the full snapshot's.
func TestPartial_RepairHoldsNoParse(t *testing.T) {
	ctx := context.Background()
	var state string
	var block string
	for _, src := range fixtureStates(t) {
		st, warm, s := warmCopy(t, src)
		_ = warm.Close()
		if len(s.archPaths) > 0 && len(s.topicPaths) > 0 && len(s.topics[s.topicPaths[0]].file.Blocks()) > 0 {
			state, block = st, s.topics[s.topicPaths[0]].file.Blocks()[0].BlockID
			break
		}
	}
	if state == "" {
		t.Fatal("no fixture with topics and archives")
	}
	e, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_ = os.Remove(manifest.Path(e.Root()))
	pr, ok, err := e.readPartial(ctx)
	if err != nil || !ok {
		t.Fatalf("readPartial: %v, %v", ok, err)
	}
	if len(pr.Topics) == 0 || len(pr.Archives) == 0 {
		t.Fatalf("listed %d topics, %d archives", len(pr.Topics), len(pr.Archives))
	}
	if n, m := len(pr.parsed.topics), len(pr.parsed.archives); n+m != 0 {
		t.Fatalf("the repair kept %d topics and %d archives parsed", n, m)
	}
	if _, err := os.Stat(manifest.Path(e.Root())); err != nil {
		t.Fatalf("no manifest written: %v", err)
	}
	if got := coldGet(t, state, "^"+block); got == "" {
		t.Fatalf("cold get of ^%s after the repair found nothing", block)
	}
}
