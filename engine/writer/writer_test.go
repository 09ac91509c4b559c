package writer_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/model"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/render"
	"scriptorium/scale"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
)

// The helpers in this file (prefix wt) serve the writer tests: turns to
// import, a fake model that records what it is sent and answers with edits
// citing the batch, and readers for markers, archives and citations.

// wtTurn is one JSONL line of `import` (SPEC §7), as the scale generator
// writes it.
type wtTurn = scale.Turn

// wtTime is the time of the i-th turn of a test session.
func wtTime(i int) string {
	return time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
}

// wtChain links turns into one branch (each the parent of the next) and
// gives them increasing times.
func wtChain(parent string, turns ...wtTurn) []wtTurn {
	for i := range turns {
		turns[i].Parent = parent
		if turns[i].Time == "" {
			turns[i].Time = wtTime(i)
		}
		parent = turns[i].ID
	}
	return turns
}

// wtImport stores turns in <state>/sessions.db.
func wtImport(t *testing.T, state string, turns ...wtTurn) {
	t.Helper()
	var b strings.Builder
	for _, tu := range turns {
		data, err := json.Marshal(tu)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	wtImportJSONL(t, state, b.String())
}

func wtImportJSONL(t *testing.T, state, jsonl string) {
	t.Helper()
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Import(strings.NewReader(jsonl)); err != nil {
		t.Fatalf("import: %v", err)
	}
}

// wtStore opens sessions.db for inspection, closed when the test ends.
func wtStore(t *testing.T, state string) *sessions.Store {
	t.Helper()
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// wtMarked returns the ids (of those given) whose written marker names ws.
func wtMarked(t *testing.T, st *sessions.Store, ws string, ids ...string) []string {
	t.Helper()
	var out []string
	for i, k := range wtKeys(t, st, ids...) {
		n, err := st.Node(k)
		if err != nil {
			t.Fatal(err)
		}
		if n.Written == ws {
			out = append(out, ids[i])
		}
	}
	return out
}

// wtKeys resolves node ids to their keys; the ids of these tests are
// unique across the store's sessions.
func wtKeys(t *testing.T, st *sessions.Store, ids ...string) []sessions.Key {
	t.Helper()
	sess, err := st.Sessions()
	if err != nil {
		t.Fatal(err)
	}
	var out []sessions.Key
	for _, id := range ids {
		found := false
		for _, s := range sess {
			if _, err := st.Node(s.Key().Node(id)); err == nil {
				out = append(out, s.Key().Node(id))
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("no node %q in any session", id)
		}
	}
	return out
}

// wtPendingIDs returns the ids of the pending turns of the branch ending at tip.
func wtPendingIDs(t *testing.T, st *sessions.Store, session, tip, ws string) []string {
	t.Helper()
	turns, err := st.PendingTurns(sessions.SessionKey{Session: session}.Node(tip), ws)
	if err != nil {
		t.Fatal(err)
	}
	out := []string{}
	for _, n := range turns {
		out = append(out, n.ID)
	}
	return out
}

// wtWorkspaceID returns the workspace id through status.
func wtWorkspaceID(t *testing.T, e *engine.Engine) string {
	t.Helper()
	st, err := e.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.WorkspaceID
}

// wtFrames parses every v2 archive of the workspace and returns its frames
// by source-id. An archive that does not parse whole fails the test.
func wtFrames(t *testing.T, state string) map[string]archive.Frame {
	t.Helper()
	out := map[string]archive.Frame{}
	root := filepath.Join(state, "memory", "sources")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if os.IsNotExist(err) && p == root {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) != "_v2" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		frames, err := archive.ParseV2(data)
		if err != nil {
			t.Errorf("%s does not parse: %v", p, err)
		}
		for _, f := range frames {
			if _, dup := out[f.SourceID]; dup {
				t.Errorf("%s archived twice", f.SourceID)
			}
			out[f.SourceID] = f
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wtTopics returns every topic file's content by workspace-relative path.
func wtTopics(t *testing.T, state string) map[string]string {
	t.Helper()
	out := map[string]string{}
	root := filepath.Join(state, "memory", "topics")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if os.IsNotExist(err) && p == root {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join(state, "memory"), p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wtCitations counts, per source-id, the footnote citations in all topics.
func wtCitations(t *testing.T, state string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, body := range wtTopics(t, state) {
		for _, line := range strings.Split(body, "\n") {
			if !strings.HasPrefix(line, "[^e-") {
				continue
			}
			_, srcs, ok := strings.Cut(line, "Sources: ")
			if !ok {
				continue
			}
			for _, c := range strings.Split(srcs, ", ") {
				if ref, _, ok := strings.Cut(strings.TrimPrefix(c, "["), "]("); ok {
					out[ref]++
				}
			}
		}
	}
	return out
}

// wtSource is one entry of the SOURCES section of a writer request.
type wtSource struct{ Ref, Path, Anchor, Date string }

// wtUserMessage returns the one user message of a writer request.
func wtUserMessage(t *testing.T, req model.Request) string {
	t.Helper()
	if len(req.Messages) != 1 || req.Messages[0].Role != "user" {
		t.Fatalf("writer request messages %+v, want one user message", req.Messages)
	}
	return req.Messages[0].Content
}

// wtSection returns the lines of a section of the writer's user message:
// from the line after the one starting with header to the first blank line.
func wtSection(msg, header string) []string {
	var out []string
	in := false
	sc := bufio.NewScanner(strings.NewReader(msg))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, header):
			in = true
		case in && line == "":
			return out
		case in:
			out = append(out, line)
		}
	}
	return out
}

// wtSources parses the SOURCES section: "ref  path  anchor  date" lines.
func wtSources(msg string) []wtSource {
	var out []wtSource
	for _, line := range wtSection(msg, "SOURCES") {
		f := strings.Split(line, "  ")
		if len(f) == 4 {
			out = append(out, wtSource{f[0], f[1], f[2], f[3]})
		}
	}
	return out
}

func wtHex(seed string, n int) string {
	sum := sha256.Sum256([]byte(seed))
	return hex.EncodeToString(sum[:])[:n]
}

// wtCitingEdits is what a well-behaved model answers: one new topic file
// (named after the batch's first source) with one cited block per source.
func wtCitingEdits(srcs []wtSource) string {
	if len(srcs) == 0 {
		return `{"edits":[]}`
	}
	p := "topics/fake/" + wtHex(srcs[0].Ref, 8) + ".md"
	var b strings.Builder
	b.WriteString("# Fake writer\n")
	for _, s := range srcs {
		label, id := "e-"+wtHex("fn"+s.Ref, 10), wtHex("block"+s.Ref, 8)
		fmt.Fprintf(&b, "\nRemembered %s.[^%s] ^%s\n\n[^%s]: Time: `%s`; Sources: [%s](../../%s#%s)\n",
			strings.ReplaceAll(s.Ref, "/", " "), label, id, label, s.Date, s.Ref, s.Path, s.Anchor)
	}
	ans, _ := json.Marshal(map[string]any{"edits": []map[string]string{{"op": "create", "path": p, "content": b.String()}}})
	return string(ans)
}

// wtModel is a fake model.Model: it records every request and answers
// with answer (call counts from 1), by default the citing edits in a
// ```json fence.
type wtModel struct {
	mu     sync.Mutex
	reqs   []model.Request
	answer func(call int, req model.Request) (string, error)
}

func (m *wtModel) Name() string { return "fake:writer" }

func (m *wtModel) Complete(_ context.Context, req model.Request) (model.Response, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	call := len(m.reqs)
	m.mu.Unlock()
	if m.answer != nil {
		text, err := m.answer(call, req)
		if err != nil {
			return model.Response{}, err
		}
		return model.Response{Text: text}, nil
	}
	if len(req.Messages) != 1 {
		return model.Response{}, &model.Error{Code: model.CodeConfig, Message: "want one message"}
	}
	return model.Response{Text: "Here you go:\n```json\n" + wtCitingEdits(wtSources(req.Messages[0].Content)) + "\n```\n"}, nil
}

func (m *wtModel) requests() []model.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]model.Request(nil), m.reqs...)
}

// wtOpen opens a background (non-interactive) owner engine on state with
// the given model (nil: the configured one), closed when the test ends.
func wtOpen(t *testing.T, state string, m model.Model) *engine.Engine {
	t.Helper()
	opts := engine.Options{StateDir: state, Now: ftClock, Distiller: writer.Distiller{}}
	if m != nil {
		opts.Model = m
	}
	e, err := engine.Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("open %s: %v", state, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// wtBigContent is message text of about 3000 o200k tokens, distinct per n.
func wtBigContent(t *testing.T, n int) string {
	t.Helper()
	c := fmt.Sprintf("Chunk %d of the long design discussion.", n) + strings.Repeat(" apple", 3000)
	if cost := render.CountTokens(c); cost < 2900 || cost > 3100 {
		t.Fatalf("fixture: chunk %d costs %d tokens, want about 3000", n, cost)
	}
	return c
}

// TestWrite_Threshold: below 16,000 tokens of pending turns the writer is
// silent and writes nothing; above it only the first turns up to the
// threshold are written; force writes batch after batch until nothing is
// pending. Each turn costs about 3000 tokens, so five turns (~15,100 with
// the JSONL framing) stay below the threshold and six pass it.
func TestWrite_Threshold(t *testing.T) {
	ctx := context.Background()
	var turns []wtTurn
	var ids []string
	for i := 0; i < 12; i++ {
		id := fmt.Sprintf("t%02d", i)
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		turns = append(turns, wtTurn{Session: "s", ID: id, Role: role, Content: wtBigContent(t, i)})
		ids = append(ids, id)
	}
	turns = wtChain("", turns...)

	t.Run("below", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		wtImport(t, state, turns[:5]...)
		m := &wtModel{}
		e := wtOpen(t, state, m)
		tree := ftTree(t, state)
		res, err := writer.Write(ctx, e, writer.WriteOptions{})
		if err != nil || res.Batches != 0 || res.Revision != 0 {
			t.Fatalf("write below the threshold: %+v, %v; want a silent success", res, err)
		}
		if len(m.requests()) != 0 {
			t.Errorf("the model was asked %d time(s) below the threshold", len(m.requests()))
		}
		if d := ftTreeDiff(tree, ftTree(t, state)); d != "" {
			t.Errorf("write below the threshold changed the workspace:\n%s", d)
		}
		ws := wtWorkspaceID(t, e)
		if got := wtMarked(t, wtStore(t, state), ws, ids[:5]...); len(got) != 0 {
			t.Errorf("marked %v below the threshold", got)
		}
		st, err := e.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Writer.PendingTurns != 5 || st.Writer.LastFailure != nil || st.Revision != 0 {
			t.Errorf("status writer %+v revision %d, want 5 pending turns and no failure", st.Writer, st.Revision)
		}
	})

	t.Run("above", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		wtImport(t, state, turns[:7]...)
		m := &wtModel{}
		e := wtOpen(t, state, m)
		res, err := writer.Write(ctx, e, writer.WriteOptions{})
		if err != nil || res.Batches != 1 || res.Revision != 1 {
			t.Fatalf("write above the threshold: %+v, %v; want one batch", res, err)
		}
		ws := wtWorkspaceID(t, e)
		st := wtStore(t, state)
		if got := wtMarked(t, st, ws, ids[:7]...); !slices.Equal(got, ids[:5]) {
			t.Errorf("marked %v, want the first five turns %v", got, ids[:5])
		}
		if got := wtPendingIDs(t, st, "s", ids[6], ws); !slices.Equal(got, ids[5:7]) {
			t.Errorf("still pending %v, want %v", got, ids[5:7])
		}
		reqs := m.requests()
		if len(reqs) != 1 {
			t.Fatalf("model asked %d times, want once", len(reqs))
		}
		if got := len(wtSection(wtUserMessage(t, reqs[0]), "TURNS")); got != 5 {
			t.Errorf("the model was sent %d turns, want 5", got)
		}
		frames := wtFrames(t, state)
		if len(frames) != 5 {
			t.Errorf("archived %d records, want the batch's 5", len(frames))
		}
		for _, id := range ids[:5] {
			if _, ok := frames["openprogram/s/"+id]; !ok {
				t.Errorf("%s is not archived", id)
			}
		}
		ftVerifyClean(t, e)
		// The two left over (~6000 tokens) are below the threshold: a second
		// write owes nothing yet.
		res, err = writer.Write(ctx, e, writer.WriteOptions{})
		if err != nil || res.Batches != 0 || res.Revision != 1 {
			t.Errorf("second write: %+v, %v; want nothing written", res, err)
		}
	})

	t.Run("one batch per call without force", func(t *testing.T) {
		// Twelve turns (~36,000 tokens) hold two full batches, but a write
		// without force takes only the first turns up to the threshold,
		// not the whole backlog (SPEC §7).
		state := filepath.Join(t.TempDir(), "state")
		wtImport(t, state, turns...)
		e := wtOpen(t, state, &wtModel{})
		res, err := writer.Write(ctx, e, writer.WriteOptions{})
		if err != nil || res.Batches != 1 {
			t.Fatalf("write: %+v, %v; want one batch", res, err)
		}
		ws := wtWorkspaceID(t, e)
		if got := wtMarked(t, wtStore(t, state), ws, ids...); !slices.Equal(got, ids[:5]) {
			t.Errorf("marked %v, want %v", got, ids[:5])
		}
	})

	t.Run("force", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		wtImport(t, state, turns...)
		m := &wtModel{}
		e := wtOpen(t, state, m)
		res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
		if err != nil || res.Batches != 3 || res.Revision != 3 {
			t.Fatalf("forced write: %+v, %v; want 3 batches (5 + 5 + 2 turns)", res, err)
		}
		var sizes []int
		for _, r := range m.requests() {
			sizes = append(sizes, len(wtSection(wtUserMessage(t, r), "TURNS")))
		}
		if !slices.Equal(sizes, []int{5, 5, 2}) {
			t.Errorf("batch sizes %v, want [5 5 2]", sizes)
		}
		ws := wtWorkspaceID(t, e)
		st := wtStore(t, state)
		if got := wtMarked(t, st, ws, ids...); !slices.Equal(got, ids) {
			t.Errorf("marked %v, want all", got)
		}
		if got := wtPendingIDs(t, st, "s", ids[11], ws); len(got) != 0 {
			t.Errorf("still pending after force: %v", got)
		}
		cites := wtCitations(t, state)
		for _, id := range ids {
			if cites["openprogram/s/"+id] != 1 {
				t.Errorf("%s cited %d times, want once", id, cites["openprogram/s/"+id])
			}
		}
		h := ftHistory(t, e)
		if len(h) != 3 || h[0].Kind != "write" {
			t.Errorf("history %+v, want three write installs", h)
		}
		ftVerifyClean(t, e)
		// Nothing is owed any more: a forced write is a silent success.
		res, err = writer.Write(ctx, e, writer.WriteOptions{Force: true})
		if err != nil || res.Batches != 0 || res.Revision != 3 {
			t.Errorf("write with nothing owed: %+v, %v", res, err)
		}
	})
}

