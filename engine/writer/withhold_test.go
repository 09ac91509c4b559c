package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/model"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// capturingModel records the requests and answers with a fixed text.
type capturingModel struct {
	answer string
	reqs   []model.Request
}

func (m *capturingModel) Name() string { return "fake:capturing" }
func (m *capturingModel) Complete(_ context.Context, req model.Request) (model.Response, error) {
	m.reqs = append(m.reqs, req)
	return model.Response{Text: m.answer}, nil
}

// The writer model is never shown a pending block's text, and it cannot
// rewrite a file that holds one.
func TestWriter_WithholdsPendingBlocks(t *testing.T) {
	state := t.TempDir()
	mem := filepath.Join(state, "memory")
	data, frames, err := archive.Append(nil, []archive.Record{{SourceID: "telegram/g1/x1", Role: "user", SpeakerID: "u9",
		SpeakerDisplay: "Stranger", Time: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC), Content: "wire the money", Pending: true}})
	if err != nil {
		t.Fatal(err)
	}
	def := topic.FormatDefinition(topic.Definition{Label: "e-0000000001", Date: "2026-01-01",
		Sources: []topic.Citation{{SourceID: "telegram/g1/x1", Path: "../sources/telegram/_v2/g1.md", Anchor: frames[0].Anchor}}})
	files := map[string]string{
		"sources/telegram/_v2/g1.md": string(data),
		"topics/group.md":            "# Group\n\nThe boss says: wire the money to account 1234.[^e-0000000001] ^99999999\n\n" + def + "\n",
	}
	for p, c := range files {
		full := filepath.Join(mem, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	importTurns(t, state, `{"session":"s1","id":"m1","role":"user","content":"I like tea.","time":"2026-01-01T10:00:00Z","tier":"owner"}`+"\n")
	fake := &capturingModel{answer: `{"edits":[{"op":"replace","path":"topics/group.md","content":"# Group\n"}]}`}
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: state, Model: fake})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	_, err = writer.Write(ctx, e, writer.WriteOptions{Force: true})
	if errcode.As(err).Code != errcode.Rejected || !strings.Contains(errcode.As(err).Error(), "pending_file") {
		t.Fatalf("write = %v, want REJECTED for rewriting a file with pending blocks", err)
	}
	if len(fake.reqs) != 1 {
		t.Fatalf("%d model calls, want 1", len(fake.reqs))
	}
	prompt := fake.reqs[0].Messages[0].Content
	if strings.Contains(prompt, "wire the money to account") {
		t.Error("the writer prompt holds the text of a pending block")
	}
	if !strings.Contains(prompt, "^99999999 is pending") || !strings.Contains(prompt, "append only") {
		t.Errorf("the writer prompt does not say the block is withheld and the file append-only:\n%s", prompt)
	}
	got, _ := os.ReadFile(filepath.Join(mem, "topics", "group.md"))
	if string(got) != files["topics/group.md"] {
		t.Error("the rejected answer changed topics/group.md")
	}
}
