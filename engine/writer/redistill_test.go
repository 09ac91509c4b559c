package writer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/engine/revert"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace/topic"
)

// rdTurnBlock matches a block the old writer wrote for one turn.
var rdTurnBlock = regexp.MustCompile(`(?m)^(user|assistant|[A-Z][a-z]+): .*\[\^e-[0-9a-f]+\] \^[0-9a-f]{8}$`)

// rdState is a workspace the old writer filled one turn per block: an
// owner's chat with an assistant (greetings, narration, two facts) and a
// friends' chat, plus a block the owner wrote by hand.
func rdState(t *testing.T) (state string, e *engine.Engine) {
	t.Helper()
	ctx := context.Background()
	state = filepath.Join(t.TempDir(), "state")
	wtImport(t, state, wtChain("",
		wtTurn{Session: "chat1", ID: "c1", Role: "user", Content: "Hi there!"},
		wtTurn{Session: "chat1", ID: "c2", Role: "assistant", Content: "Hello! How can I help you today?"},
		wtTurn{Session: "chat1", ID: "c3", Role: "user", Content: "I work as a nurse at St Mary's hospital in Leeds."},
		wtTurn{Session: "chat1", ID: "c4", Role: "assistant", Content: "Let me look at the rota options for you:"},
		wtTurn{Session: "chat1", ID: "c5", Role: "user", Content: "I prefer tea over coffee, always oat milk."},
		wtTurn{Session: "chat1", ID: "c6", Role: "user", Content: "Thanks!"},
	)...)
	e = wtOpen(t, state, nil)
	if _, err := writer.WriteTurnBlocks(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	// The owner's own block elsewhere: never touched.
	own := "# Notes\n\nThe garden shed key is under the blue pot. ^0ddba11a\n"
	rev, _ := e.Revision()
	if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "create", Path: "topics/notes.md", Content: &own}}}); err != nil {
		t.Fatal(err)
	}
	return state, e
}

// rdIDs maps each block's text (footnote markers removed) to its id.
func rdIDs(t *testing.T, files map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for p, c := range files {
		f, _ := topic.Parse([]byte(c))
		for _, b := range f.Blocks() {
			out[p+"|"+markerStrip.ReplaceAllString(topic.BlockText(b), "")] = b.BlockID
		}
	}
	return out
}

var markerStrip = regexp.MustCompile(`\[\^[^\]]+\]`)

