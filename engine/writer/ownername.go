package writer

import (
	"context"
	"regexp"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer/distill"
	"scriptorium/errcode"
)

// The owner's name (issue 22): a ChatGPT, Claude Code or CLI session has
// no speaker, and without a name the distiller calls its user "the owner"
// and files their facts in topics/people/owner.md, apart from what the
// same person said in a named chat (people/<name>.md). Every writer run
// (write, promotion, backfill, redistill, the model writer) calls the
// owner by one name, so the owner's memory is in one file.

// Where an owner name came from.
const (
	OwnerNameConfig  = "config"  // config.toml's [owner] name
	OwnerNameLearned = "learned" // the owner's own named turns in sessions.db
	OwnerNameNone    = "none"    // neither: "the owner"
)

// OwnerNameResult is what the writer calls the owner, and why.
type OwnerNameResult struct {
	// Name is "" when nothing names the owner (the writer says "the owner").
	Name   string `json:"name"`
	Source string `json:"source"`
	// Learned are the display names the owner's own turns carry, most
	// turns first: the first is the learned name.
	Learned []OwnerNameCount `json:"learned"`
	// File is the topic file the owner's facts are filed in:
	// topics/people/<name>.md, or UnnamedOwnerFile without a name.
	File string `json:"file"`
}

// UnnamedOwnerFile is where the writer files the facts of an owner
// nothing names ("the owner").
const UnnamedOwnerFile = "topics/people/owner.md"

// OwnerNameCount is a display name of the owner and how many of the
// owner's turns carry it.
type OwnerNameCount struct {
	Name  string `json:"name"`
	Turns int    `json:"turns"`
}

// OwnerName says what the writer calls the owner: config.toml's [owner]
// name when set; else the display name the owner's own turns carry most
// often (turns of the owner's tier, as import --owner named them: never a
// paired or pending sender's name), the first in name order on a tie;
// else none.
func OwnerName(ctx context.Context, e *engine.Engine) (OwnerNameResult, error) {
	res := OwnerNameResult{Source: OwnerNameNone, Learned: []OwnerNameCount{}}
	w := newWriter(e)
	if fileExists(w.sessionsPath()) {
		st, err := w.sessionStore()
		if err != nil {
			return res, err
		}
		defer st.Close()
		names, err := st.OwnerNames(ctx)
		if err != nil {
			return res, errcode.Wrap(errcode.IO, err, "sessions.db")
		}
		for _, n := range names {
			res.Learned = append(res.Learned, OwnerNameCount{Name: n.Name, Turns: n.Turns})
		}
	}
	switch {
	case e.Config().Owner.Name != "":
		res.Name, res.Source = e.Config().Owner.Name, OwnerNameConfig
	case len(res.Learned) > 0:
		res.Name, res.Source = res.Learned[0].Name, OwnerNameLearned
	}
	res.File, _ = distill.TopicFor(distill.Fact{Subject: res.Name}, distill.Session{OwnerName: res.Name})
	if res.Name == "" {
		res.File = UnnamedOwnerFile
	}
	return res, nil
}

// ownerName is the run's name for the owner (OwnerName), read once; ""
// when nothing names the owner. A sessions.db it cannot read leaves the
// name unlearned rather than failing the write: the configured name still
// holds.
func (w *writer) ownerName(ctx context.Context, store *sessions.Store) string {
	if w.owner != nil {
		return *w.owner
	}
	name := w.e.Config().Owner.Name
	if name == "" {
		if store == nil && fileExists(w.sessionsPath()) {
			if st, err := w.sessionStore(); err == nil {
				defer st.Close()
				store = st
			}
		}
		if store != nil {
			if names, err := store.OwnerNames(ctx); err == nil && len(names) > 0 {
				name = names[0].Name
			}
		}
	}
	w.owner = &name
	return name
}

// theOwner is how the distiller calls a speakerless owner when nothing
// names them (distill.DefaultOwnerName), at a sentence's start or within.
var theOwner = regexp.MustCompile(`\b[Tt]he owner\b`)

// OwnerWording returns the rewrite of a block the writer wrote about "the
// owner" into one about name ("The owner prefers tea." becomes "Sigrid
// prefers tea."), for moving people/owner.md into the owner's name's
// file. Words inside quotes are the speaker's, and stay as they were
// said.
func OwnerWording(name string) func(string) string {
	return func(text string) string {
		var b strings.Builder
		quoted := false
		start := 0
		flush := func(end int) {
			part := text[start:end]
			if !quoted {
				part = theOwner.ReplaceAllLiteralString(part, name)
			}
			b.WriteString(part)
		}
		for i, r := range text {
			if r == '"' || r == '“' || r == '”' {
				flush(i)
				start = i
				quoted = r == '“' || r == '"' && !quoted
			}
		}
		flush(len(text))
		return b.String()
	}
}