// TestWrite_Branches: markers on a shared prefix serve both branches; each
// branch's own suffix stays pending until written; markers for another
// workspace are ignored.
func TestWrite_Branches(t *testing.T) {
	ctx := context.Background()
	prefix := wtChain("",
		wtTurn{Session: "b", ID: "p1", Role: "user", Content: "We are planning the Lisbon offsite."},
		wtTurn{Session: "b", ID: "p2", Role: "assistant", Content: "Noted: Lisbon offsite."},
		wtTurn{Session: "b", ID: "p3", Role: "user", Content: "Which hotel should we pick?"})
	branchA := wtChain("p3",
		wtTurn{Session: "b", ID: "a1", Role: "assistant", Content: "Hotel Avenida is close to the venue.", Time: wtTime(10)},
		wtTurn{Session: "b", ID: "a2", Role: "user", Content: "Book Avenida then.", Time: wtTime(11)})
	branchB := wtChain("p3",
		wtTurn{Session: "b", ID: "b1", Role: "assistant", Content: "Hotel Lumen has the cheaper rooms.", Time: wtTime(20)},
		wtTurn{Session: "b", ID: "b2", Role: "user", Content: "Book Lumen then.", Time: wtTime(21)})

	t.Run("fork after write", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		wtImport(t, state, append(prefix, branchA...)...)
		m := &wtModel{}
		e := wtOpen(t, state, m)
		if res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil || res.Batches != 1 {
			t.Fatalf("write branch A: %+v, %v", res, err)
		}
		// The conversation forks at p3 after branch A was written.
		wtImport(t, state, branchB...)
		ws := wtWorkspaceID(t, e)
		st := wtStore(t, state)
		if got := wtMarked(t, st, ws, "p1", "p2", "p3", "a1", "a2", "b1", "b2"); !slices.Equal(got, []string{"p1", "p2", "p3", "a1", "a2"}) {
			t.Errorf("marked %v", got)
		}
		if got := wtPendingIDs(t, st, "b", "b2", ws); !slices.Equal(got, []string{"b1", "b2"}) {
			t.Errorf("branch B pending %v, want only its own suffix [b1 b2]", got)
		}
		if got := wtPendingIDs(t, st, "b", "a2", ws); len(got) != 0 {
			t.Errorf("branch A pending %v after it was written", got)
		}
		if st, _ := e.Status(ctx); st.Writer.PendingTurns != 2 {
			t.Errorf("status pending_turns %d, want 2", st.Writer.PendingTurns)
		}
		if res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil || res.Batches != 1 {
			t.Fatalf("write branch B: %+v, %v", res, err)
		}
		reqs := m.requests()
		if len(reqs) != 2 {
			t.Fatalf("model asked %d times", len(reqs))
		}
		var refs []string
		for _, s := range wtSources(wtUserMessage(t, reqs[1])) {
			refs = append(refs, s.Ref)
		}
		if !slices.Equal(refs, []string{"openprogram/b/b1", "openprogram/b/b2"}) {
			t.Errorf("second batch sent %v, want only branch B's suffix", refs)
		}
		for ref, n := range wtCitations(t, state) {
			if n != 1 {
				t.Errorf("%s cited %d times", ref, n)
			}
		}
		ftVerifyClean(t, e)
	})

	t.Run("both branches in one write", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		wtImport(t, state, append(append(prefix, branchA...), branchB...)...)
		m := &wtModel{}
		e := wtOpen(t, state, m)
		res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
		if err != nil || res.Batches != 1 {
			t.Fatalf("write: %+v, %v; want one batch for both branches (issue 26: never one per branch)", res, err)
		}
		// Every turn is written once, the shared prefix included.
		seen := map[string]int{}
		for _, r := range m.requests() {
			for _, s := range wtSources(wtUserMessage(t, r)) {
				seen[s.Ref]++
			}
		}
		for _, id := range []string{"p1", "p2", "p3", "a1", "a2", "b1", "b2"} {
			if seen["openprogram/b/"+id] != 1 {
				t.Errorf("%s sent to the model %d times, want once", id, seen["openprogram/b/"+id])
			}
		}
		if len(wtFrames(t, state)) != 7 {
			t.Errorf("archived %d records, want 7", len(wtFrames(t, state)))
		}
		ws := wtWorkspaceID(t, e)
		st := wtStore(t, state)
		for _, tip := range []string{"a2", "b2"} {
			if got := wtPendingIDs(t, st, "b", tip, ws); len(got) != 0 {
				t.Errorf("branch %s pending %v", tip, got)
			}
		}
	})

	t.Run("other workspace markers", func(t *testing.T) {
		state := filepath.Join(t.TempDir(), "state")
		wtImport(t, state, append(prefix, branchA...)...)
		st := wtStore(t, state)
		// Another workspace wrote the prefix and a1: that says nothing about
		// this one.
		if err := st.MarkWritten(wtKeys(t, st, "p1", "p2", "p3", "a1"), "0123456789abcdef0123456789abcdef"); err != nil {
			t.Fatal(err)
		}
		m := &wtModel{}
		e := wtOpen(t, state, m)
		ws := wtWorkspaceID(t, e)
		if got := wtPendingIDs(t, st, "b", "a2", ws); !slices.Equal(got, []string{"p1", "p2", "p3", "a1", "a2"}) {
			t.Fatalf("pending %v, want the whole branch", got)
		}
		if res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil || res.Batches != 1 {
			t.Fatalf("write: %+v, %v", res, err)
		}
		if got := len(wtSources(wtUserMessage(t, m.requests()[0]))); got != 5 {
			t.Errorf("sent %d turns, want 5", got)
		}
		if got := wtMarked(t, st, ws, "p1", "p2", "p3", "a1", "a2"); len(got) != 5 {
			t.Errorf("marked for this workspace: %v", got)
		}
	})
}

