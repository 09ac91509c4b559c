package writer

import (
	"context"
	"fmt"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/engine/writer/distill"
	"scriptorium/trust"
	"scriptorium/workspace/topic"
)

// distillRecord is one source record to turn into memory.
type distillRecord struct {
	Ref, Path, Anchor string // source-id, archive path, anchor
	Time              string // RFC 3339
	Label             string // record label (speaker label or role)
	SpeakerID         string
	SpeakerDisplay    string
	Role              string
	Thread            string // "<provider>/<thread>"
	Content           string
	// Owner: the owner said it (the owner's tier); a speakerless user is
	// the owner without it. Group: a group chat. Project and Title are the
	// session's working directory and name, "" when unknown.
	Owner, Group   bool
	Project, Title string
}

// offlineEdits is the built-in writer (issue 22 §1), deterministic and
// without a network: the records of each thread are one session for
// distill.DistilAll, whose facts and summary are filed where
// distill.TopicFor puts them and merged against the blocks of those files
// (filer): a restatement cites its turn on the block already there, a
// changed value replaces the block's text, a new fact is a new block under
// its theme. A record that yields no fact is archived and its turn marked
// written like any other: it is consumed, not copied.
//
// kind is the install's: a "write" batch's session summary replaces the
// one in memory (a later batch says how the session ended). Promotion and
// backfill see only some turns of a session: their summary is added only
// where the session has none, else the one in memory cites their turns.
// A promoted turn the distiller finds nothing in is kept in its speaker's
// words (distill.Quoted): the owner chose to keep it.
func (w *writer) offlineEdits(v *engine.View, recs []distillRecord, kind, owner string) []result.Edit {
	replaceSummary := kind == "write"
	f := newFiler(w.e, v)
	if w.merger == nil {
		w.merger = distill.NewMerger()
	}
	f.merger = w.merger
	byRef := map[string]distillRecord{}
	byThread := map[string][]distillRecord{}
	var threads []string
	for _, r := range recs {
		byRef[r.Ref] = r
		if byThread[r.Thread] == nil {
			threads = append(threads, r.Thread)
		}
		byThread[r.Thread] = append(byThread[r.Thread], r)
	}
	// The batch's turns are archived by the same install: their archive
	// path and anchor come from the records.
	archived := f.source
	f.source = func(ref string) (string, string, string, bool) {
		if r, ok := byRef[ref]; ok {
			return r.Path, r.Anchor, r.Time, true
		}
		return archived(ref)
	}
	for _, th := range threads {
		s := sessionOf(th, byThread[th], owner)
		s.Project = f.projectRoot(s.Project)
		var earlier []distill.Turn
		var prior distill.Block
		hasPrior := false
		if replaceSummary {
			if prior, hasPrior = w.sessionSummary(v, th); hasPrior {
				earlier = earlierTurns(v, th, prior, byRef, owner)
			}
		}
		facts, summary := distill.DistilAllAfter(s, earlier)
		if summary.Text != "" && (hasPrior || replaceSummary) {
			summary.Path = threadPath(v, f.files, s, prior.Path)
		}
		if kind == "promote" {
			quoted := quotedUncited(s, facts)
			if len(facts) == 0 && len(quoted) > 0 {
				// The distiller kept no fact: its thread block would quote
				// a turn the quoted block keeps whole. One block says it.
				summary = distill.Fact{}
			}
			facts = append(facts, quoted...)
		}
		if summary.Text != "" {
			if !replaceSummary {
				// No marker says these turns were read: the summary cites
				// them all, so backfill does not come back to them.
				summary.Cites = nil
				for _, r := range byThread[th] {
					summary.Cites = append(summary.Cites, r.Ref)
				}
			}
			facts = append(facts, summary)
			f.titles[summary.Path] = threadTitle(s, summary)
		}
		for _, a := range f.merge(facts) {
			if a.Op == distill.OpReplace && !replaceSummary && a.Facts[len(a.Facts)-1].Kind == distill.KindSummary {
				// Some turns of a session are no better summary than all
				// of them: the one in memory stays and cites these too.
				a.Op, a.Text = distill.OpCite, ""
			}
			seed := "write:"
			if len(a.Cites) > 0 {
				seed += a.Cites[0] + ":"
			}
			id := f.apply(a, "", seed)
			if last := a.Facts[len(a.Facts)-1]; last.Kind == distill.KindSummary && replaceSummary {
				w.noteSummary(th, distill.Block{ID: id, Path: a.Path, Heading: a.Heading, Text: a.Text, Cites: a.Cites})
			}
			if a.Op != distill.OpCite && coreFact(a) {
				w.core = append(w.core, coreBlock{path: a.Path, id: id})
			}
		}
	}
	return f.edits()
}

// threadTitle heads a session's thread file: the chat's title, else who
// or what it was about and the day it started ("Ledgerline, 2025-03-03").
func threadTitle(s distill.Session, summary distill.Fact) string {
	if s.Title != "" {
		return s.Title
	}
	title := summary.Subject
	if len(s.Turns) > 0 && !s.Turns[0].Time.IsZero() {
		title += ", " + s.Turns[0].Time.UTC().Format(time.DateOnly)
	}
	return title
}

