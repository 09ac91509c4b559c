package backend

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/fence"
	"scriptorium/engine/result"
	"scriptorium/engine/writer"
	"scriptorium/errcode"
)

// Backend is the contract between memory and an agent runtime. The agent
// loop, tools and UIs name no implementation; they call a Backend. One verb
// per action, named the same on both sides.
type Backend interface {
	// Name identifies the implementation.
	Name() string
	// SystemPrompt returns core.md fenced once in <memory-context>, for the
	// start of every session; "" when there is nothing to say.
	SystemPrompt(ctx context.Context) (string, error)
	// Recall returns the top trusted hits for a user's message, fenced once.
	Recall(ctx context.Context, message string) (string, error)
	// OnTurn is called after every turn: it writes only when the session's
	// pending turns reach the threshold, and is silent otherwise.
	OnTurn(ctx context.Context, session string) error
	// OnSessionEnd writes everything the session still owes.
	OnSessionEnd(ctx context.Context, session string) error
	// ExtractBeforeDiscard is asked by a compactor about messages it is
	// about to drop: it returns remembered facts worth keeping in the
	// summary. It stores nothing.
	ExtractBeforeDiscard(ctx context.Context, messages []string) (string, error)
	// Status reports the memory's state.
	Status(ctx context.Context) (result.Status, error)
}

// Local is the Backend of an embedded engine.
type Local struct{ e *engine.Engine }

// NewLocal returns the Backend of an open engine.
func NewLocal(e *engine.Engine) *Local { return &Local{e: e} }

// Name implements Backend.
func (l *Local) Name() string { return "local" }

// SystemPrompt implements Backend: it reads the rendered core.md.
func (l *Local) SystemPrompt(ctx context.Context) (string, error) {
	data, err := os.ReadFile(filepath.Join(l.e.Root(), "core.md"))
	if err != nil && !os.IsNotExist(err) {
		return "", errcode.Wrap(errcode.IO, err, "read core.md")
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", nil
	}
	return fence.Memory(string(data)), nil
}

// OnTurn implements Backend.
func (l *Local) OnTurn(ctx context.Context, session string) error {
	_, err := writer.Write(ctx, l.e, writer.WriteOptions{Session: session})
	return err
}

// OnSessionEnd implements Backend.
func (l *Local) OnSessionEnd(ctx context.Context, session string) error {
	_, err := writer.Write(ctx, l.e, writer.WriteOptions{Session: session, Force: true})
	return err
}

// ExtractBeforeDiscard implements Backend: the trusted topic blocks that
// match the discarded messages, one per line, unfenced because the caller
// folds them into its own summary.
func (l *Local) ExtractBeforeDiscard(ctx context.Context, messages []string) (string, error) {
	text := strings.Join(messages, "\n")
	if r := []rune(text); len(r) > 1000 {
		text = string(r[len(r)-1000:])
	}
	if strings.TrimSpace(text) == "" {
		return "", nil
	}
	res, err := l.e.Search(ctx, result.SearchQuery{Text: text, Limit: 5})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, r := range res {
		if r.Kind == "topic" {
			b.WriteString("- " + strings.Join(strings.Fields(r.Snippet), " ") + "\n")
		}
	}
	return b.String(), nil
}

// Status implements Backend.
func (l *Local) Status(ctx context.Context) (result.Status, error) { return l.e.Status(ctx) }