// TestRedistill_EndToEnd: per-turn blocks → a proposal (memory unchanged)
// → accept → distilled topics: no turn block left, the facts in the third
// person citing their turns, ids of facts taken from the turn blocks they
// came from, the owner's block untouched, verify clean; a second redistill
// has nothing to do; revert brings the turn blocks back byte for byte.
func TestRedistill_EndToEnd(t *testing.T) {
	ctx := context.Background()
	state, e := rdState(t)
	before := wtTopics(t, state)
	turnBlocks := 0
	for _, c := range before {
		turnBlocks += len(rdTurnBlock.FindAllString(c, -1))
	}
	if turnBlocks != 6 {
		t.Fatalf("the old writer wrote %d turn blocks, want 6:\n%v", turnBlocks, before)
	}
	oldIDs := rdIDs(t, before)
	rev0, _ := e.Revision()

	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Proposal == "" || res.TurnBlocks != 6 || !slices.Equal(res.Threads, []string{"openprogram/chat1"}) {
		t.Fatalf("redistill: %+v", res)
	}
	if got := wtTopics(t, state); !mapsEqual(got, before) {
		t.Fatal("redistill changed memory before the owner accepted")
	}
	if rev, _ := e.Revision(); rev != rev0 {
		t.Fatalf("revision moved to %d", rev)
	}
	acc, err := proposals.Accept(ctx, e, res.Proposal, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := wtTopics(t, state)
	t.Logf("after accept:\n%s", strings.Join(mapValues(after), "\n----\n"))
	all := strings.Join(mapValues(after), "\n")
	if n := len(rdTurnBlock.FindAllString(all, -1)); n != 0 {
		t.Errorf("%d turn block(s) left after accept:\n%s", n, all)
	}
	for _, gone := range []string{"Hi there", "Let me look", "Thanks!", "How can I help"} {
		if strings.Contains(all, gone) {
			t.Errorf("chat %q survived the redistill:\n%s", gone, all)
		}
	}
	for _, want := range []string{"nurse", "tea"} {
		if !strings.Contains(all, want) {
			t.Errorf("fact %q lost:\n%s", want, all)
		}
	}
	if after["topics/notes.md"] != before["topics/notes.md"] {
		t.Error("the owner's own block changed")
	}
	// A fact takes the id of the turn block it came from.
	newIDs := rdIDs(t, after)
	oldByTurn := map[string]string{}
	for k, id := range oldIDs {
		if strings.Contains(k, "nurse") {
			oldByTurn["nurse"] = id
		}
	}
	found := false
	for k, id := range newIDs {
		if strings.Contains(k, "nurse") && id == oldByTurn["nurse"] {
			found = true
		}
	}
	if !found {
		t.Errorf("the nurse fact did not keep its turn block's id %s: %v", oldByTurn["nurse"], newIDs)
	}
	// Every turn stays cited, so backfill has nothing to write back.
	cites := wtCitations(t, state)
	for _, id := range []string{"c1", "c2", "c3", "c4", "c5", "c6"} {
		if cites["openprogram/chat1/"+id] == 0 {
			t.Errorf("turn %s is no longer cited", id)
		}
	}
	if bf, err := writer.Backfill(ctx, e); err != nil || bf.Sources != 0 {
		t.Errorf("backfill after redistill: %+v, %v", bf, err)
	}
	ftVerifyClean(t, e)

	again, err := writer.Redistill(ctx, e, writer.RedistillOptions{})
	if err != nil || again.Proposal != "" {
		t.Errorf("second redistill: %+v, %v; want nothing to do", again, err)
	}
	if _, err := revert.Revert(ctx, e, acc.Revision, false); err != nil {
		t.Fatal(err)
	}
	if got := wtTopics(t, state); !mapsEqual(got, before) {
		t.Errorf("revert did not restore the turn blocks:\n%v\nwant\n%v", got, before)
	}
	ftVerifyClean(t, e)
}

// TestRedistill_ThreadAndErrors: --thread limits the proposal to one
// thread; an unknown thread is NOT_FOUND and stores nothing; a block
// another block links to is kept.
func TestRedistill_ThreadAndErrors(t *testing.T) {
	ctx := context.Background()
	state, e := rdState(t)
	wtImport(t, state, wtChain("",
		wtTurn{Session: "chat2", ID: "d1", Role: "user", Content: "My sister Ana moved to Porto in May."},
		wtTurn{Session: "chat2", ID: "d2", Role: "assistant", Content: "Noted!"},
	)...)
	if _, err := writer.WriteTurnBlocks(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	waiting, _ := proposals.List(e) // the writer's core.md proposal
	if _, err := writer.Redistill(ctx, e, writer.RedistillOptions{Thread: "openprogram/nope"}); ftCode(err) != errcode.NotFound {
		t.Fatalf("unknown thread: %v", err)
	}
	if ps, _ := proposals.List(e); len(ps) != len(waiting) {
		t.Fatalf("an error stored %d proposal(s)", len(ps)-len(waiting))
	}
	// A note that links to chat1's "Thanks!" block keeps that block.
	var thanks string
	for k, id := range rdIDs(t, wtTopics(t, state)) {
		if strings.Contains(k, "Thanks!") {
			thanks = id
		}
	}
	link := "See [the thanks](threads/openprogram-chat1.md#^" + thanks + "). ^0ddba11b\n"
	rev, _ := e.Revision()
	if _, err := e.Update(ctx, result.Transaction{BaseRevision: &rev, Edits: []result.Edit{{Op: "append", Path: "topics/notes.md", Content: &link}}}); err != nil {
		t.Fatal(err)
	}
	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{Thread: "chat2"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Threads, []string{"openprogram/chat2"}) || res.TurnBlocks != 2 {
		t.Fatalf("--thread chat2: %+v", res)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	res, err = writer.Redistill(ctx, e, writer.RedistillOptions{Thread: "openprogram/chat1"})
	if err != nil || res.Kept != 1 || res.TurnBlocks != 5 {
		t.Fatalf("chat1 with a linked block: %+v, %v", res, err)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(mapValues(wtTopics(t, state)), "\n"), "^"+thanks) {
		t.Error("the linked turn block was removed")
	}
	ftVerifyClean(t, e)
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// TestRedistill_CodingSessionProject: a coding session's facts go to
// projects/<project>.md, the project taken from the working directory
// sessions.db keeps for the session (the archive does not hold it).
func TestRedistill_CodingSessionProject(t *testing.T) {
	ctx := context.Background()
	state := filepath.Join(t.TempDir(), "state")
	// The importer keeps a transcript's cwd as node metadata (JSONL import
	// has no field for it), so the nodes are stored the way it stores them.
	wtImport(t, state) // creates sessions.db
	st := wtStore(t, state)
	meta := json.RawMessage(`{"project":"/home/nadia/src/ledgerline"}`)
	at := time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)
	var nodes []sessions.Node
	for i, c := range []struct{ role, text string }{
		{"user", "Run the tests with make test-all before every commit, always."},
		{"assistant", "Let me look at the Makefile first:"},
		{"assistant", "All tests pass. I committed the fix as 3f2a1c0."},
	} {
		n := sessions.Node{Provider: "claude-code", Session: "cc1", ID: fmt.Sprintf("k%d", i+1), Role: c.role,
			Content: c.text, Time: at.Add(time.Duration(i) * time.Minute), Metadata: meta}
		if i > 0 {
			n.Parent = fmt.Sprintf("k%d", i)
		}
		nodes = append(nodes, n)
	}
	b := st.BeginImport(ctx)
	if err := b.AddNodes(nodes); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	e := wtOpen(t, state, nil)
	if _, err := writer.WriteTurnBlocks(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{Thread: "claude-code/cc1"})
	if err != nil || res.Proposal == "" {
		t.Fatalf("redistill: %+v, %v", res, err)
	}
	if !slices.Contains(res.Changed, "topics/projects/ledgerline.md") {
		t.Errorf("changed %v, want topics/projects/ledgerline.md", res.Changed)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	if got := wtTopics(t, state)["topics/projects/ledgerline.md"]; !strings.Contains(got, "make test-all") {
		t.Errorf("projects/ledgerline.md:\n%s", got)
	}
	ftVerifyClean(t, e)
}

// TestRedistill_LeavesCore: the old writer's core proposal copied turn
// blocks into topics/core.md; once the owner accepted it, core.md is the
// owner's, and a redistill neither removes those copies nor merges into
// them.
func TestRedistill_LeavesCore(t *testing.T) {
	ctx := context.Background()
	state, e := rdState(t)
	var ids []string
	for p, c := range wtTopics(t, state) {
		if strings.HasPrefix(p, "topics/threads/") {
			f, _ := topic.Parse([]byte(c))
			for _, b := range f.Blocks() {
				ids = append(ids, b.BlockID)
			}
			writer.ProposeCoreOf(ctx, e, p, ids...)
			break
		}
	}
	waiting, err := proposals.List(e)
	if err != nil || len(waiting) != 1 {
		t.Fatalf("want the writer's core proposal: %d, %v", len(waiting), err)
	}
	if _, err := proposals.Accept(ctx, e, waiting[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	core := wtTopics(t, state)["topics/core.md"]
	if len(rdTurnBlock.FindAllString(core, -1)) == 0 {
		t.Fatalf("core.md holds no copied turn block:\n%s", core)
	}
	res, err := writer.Redistill(ctx, e, writer.RedistillOptions{})
	if err != nil || res.Proposal == "" {
		t.Fatalf("redistill: %+v, %v", res, err)
	}
	if slices.Contains(res.Changed, "topics/core.md") {
		t.Errorf("the proposal changes core.md: %v", res.Changed)
	}
	if _, err := proposals.Accept(ctx, e, res.Proposal, nil); err != nil {
		t.Fatal(err)
	}
	if got := wtTopics(t, state)["topics/core.md"]; got != core {
		t.Errorf("core.md changed:\n%s\nwant\n%s", got, core)
	}
	ftVerifyClean(t, e)
}