// quotedUncited are the turns of s that no fact cites, in their
// speakers' words.
func quotedUncited(s distill.Session, facts []distill.Fact) []distill.Fact {
	cited := map[string]bool{}
	for _, f := range facts {
		for _, r := range f.Cites {
			cited[r] = true
		}
	}
	var out []distill.Fact
	for _, t := range s.Turns {
		if q, ok := distill.Quoted(s, t.Ref); ok && !cited[t.Ref] {
			out = append(out, q)
		}
	}
	return out
}

// coreFact reports whether an action's text is an owner's standing
// preference or instruction: a candidate for topics/core.md.
func coreFact(a distill.Action) bool {
	for _, ft := range a.Facts {
		if ft.Core && ft.Text == a.Text {
			return true
		}
	}
	return false
}

// takenIDs is the block ids a batch may not hand out: the workspace's
// (looked up, not collected) and the ones the batch handed out already.
type takenIDs struct {
	taken func(string) bool
	batch map[string]bool
}

func (t takenIDs) has(id string) bool { return t.batch[id] || t.taken(id) }

// uniqueBlockID derives a block id from the source-id, re-hashing in the
// rare case the id is taken, so ids stay unique across the workspace. The
// id is added to used, so one batch never hands out an id twice.
func uniqueBlockID(used takenIDs, seed string) string {
	id := topic.NewBlockID(seed)
	for i := 1; used.has(id); i++ {
		id = topic.NewBlockID(fmt.Sprintf("%s#%d", seed, i))
	}
	used.batch[id] = true
	return id
}

func offlineTopicFor(r distillRecord) (path, title string) {
	if r.SpeakerID != "" || r.SpeakerDisplay != "" {
		name := r.SpeakerDisplay
		if name == "" {
			name = r.SpeakerID
		}
		if slug := topic.Slug(name); slug != "" {
			return "topics/people/" + slug + ".md", name
		}
	}
	slug := topic.Slug(strings.ReplaceAll(r.Thread, "/", "-"))
	if slug == "" {
		slug = "misc"
	}
	return "topics/threads/" + slug + ".md", "Thread " + r.Thread
}

// Distiller is the writer's distiller for the core's promotion: the
// configured model, or the offline one, turns promoted sources into cited
// blocks in one install.
type Distiller struct{}

// Distill implements engine.Distiller.
func (Distiller) Distill(ctx context.Context, tx *engine.Tx, v *engine.View, refs []string, kind string) ([]string, error) {
	return newWriter(tx.Engine()).distill(ctx, tx, v, refs, kind)
}

// distill distils sources into topics through one transaction of the
// given history kind, inside tx.
func (w *writer) distill(ctx context.Context, tx *engine.Tx, v *engine.View, refs []string, kind string) ([]string, error) {
	var recs []distillRecord
	for _, ref := range refs {
		src, ok := v.Source(ref)
		if !ok || src.Pending {
			continue
		}
		recs = append(recs, recordOf(src))
	}
	edits, err := w.distillEdits(ctx, v, recs, kind)
	if err != nil {
		return nil, err
	}
	if len(edits) == 0 {
		return []string{}, nil
	}
	if _, err := tx.Install(ctx, engine.Change{Kind: kind, Actor: trust.Owner, Edits: edits}); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		if topic.BlockSafe(r.Content) != "" {
			out = append(out, r.Ref)
		}
	}
	return out, nil
}

func recordOf(src result.Source) distillRecord {
	v := src.SourceView
	role := v.Label
	if v.SpeakerLabel != "" {
		role = "user"
	}
	// Only a v2 speaker-id marker is an identity. A legacy record's
	// "[display (id)]" hint was parsed out of message text: the writer gets
	// the record speakerless, so text can never name who spoke (SPEC §3.3).
	speakerID, speakerDisplay := v.SpeakerID, v.SpeakerDisplay
	if !v.SpeakerTrusted {
		speakerID, speakerDisplay = "", ""
	}
	return distillRecord{Ref: v.Ref, Path: v.Path, Anchor: v.Anchor, Time: v.Time, Label: v.Label,
		SpeakerID: speakerID, SpeakerDisplay: speakerDisplay, Role: role,
		Thread: src.Thread, Content: v.Content}
}

// distillEdits asks the configured model for edits (the offline model
// when none is configured).
func (w *writer) distillEdits(ctx context.Context, v *engine.View, recs []distillRecord, kind string) ([]result.Edit, error) {
	m, err := w.modelFor("")
	if err != nil {
		return nil, err
	}
	owner := w.ownerName(ctx, nil)
	if m == nil {
		if w.turnBlocks != nil {
			return w.turnBlocks(w.e, v, recs), nil
		}
		return w.offlineEdits(v, recs, kind, owner), nil
	}
	return w.modelEdits(ctx, m, v, recs, owner)
}
