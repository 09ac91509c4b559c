package forget_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/forget"
	"scriptorium/engine/result"
	"scriptorium/engine/revert"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

const forgetCanary = "zebra-canary-4417"

// forgetTurns: Bob (u456, a paired group member) tells the canary in the
// group; Ann (u1) says something else there; an owner chat is elsewhere.
var forgetTurns = `{"session":"grp","provider":"telegram","id":"1","role":"user","speaker_id":"u1","speaker_display":"Ann","content":"I love the harbour walk in spring.","time":"2026-08-10T10:00:00Z","tier":"paired","group":true}
{"session":"grp","provider":"telegram","id":"2","parent":"1","role":"user","speaker_id":"u456","speaker_display":"Bob","content":"My gym locker code is ` + forgetCanary + ` <keep it quiet>.","time":"2026-08-10T10:01:00Z","tier":"paired","group":true}
{"session":"grp","provider":"telegram","id":"3","parent":"2","role":"user","speaker_id":"u456","speaker_display":"Bob","content":"I'm moving to Lisbon in May.","time":"2026-08-10T10:02:00Z","tier":"paired","group":true}
{"session":"chat","id":"c1","role":"user","content":"My sister Ines lives in Porto.","time":"2026-08-10T12:00:00Z"}
`

// forgetSetup writes the turns, runs the writer, and links a block of
// another file to one of Bob's blocks, so a forget must repair a link.
func forgetSetup(t *testing.T) (*engine.Engine, string) {
	t.Helper()
	ctx := context.Background()
	state := ftEmpty(t, nil)
	e := ftOpen(t, state)
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Import(strings.NewReader(forgetTurns)); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	v, err := e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var bobBlock string
	for _, p := range v.TopicPaths() {
		_, f, _ := v.Topic(p)
		for _, b := range f.Blocks() {
			if strings.Contains(b.Raw, forgetCanary) {
				bobBlock = p + "#^" + b.BlockID
			}
		}
	}
	if bobBlock == "" {
		t.Fatalf("the writer distilled no block with the canary; topics: %v", v.TopicPaths())
	}
	p, id, _ := strings.Cut(bobBlock, "#^")
	link := "# Links\n\nSee [the code](" + strings.TrimPrefix(p, "topics/") + "#^" + id + ") and keep this. ^1a2b3c4d\n"
	ftUpdate(t, e, ftCreate("topics/links.md", link))
	ftVerifyClean(t, e)
	return e, state
}

