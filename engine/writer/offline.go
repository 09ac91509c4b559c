package writer

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
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
}

// offlineEdits is the built-in deterministic writer: each record becomes
// one cited block in a topic chosen by speaker (people/<name>.md) or, for
// speakerless records, by thread (threads/<provider>-<thread>.md). The
// result is a valid transaction without any network.
func offlineEdits(e *engine.Engine, v *engine.View, recs []distillRecord) []engine.Edit {
	type pending struct {
		title string
		parts []string
	}
	byPath := map[string]*pending{}
	var order []string
	used := takenIDs{taken: e.BlockIDTaken(v), batch: map[string]bool{}}
	for _, r := range recs {
		text := topic.BlockSafe(r.Content)
		if text == "" {
			continue
		}
		// "yesterday" means a day only next to when it was said: the block
		// keeps that day, "yesterday (2026-03-04)", for readers and search.
		if t, err := time.Parse(time.RFC3339, r.Time); err == nil {
			text = topic.BlockSafe(index.AnnotateDates(r.Content, t))
		}
		p, title := offlineTopicFor(r)
		if byPath[p] == nil {
			byPath[p] = &pending{title: title}
			order = append(order, p)
		}
		id := uniqueBlockID(used, "block:"+r.Ref)
		label := topic.NewFootnoteLabel("footnote:" + r.Ref)
		date := r.Time
		if len(date) >= 10 {
			date = date[:10]
		}
		who := r.Label
		if who == "" {
			who = r.Role
		}
		block := fmt.Sprintf("%s: %s[^%s] ^%s", who, text, label, id)
		def := topic.FormatDefinition(topic.Definition{Label: label, Date: date,
			Sources: []topic.Citation{{SourceID: r.Ref, Path: topic.RelPath(p, r.Path), Anchor: r.Anchor}}})
		byPath[p].parts = append(byPath[p].parts, block, def)
	}
	sort.Strings(order)
	var edits []engine.Edit
	for _, p := range order {
		pd := byPath[p]
		body := strings.Join(pd.parts, "\n\n") + "\n"
		if _, _, exists := v.Topic(p); exists {
			edits = append(edits, engine.Edit{Op: "append", Path: p, Content: &body})
			continue
		}
		content := "# " + pd.title + "\n\n" + body
		edits = append(edits, engine.Edit{Op: "create", Path: p, Content: &content})
	}
	return edits
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
	edits, err := w.distillEdits(ctx, v, recs)
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
func (w *writer) distillEdits(ctx context.Context, v *engine.View, recs []distillRecord) ([]engine.Edit, error) {
	m, err := w.modelFor("")
	if err != nil {
		return nil, err
	}
	if m == nil {
		return offlineEdits(w.e, v, recs), nil
	}
	return w.modelEdits(ctx, m, v, recs)
}
