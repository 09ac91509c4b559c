package writer

import (
	"fmt"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/writer/distill"
)

// A session's thread block says what the whole session was about and how
// it ended, but a write sees one batch of it: a long session, or one that
// went on after it was written, comes in several. Each later batch's
// summary is made over the turns the session's summary in memory cites
// and the batch's own (distill.DistilAllAfter), and stays in that block's
// file, so the session keeps one thread block in one file.

// sessionSummary finds the summary block in memory of thread
// ("<provider>/<thread>") in v: the run's index of thread summaries is
// read from the thread files once, then kept up to date by the run's own
// writes. ok is false when the session has none (or it is gone from v).
func (w *writer) sessionSummary(v *engine.View, thread string) (distill.Block, bool) {
	if w.summaries == nil {
		// Only each block's first citation is read here (a thread block's
		// slot is its session's, distill.Block.Slot): thousands of thread
		// files cost a map walk each, not their texts.
		w.summaries = map[string]distill.Block{}
		for _, p := range v.TopicPaths() {
			if !strings.HasPrefix(p, "topics/threads/") {
				continue
			}
			_, file, _ := v.Topic(p)
			defs := file.Definitions()
			for _, el := range file.Blocks() {
				if len(el.Refs) == 0 {
					continue
				}
				d, ok := defs[el.Refs[0].Label]
				if !ok || len(d.Sources) == 0 {
					continue
				}
				b := distill.Block{ID: el.BlockID, Path: p, Cites: []string{d.Sources[0].SourceID}}
				if key, ok := strings.CutPrefix(b.Slot(), "summary:"); ok {
					w.summaries[key] = b
				}
			}
		}
	}
	b, ok := w.summaries[thread]
	if !ok {
		return distill.Block{}, false
	}
	// The index can be stale (an install that failed, a forget since):
	// the block must be in v as the index has it.
	_, file, found := v.Topic(b.Path)
	if !found {
		return distill.Block{}, false
	}
	for _, cur := range blocksOf(b.Path, file, nil) {
		if cur.ID == b.ID {
			return cur, true
		}
	}
	return distill.Block{}, false
}

// earlierTurns are the turns a session's summary block cites that are not
// in this batch, as the distiller reads them.
func earlierTurns(v *engine.View, thread string, sum distill.Block, inBatch map[string]distillRecord, owner string) []distill.Turn {
	var recs []distillRecord
	for _, ref := range sum.Cites {
		if _, ok := inBatch[ref]; ok {
			continue
		}
		if src, ok := v.Source(ref); ok && !src.Pending {
			recs = append(recs, recordOf(src))
		}
	}
	return sessionOf(thread, recs, owner).Turns
}

// noteSummary records where a session's summary block is after this run
// wrote it.
func (w *writer) noteSummary(thread string, b distill.Block) {
	if w.summaries != nil {
		w.summaries[thread] = b
	}
}

// threadPath is the thread file of session s: prior, the file its
// summary block is in already ("" when it has none), so a session keeps
// one file; else the file distill.ThreadName names, and for a session
// titled like another ("New chat") whose file holds that name in v or
// among the files being written, the title with the session's day
// (freeThreadPath). The offline writer, the model writer's prompt and
// Redistill all name a session's file with it, so one session is never
// filed in another's file because they share a title.
func threadPath(v *engine.View, writing map[string]*topicEdit, s distill.Session, prior string) string {
	if prior != "" {
		return prior
	}
	p := "topics/threads/" + distill.ThreadName(s) + ".md"
	if s.Title == "" {
		// An untitled session's name holds when it started already.
		return p
	}
	return freeThreadPath(v, writing, p, s)
}

// freeThreadPath is the thread file of a new session titled like another
// ("New chat"): p when no file holds it yet, else the title with the
// session's day, then its day and time, then a number. Each is readable
// and none is an id.
func freeThreadPath(v *engine.View, writing map[string]*topicEdit, p string, s distill.Session) string {
	taken := func(p string) bool {
		_, _, ok := v.Topic(p)
		return ok || writing[p] != nil
	}
	if !taken(p) {
		return p
	}
	base := strings.TrimSuffix(p, ".md")
	var start time.Time
	for _, t := range s.Turns {
		if !t.Time.IsZero() {
			start = t.Time.UTC()
			break
		}
	}
	var tries []string
	if !start.IsZero() {
		tries = append(tries, base+"-"+start.Format("2006-01-02"), base+"-"+start.Format("2006-01-02-1504"))
	}
	for _, c := range tries {
		if !taken(c + ".md") {
			return c + ".md"
		}
	}
	if len(tries) > 0 {
		base = tries[len(tries)-1]
	}
	for i := 2; ; i++ {
		if c := fmt.Sprintf("%s-%d.md", base, i); !taken(c) {
			return c
		}
	}
}
