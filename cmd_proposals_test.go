package main

import (
	"fmt"
	"os"
	"path/filepath"
	"scriptorium/tests/clitest"
	"slices"
	"sort"
	"strings"
	"testing"
)

func docKeys(doc map[string]any) []string {
	var keys []string
	for k := range doc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// A pass proposed, listed, partially accepted, then declined; then the
// accepted files reverted. Every step through the CLI, in --json.
func TestCLI_ProposeAcceptDeclineRevert(t *testing.T) {
	state := clitest.SleepState(t)
	topics := func() map[string]string { return treeState(t, filepath.Join(state, "memory", "topics")) }
	before := topics()

	prop := runCLI(t, "", "sleep", "--propose", "--json", "--state", state)
	if prop.code != 0 {
		t.Fatalf("sleep --propose exited %d: %s%s", prop.code, prop.stdout, prop.stderr)
	}
	p := oneJSON(t, prop.stdout)
	if want := []string{"base_revision", "changed", "id", "kind", "time"}; !slices.Equal(docKeys(p), want) {
		t.Fatalf("proposal keys = %v, want %v", docKeys(p), want)
	}
	if d := diffTrees(before, topics()); d != "" {
		t.Fatalf("a proposed pass changed topics:\n%s", d)
	}
	id, _ := p["id"].(string)
	changed, _ := p["changed"].([]any)
	if p["kind"] != "sleep" || len(changed) < 2 {
		t.Fatalf("proposal = %v, want a sleep pass changing at least two files", p)
	}

	list := oneJSON(t, runCLI(t, "", "proposals", "--json", "--state", state).stdout)
	ps, _ := list["proposals"].([]any)
	if len(ps) != 1 || ps[0].(map[string]any)["id"] != id {
		t.Fatalf("proposals = %v", list)
	}
	first := changed[0].(map[string]any)["path"].(string)

	acc := runCLI(t, "", "accept", id, "--only", first, "--json", "--state", state)
	if acc.code != 0 {
		t.Fatalf("accept --only exited %d: %s%s", acc.code, acc.stdout, acc.stderr)
	}
	a := oneJSON(t, acc.stdout)
	revArg := fmt.Sprint(a["revision"])
	if rest, _ := a["remaining"].([]any); revArg == "0" || len(rest) != len(changed)-1 {
		t.Fatalf("accept = %v (proposal changed %d files)", a, len(changed))
	}
	after := topics()
	if d := diffTrees(before, after); !strings.Contains(d, strings.TrimPrefix(first, "topics/")) {
		t.Errorf("accepting %s did not change it:\n%s", first, d)
	}

	dec := runCLI(t, "", "decline", id, "--json", "--state", state)
	if dec.code != 0 {
		t.Fatalf("decline exited %d: %s%s", dec.code, dec.stdout, dec.stderr)
	}
	if d := diffTrees(after, topics()); d != "" {
		t.Errorf("decline changed topics:\n%s", d)
	}
	if again := runCLI(t, "", "accept", id, "--json", "--state", state); again.code != 1 || !strings.Contains(again.stdout, "NOT_FOUND") {
		t.Errorf("accepting a declined proposal: exit %d %s", again.code, again.stdout)
	}

	// The revert of the accepted revision needs --yes off a terminal; a dry
	// run shows the diff and changes nothing.
	if no := runCLI(t, "", "revert", revArg, "--json", "--state", state); no.code != 1 || !strings.Contains(no.stdout, "FORBIDDEN") {
		t.Errorf("revert without --yes off a terminal: exit %d %s", no.code, no.stdout)
	}
	dry := runCLI(t, "", "revert", revArg, "--dry-run", "--json", "--state", state)
	if dry.code != 0 || !strings.Contains(dry.stdout, `"dry_run": true`) || !strings.Contains(dry.stdout, "@@") {
		t.Fatalf("revert --dry-run: exit %d %s%s", dry.code, dry.stdout, dry.stderr)
	}
	if d := diffTrees(after, topics()); d != "" {
		t.Errorf("a dry-run revert changed topics:\n%s", d)
	}
	done := runCLI(t, "", "revert", revArg, "--yes", "--json", "--state", state)
	if done.code != 0 {
		t.Fatalf("revert --yes: exit %d %s%s", done.code, done.stdout, done.stderr)
	}
	if d := diffTrees(before, topics()); d != "" {
		t.Errorf("after the revert topics differ from before the accept:\n%s", d)
	}
	hist := runCLI(t, "", "history", "--json", "--state", state)
	if !strings.Contains(hist.stdout, `"reverts": `+revArg) {
		t.Errorf("history does not name the reverted revision %s:\n%s", revArg, hist.stdout)
	}
	events, err := os.ReadFile(filepath.Join(state, "memory", ".scriptorium", "state.db"))
	if err != nil || !strings.Contains(string(events), "proposal_declined") {
		t.Errorf("state.db does not record the declined proposal (%v)", err)
	}
}

func TestCLI_ExplainAndReorder(t *testing.T) {
	state := filepath.Join(t.TempDir(), "demo")
	if r := runCLI(t, "", "demo", state, "--no-tui"); r.code != 0 {
		t.Fatalf("demo: %s%s", r.stdout, r.stderr)
	}
	core := oneJSON(t, runCLI(t, "", "core", "--json", "--state", state).stdout)
	excluded, _ := core["excluded"].([]any)
	if len(excluded) == 0 {
		t.Fatal("the demo core has no excluded block")
	}
	id := excluded[0].(string)
	x := oneJSON(t, runCLI(t, "", "explain", "^"+id, "--json", "--state", state).stdout)
	want := []string{"blocks", "budget", "core_tokens", "id", "path", "pinned", "position", "reason", "running_total", "sources", "state", "tokens", "trust"}
	if !slices.Equal(docKeys(x), want) {
		t.Errorf("explain keys = %v, want %v", docKeys(x), want)
	}
	if x["state"] != "excluded" || !strings.Contains(x["reason"].(string), "budget") {
		t.Errorf("explain = %v", x)
	}
	if r := runCLI(t, "", "reorder", "^"+id, "--state", state); r.code != 2 {
		t.Errorf("reorder without a move: exit %d, want 2", r.code)
	}
	res := runCLI(t, "", "reorder", "^"+id, "--pin", "--json", "--state", state)
	if res.code != 0 {
		t.Fatalf("reorder --pin: %s%s", res.stdout, res.stderr)
	}
	doc := oneJSON(t, res.stdout)
	if want := []string{"after", "before", "changed", "pinned", "position", "revision"}; !slices.Equal(docKeys(doc), want) {
		t.Errorf("reorder keys = %v, want %v", docKeys(doc), want)
	}
	after := oneJSON(t, runCLI(t, "", "explain", id, "--json", "--state", state).stdout)
	if after["state"] != "included" || after["pinned"] != true || fmt.Sprint(after["position"]) != "1" {
		t.Errorf("after --pin: %v", after)
	}
}