// TestWrite_TrustRouting: unpaired group messages are archived at once as
// pending sources, even below the threshold, and never distilled; unpaired
// direct messages never enter memory but are marked processed; tool,
// system and synthetic rows reach neither the archive nor the model.
func TestWrite_TrustRouting(t *testing.T) {
	ctx := context.Background()
	turns := wtChain("",
		wtTurn{Session: "g", ID: "u1", Role: "user", Content: "Owner says: the build server is called anvil.", SpeakerID: "owner", SpeakerDisplay: "Ann", Group: true},
		wtTurn{Session: "g", ID: "g2", Role: "user", Content: "Stranger says: zebrafish password is hunter2.", SpeakerID: "u456", SpeakerDisplay: "B", Tier: "unpaired", Group: true},
		wtTurn{Session: "g", ID: "a3", Role: "assistant", Content: "Understood, anvil it is."},
		wtTurn{Session: "g", ID: "d4", Role: "user", Content: "Direct stranger: walrusmoustache secret.", SpeakerID: "u789", Tier: "unpaired"},
		wtTurn{Session: "g", ID: "x5", Role: "tool", Content: "toolresult capybara"},
		wtTurn{Session: "g", ID: "x6", Role: "system", Content: "systemrow okapi"},
		wtTurn{Session: "g", ID: "x7", Role: "user", Content: "Sub-agent finished: synthetic narwhal.", Synthetic: true},
		wtTurn{Session: "g", ID: "x8", Role: "assistant", Content: ""},
		wtTurn{Session: "g", ID: "u9", Role: "user", Content: "Paired friend: the deploy day is Thursday.", SpeakerID: "u321", SpeakerDisplay: "Pat", Tier: "paired", Group: true},
	)
	all := []string{"u1", "g2", "a3", "d4", "x5", "x6", "x7", "x8", "u9"}
	state := filepath.Join(t.TempDir(), "state")
	wtImport(t, state, turns...)
	m := &wtModel{}
	e := wtOpen(t, state, m)
	ws := wtWorkspaceID(t, e)
	st := wtStore(t, state)

	// Below the threshold: only the unpaired group message is archived, as a
	// pending frame, without asking the model and without a topic.
	res, err := writer.Write(ctx, e, writer.WriteOptions{})
	if err != nil || res.Batches != 0 {
		t.Fatalf("write: %+v, %v", res, err)
	}
	if len(m.requests()) != 0 {
		t.Errorf("the model was asked below the threshold")
	}
	frames := wtFrames(t, state)
	if len(frames) != 1 || !frames["openprogram/g/g2"].Pending || frames["openprogram/g/g2"].SpeakerID != "u456" {
		t.Fatalf("archived after the first write: %+v, want only g2 as trust:pending", frames)
	}
	if !strings.Contains(ftRead(t, state, "sources/openprogram/_v2/g.md"), "<!-- trust:pending -->\n") {
		t.Errorf("the archive has no trust:pending marker")
	}
	if len(wtTopics(t, state)) != 0 {
		t.Errorf("topics written below the threshold: %v", wtTopics(t, state))
	}
	// The trusted turns around it are still owed: archiving g2 must not
	// hide them behind its marker.
	// (g2 itself cannot carry a marker yet: the walk back from the tip
	// stops at the newest marker, and u1 before it is unwritten.)
	if got := wtPendingIDs(t, st, "g", "u9", ws); !slices.Equal(got, []string{"u1", "g2", "a3", "d4", "u9"}) {
		t.Errorf("pending after the first write %v, want u1, a3 and u9 still owed", got)
	}
	if ps, _ := review.Pending(ctx, e); len(ps) != 1 || ps[0].Ref != "openprogram/g/g2" {
		t.Errorf("pending sources %+v", ps)
	}

	// Forced: the trusted turns are written; nothing else is.
	res, err = writer.Write(ctx, e, writer.WriteOptions{Force: true})
	if err != nil || res.Batches != 1 {
		t.Fatalf("forced write: %+v, %v", res, err)
	}
	reqs := m.requests()
	if len(reqs) != 1 {
		t.Fatalf("model asked %d times", len(reqs))
	}
	msg := wtUserMessage(t, reqs[0])
	var sent []string
	for _, s := range wtSources(msg) {
		sent = append(sent, s.Ref)
	}
	if !slices.Equal(sent, []string{"openprogram/g/u1", "openprogram/g/a3", "openprogram/g/u9"}) {
		t.Errorf("sent to the model %v, want the owner, assistant and paired turns", sent)
	}
	for _, word := range []string{"zebrafish", "walrusmoustache", "capybara", "okapi", "narwhal"} {
		if strings.Contains(msg, word) {
			t.Errorf("the model was sent %q", word)
		}
	}
	frames = wtFrames(t, state)
	var archived []string
	for ref, f := range frames {
		archived = append(archived, ref)
		if f.Pending != (ref == "openprogram/g/g2") {
			t.Errorf("%s pending=%v", ref, f.Pending)
		}
	}
	slices.Sort(archived)
	if want := []string{"openprogram/g/a3", "openprogram/g/g2", "openprogram/g/u1", "openprogram/g/u9"}; !slices.Equal(archived, want) {
		t.Errorf("archived %v, want %v", archived, want)
	}
	cites := wtCitations(t, state)
	if cites["openprogram/g/g2"] != 0 || cites["openprogram/g/d4"] != 0 {
		t.Errorf("unpaired messages cited: %v", cites)
	}
	for _, topicBody := range wtTopics(t, state) {
		for _, word := range []string{"zebrafish", "walrusmoustache", "capybara", "okapi", "narwhal"} {
			if strings.Contains(topicBody, word) {
				t.Errorf("a topic holds %q", word)
			}
		}
	}
	// Every turn is processed; mechanics carry no marker and owe nothing.
	if got := wtMarked(t, st, ws, all...); !slices.Equal(got, []string{"u1", "g2", "a3", "d4", "u9"}) {
		t.Errorf("marked %v", got)
	}
	if got := wtPendingIDs(t, st, "g", "u9", ws); len(got) != 0 {
		t.Errorf("still pending %v", got)
	}
	// Search never returns the pending source nor the unarchived ones, and
	// backfill does not distil the pending one.
	for _, word := range []string{"zebrafish", "walrusmoustache", "capybara", "okapi", "narwhal"} {
		hits, err := e.Search(ctx, result.SearchQuery{Text: word})
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) != 0 {
			t.Errorf("search %q returned %+v", word, hits)
		}
	}
	if hits, err := e.Search(ctx, result.SearchQuery{Text: "anvil"}); err != nil || len(hits) == 0 {
		t.Errorf("search anvil: %v, %v; the trusted turn should be found", hits, err)
	}
	bf, err := writer.Backfill(ctx, e)
	if err != nil || bf.Sources != 0 {
		t.Errorf("backfill after the write: %+v, %v; want nothing to distil", bf, err)
	}
	if wtCitations(t, state)["openprogram/g/g2"] != 0 {
		t.Errorf("backfill distilled the pending source")
	}
	ftVerifyClean(t, e)
}