// holders lists the files under dir whose bytes hold s or its JSON escape.
// The engine stays open while it walks, so bleve's merger may remove a
// segment between the listing and the read: a file gone holds nothing.
func holders(t *testing.T, dir, s string) []string {
	t.Helper()
	esc, _ := json.Marshal(s)
	forms := [][]byte{[]byte(s), esc[1 : len(esc)-1]}
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		for _, f := range forms {
			if bytes.Contains(data, f) {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestForget_SpeakerPreviewThenApply(t *testing.T) {
	ctx := context.Background()
	e, state := forgetSetup(t)
	if len(holders(t, state, forgetCanary)) == 0 {
		t.Fatal("the canary is nowhere before the forget: the test proves nothing")
	}
	tree := ftTree(t, state)
	rev := ftRevision(t, e)
	dry, err := forget.Run(ctx, e, result.ForgetSelector{Speaker: "u456"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if dry.Revision != 0 || len(dry.Sources) != 2 || dry.Turns != 2 {
		t.Fatalf("dry run = %+v", dry)
	}
	kinds := map[string]bool{}
	all := ""
	for _, c := range dry.Changes {
		kinds[c.Kind] = true
		all += c.Diff
	}
	for _, k := range []string{"archive", "topic", "derived", "index", "sessions", "history"} {
		if !kinds[k] {
			t.Errorf("the preview lists no %s change: %+v", k, dry.Changes)
		}
	}
	if !strings.Contains(all, "-[2026-08-10T10:01:00Z] Bob (u456): My gym locker code is "+forgetCanary) {
		t.Errorf("the preview does not show the archived record as removed:\n%s", all)
	}
	if d := ftTreeDiff(tree, ftTree(t, state)); d != "" || ftRevision(t, e) != rev {
		t.Fatalf("a dry run changed the workspace:\n%s", d)
	}

	res, err := forget.Run(ctx, e, result.ForgetSelector{Speaker: "u456"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Revision != rev+1 || len(res.Sources) != 2 || len(res.Changes) != len(dry.Changes) {
		t.Fatalf("forget = %+v", res)
	}
	ftVerifyClean(t, e)
	if h := holders(t, state, forgetCanary); len(h) > 0 {
		t.Errorf("after the forget the canary is still in %v", h)
	}
	if h := holders(t, state, "Lisbon"); len(h) > 0 {
		t.Errorf("after the forget Bob's other record is still in %v", h)
	}
	// Everything else is intact: Ann's record and block, the owner chat,
	// the linking block (its link reduced to text).
	for _, keep := range []string{"harbour walk", "Ines lives in Porto"} {
		if len(holders(t, filepath.Join(state, "memory", "topics"), keep)) == 0 {
			t.Errorf("%q is gone from topics", keep)
		}
	}
	if got := ftRead(t, state, "topics/links.md"); got != "# Links\n\nSee the code and keep this. ^1a2b3c4d\n" {
		t.Errorf("links.md = %q", got)
	}
	src, err := e.Get(ctx, "telegram/grp/2")
	if err != nil {
		t.Fatalf("the tombstone does not resolve: %v", err)
	}
	if sv := src.(result.SourceView); !sv.Forgotten || sv.Content != "" || sv.Time != "2026-08-10T10:01:00Z" {
		t.Errorf("get of the forgotten source = %+v", sv)
	}
	h := ftHistory(t, e)
	if h[0].Kind != "forget" || h[0].Revision != res.Revision {
		t.Errorf("history head = %+v", h[0])
	}
	ledger, err := forget.Ledger(ctx, e)
	if err != nil || len(ledger) != 1 || !ledger[0].Done || ledger[0].Selector.Speaker != "u456" ||
		len(ledger[0].Records) != 2 || len(ledger[0].Records[0].SHA256) != 64 || ledger[0].Turns != 2 {
		t.Errorf("ledger = %+v, %v", ledger, err)
	}
	// Revert cannot bring it back: neither the forget nor the write that
	// archived it (its recorded bytes were scrubbed).
	if _, err := revert.Revert(ctx, e, res.Revision, true); ftCode(err) != errcode.InvalidArgument {
		t.Errorf("revert of the forget: %v", err)
	}
	if _, err := revert.Revert(ctx, e, 1, true); ftCode(err) != errcode.InvalidArgument || !strings.Contains(err.Error(), "forget") {
		t.Errorf("revert of the scrubbed write: %v", err)
	}
	// The same selection again holds nothing left to forget.
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Speaker: "u456"}, true); ftCode(err) != errcode.InvalidArgument {
		t.Errorf("second forget: %v", err)
	}
	// Importing the transcript again brings nothing back.
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	imp, err := st.Import(strings.NewReader(forgetTurns))
	st.Close()
	if err != nil || imp.Imported != 0 || imp.Forgotten != 2 {
		t.Errorf("re-import = %+v, %v", imp, err)
	}
	if wr, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil || wr.Batches != 0 {
		t.Errorf("the writer found something to write after the forget: %+v %v", wr, err)
	}
}

func TestForget_Errors(t *testing.T) {
	ctx := context.Background()
	e, _ := forgetSetup(t)
	tests := []struct {
		sel  result.ForgetSelector
		code errcode.Code
	}{
		{result.ForgetSelector{Sources: []string{"telegram/grp/99"}}, errcode.NotFound},
		{result.ForgetSelector{Speaker: "nobody"}, errcode.InvalidArgument},
		{result.ForgetSelector{Thread: "telegram/none"}, errcode.InvalidArgument},
		{result.ForgetSelector{}, errcode.InvalidArgument},
		{result.ForgetSelector{Speaker: "u1", Thread: "telegram/grp"}, errcode.InvalidArgument},
		{result.ForgetSelector{Thread: "no-slash"}, errcode.InvalidArgument},
	}
	for _, tt := range tests {
		if _, err := forget.Run(ctx, e, tt.sel, true); ftCode(err) != tt.code {
			t.Errorf("Forget(%+v) = %v, want %s", tt.sel, err, tt.code)
		}
	}
	paired := ftOpen(t, e.StateDir(), asPaired)
	if _, err := forget.Run(ctx, paired, result.ForgetSelector{Speaker: "u456"}, true); ftCode(err) != errcode.Forbidden {
		t.Errorf("paired forget: %v", err)
	}
}

// TestInstall_ArchivesStayAppendOnly: only forget may change archived
// bytes; a service's install that rewrites or shortens an archive, or
// touches a legacy one, is refused and changes nothing.
func TestInstall_ArchivesStayAppendOnly(t *testing.T) {
	ctx := context.Background()
	e, state := forgetSetup(t)
	tree := ftTree(t, state)
	arch := "sources/telegram/_v2/grp.md"
	old := []byte(ftRead(t, state, arch))
	for name, data := range map[string][]byte{
		"rewritten": bytes.Replace(old, []byte("harbour"), []byte("harbor!"), 1),
		"shortened": old[:len(old)/2],
	} {
		_, err := e.Install(ctx, engine.Change{Kind: "write", Archives: map[string][]byte{arch: data}})
		vs := ftViolations(err)
		if ftCode(err) != errcode.Rejected || len(vs) != 1 || vs[0].Code != "archive_rewrite" {
			t.Errorf("%s archive: err = %v", name, err)
		}
	}
	if d := ftTreeDiff(tree, ftTree(t, state)); d != "" {
		t.Errorf("a refused rewrite changed files:\n%s", d)
	}
	// Appending stays allowed.
	if _, err := e.Install(ctx, engine.Change{Kind: "write", Archives: map[string][]byte{arch: append(old, []byte("\n")...)}}); ftCode(err) == errcode.Rejected {
		t.Errorf("an append was refused: %v", err)
	}
}

// TestForget_LegacyRecords: a frozen legacy archive is rewritten too (the
// text goes, the line count and every anchor stay), together with the v2
// frame that re-archived the same record; the file whose blocks all cited
// the thread is deleted and links to it keep only their text.
func TestForget_LegacyRecords(t *testing.T) {
	ctx := context.Background()
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	legacy := "sources/openprogram/old-chat.md"
	before := ftRead(t, state, legacy)
	res, err := forget.Run(ctx, e, result.ForgetSelector{Thread: "openprogram/old-chat"}, false)
	if err != nil {
		t.Fatal(err)
	}
	ftVerifyClean(t, e)
	after := ftRead(t, state, legacy)
	for _, gone := range []string{"tea", "Second line", "framed records", "plain words", "Alice", "Mallory"} {
		if strings.Contains(after, gone) {
			t.Errorf("%q is still in the legacy archive:\n%s", gone, after)
		}
	}
	if strings.Count(after, "\n") != strings.Count(before, "\n") || !strings.Contains(after, `<a id="source-b37c682d"></a>`) {
		t.Errorf("the legacy archive lost lines or anchors:\n%s", after)
	}
	if strings.Contains(ftRead(t, state, "sources/openprogram/_v2/old-chat.md"), "framed records") {
		t.Error("the v2 copy of msg-9 still holds its text")
	}
	if ftExists(state, "topics/projects/legacy.md") {
		t.Error("topics/projects/legacy.md cites only the thread and should be gone")
	}
	if len(res.Sources) != 4 {
		t.Errorf("sources = %v", res.Sources)
	}
	for _, ref := range res.Sources {
		v, err := e.Get(ctx, ref)
		if err != nil || !v.(result.SourceView).Forgotten {
			t.Errorf("get %s after the forget: %+v %v", ref, v, err)
		}
	}
}

// TestForget_UnwrittenTurn: a turn the writer never archived is forgotten
// in sessions.db alone, still as a revision with its ledger row, and the
// writer never archives it afterwards.
func TestForget_UnwrittenTurn(t *testing.T) {
	ctx := context.Background()
	e, state := forgetSetup(t)
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = st.Import(strings.NewReader(`{"session":"chat","id":"c2","parent":"c1","role":"user","content":"Unwritten ` +
		forgetCanary + `","time":"2026-08-10T12:05:00Z"}` + "\n"))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	tree, rev := ftTree(t, state), ftRevision(t, e)
	res, err := forget.Run(ctx, e, result.ForgetSelector{Sources: []string{"openprogram/chat/c2"}}, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Turns != 1 || len(res.Sources) != 0 || res.Revision != rev+1 {
		t.Errorf("forget = %+v", res)
	}
	if d := ftTreeDiff(tree, ftTree(t, state)); strings.Contains(d, "topics/") || strings.Contains(d, "sources/") {
		t.Errorf("forgetting an unwritten turn changed memory files:\n%s", d)
	}
	if ledger, _ := forget.Ledger(ctx, e); len(ledger) != 1 || !ledger[0].Done || ledger[0].Revision != rev+1 {
		t.Errorf("ledger = %+v", ledger)
	}
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if h := holders(t, state, "Unwritten "+forgetCanary); len(h) > 0 {
		t.Errorf("the forgotten turn is still in %v", h)
	}
}