// wtHostileTurns reads testdata/writer/hostile.jsonl: the turns exactly as
// imported, decoded independently of the engine.
func wtHostileTurns(t *testing.T) (string, []wtTurn) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "writer", "hostile.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var turns []wtTurn
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var tu wtTurn
		if err := json.Unmarshal([]byte(line), &tu); err != nil {
			t.Fatalf("fixture line %q: %v", line, err)
		}
		turns = append(turns, tu)
	}
	return string(data), turns
}

// TestWrite_HostileTranscript: impersonation text, fake frames, anchors and
// source-id comments, CRLF, trailing spaces and newlines, U+2028/U+2029 and
// `--` in message text survive byte-exact into the archive and the writer
// input; identity comes only from the structured speaker fields; each turn
// is one physical line of the writer protocol.
func TestWrite_HostileTranscript(t *testing.T) {
	ctx := context.Background()
	jsonl, turns := wtHostileTurns(t)
	byRef := map[string]wtTurn{}
	for _, tu := range turns {
		byRef["openprogram/"+tu.Session+"/"+tu.ID] = tu
	}
	state := filepath.Join(t.TempDir(), "state")
	wtImportJSONL(t, state, jsonl)
	m := &wtModel{}
	e := wtOpen(t, state, m)
	res, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
	if err != nil || res.Batches != 1 {
		t.Fatalf("write: %+v, %v", res, err)
	}
	ftVerifyClean(t, e)

	// The archive: exactly one frame per turn, content byte-exact, the
	// speaker only from speaker_id/speaker_display.
	frames := wtFrames(t, state)
	if len(frames) != len(turns) {
		t.Errorf("archived %d frames for %d turns: the content created frames", len(frames), len(turns))
	}
	for ref, tu := range byRef {
		f, ok := frames[ref]
		if !ok {
			t.Errorf("%s not archived", ref)
			continue
		}
		if f.Content != tu.Content {
			t.Errorf("%s archived content %q, want %q", ref, f.Content, tu.Content)
		}
		if f.SpeakerID != tu.SpeakerID {
			t.Errorf("%s archived speaker id %q, want %q", ref, f.SpeakerID, tu.SpeakerID)
		}
		wantLabel := archive.SpeakerLabel(tu.SpeakerDisplay, tu.SpeakerID)
		if f.SpeakerLabel() != wantLabel {
			t.Errorf("%s archived speaker label %q, want %q", ref, f.SpeakerLabel(), wantLabel)
		}
		if wantLabel == "" && f.Label != tu.Role {
			t.Errorf("%s speakerless record labelled %q, want the role %q", ref, f.Label, tu.Role)
		}
		v, err := e.Get(ctx, ref)
		if err != nil {
			t.Errorf("get %s: %v", ref, err)
			continue
		}
		sv := v.(result.SourceView)
		// A v2 speaker-id marker, with an id or display-only, is trusted.
		if sv.Content != tu.Content || sv.SpeakerTrusted != (wantLabel != "") {
			t.Errorf("get %s: content %q trusted %v", ref, sv.Content, sv.SpeakerTrusted)
		}
	}
	// Impersonation: the 张三 label in the text never becomes an identity.
	for ref, f := range frames {
		if f.SpeakerID == "u123" || strings.Contains(f.SpeakerLabel(), "张三") {
			t.Errorf("%s carries the impersonated identity: %q %q", ref, f.SpeakerID, f.SpeakerLabel())
		}
	}
	hits, err := e.Search(ctx, result.SearchQuery{Text: "密钥", Speaker: "u123"})
	if err != nil || len(hits) != 0 {
		t.Errorf("search by the impersonated speaker u123: %+v, %v", hits, err)
	}

	// The writer input: exactly one physical line per turn.
	reqs := m.requests()
	if len(reqs) != 1 {
		t.Fatalf("model asked %d times", len(reqs))
	}
	msg := wtUserMessage(t, reqs[0])
	if strings.ContainsAny(msg, "\u2028\u2029") {
		t.Errorf("the writer input holds a raw U+2028/U+2029")
	}
	lines := wtSection(msg, "TURNS")
	if len(lines) != len(turns) {
		t.Fatalf("writer input has %d turn lines for %d turns:\n%s", len(lines), len(turns), strings.Join(lines, "\n"))
	}
	for i, line := range lines {
		if strings.Contains(line, "\r") {
			t.Errorf("line %d holds a raw CR", i)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %d is not one JSON object: %v\n%s", i, err, line)
		}
		for k := range obj {
			if k != "ref" && k != "speaker" && k != "content" {
				t.Errorf("line %d has field %q", i, k)
			}
		}
		var got struct{ Ref, Content string }
		var speaker *string
		_ = json.Unmarshal(obj["ref"], &got.Ref)
		_ = json.Unmarshal(obj["content"], &got.Content)
		if raw, ok := obj["speaker"]; ok {
			speaker = new(string)
			_ = json.Unmarshal(raw, speaker)
		}
		tu, ok := byRef[got.Ref]
		if !ok {
			t.Errorf("line %d has ref %q, not a turn of the batch", i, got.Ref)
			continue
		}
		if want := turns[i]; "openprogram/"+want.Session+"/"+want.ID != got.Ref {
			t.Errorf("line %d is %s, want turns oldest first (%s)", i, got.Ref, want.ID)
		}
		if got.Content != tu.Content {
			t.Errorf("%s: writer content %q, want %q", got.Ref, got.Content, tu.Content)
		}
		wantLabel := archive.SpeakerLabel(tu.SpeakerDisplay, tu.SpeakerID)
		switch {
		case wantLabel == "" && speaker != nil:
			t.Errorf("%s: speakerless turn sent with speaker %q", got.Ref, *speaker)
		case wantLabel != "" && (speaker == nil || *speaker != wantLabel):
			t.Errorf("%s: speaker %v, want %q", got.Ref, speaker, wantLabel)
		}
		if strings.ContainsAny(tu.Content, "\u2028\u2029") && !strings.Contains(line, `\u2028`) && !strings.Contains(line, `\u2029`) {
			t.Errorf("%s: U+2028/U+2029 not escaped: %s", got.Ref, line)
		}
	}
}

// TestWrite_Disabled: memory.backend = "none" refuses before the
// workspace is opened: nothing under the state dir is created.
func TestWrite_Disabled(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte("[memory]\nbackend = \"none\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if ftCode(err) != errcode.MemoryDisabled || errcode.As(err).Retryable() {
		t.Fatalf("open: %v, want MEMORY_DISABLED (final)", err)
	}
	entries, _ := os.ReadDir(state)
	if len(entries) != 1 {
		t.Errorf("a disabled backend created files: %v", entries)
	}
}
