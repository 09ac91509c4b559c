package forget

import (
	"errors"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
)

const coreTopicPath = "topics/core.md"

// forgetPlan is everything one forget removes, worked out on a view.
type forgetPlan struct {
	sel       result.ForgetSelector
	ids       map[string]bool          // source-ids forgotten
	targets   []result.Source          // every record of those ids, v2 and legacy
	archives  map[string][]byte        // new archive bytes (engine.ForgetArchives)
	removed   []result.ForgottenRecord // what the archives lost, with hashes
	edits     []result.Edit            // topic edits
	blocks    []string                 // block ids removed
	labels    []string                 // footnote labels removed
	citations int                      // citations dropped from definitions that stay
	nodes     []sessions.Node          // sessions.db nodes to blank
	needles   needles
}

func (fp *forgetPlan) sourceIDs() []string {
	out := make([]string, 0, len(fp.ids))
	for id := range fp.ids {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func (fp *forgetPlan) record(now time.Time) *record {
	return &record{Selector: fp.sel, Time: now, Actor: "owner", Records: fp.removed,
		Blocks: nonNil(fp.blocks), Labels: nonNil(fp.labels)}
}

// planForget selects the records, rewrites the archives (the core's
// rewrite) and topics, and finds the sessions.db nodes.
func planForget(e *engine.Engine, v *engine.View, sel result.ForgetSelector) (*forgetPlan, error) {
	fp := &forgetPlan{sel: sel, ids: map[string]bool{}}
	found := fp.selectRecords(v)
	nodes, err := forgetNodes(e, sel)
	if err != nil {
		return nil, err
	}
	fp.nodes = nodes
	for _, n := range nodes {
		found[n.SourceID()] = true
	}
	var unknown []string
	for _, id := range sel.Sources {
		if !found[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		return nil, errcode.Errorf(errcode.NotFound, "no archived record or stored turn has source-id %s", strings.Join(unknown, ", "))
	}
	if len(fp.targets) == 0 && len(fp.nodes) == 0 {
		why := "nothing to forget"
		if len(found) > 0 {
			why = "everything it selects is forgotten already"
		}
		return nil, errcode.Errorf(errcode.InvalidArgument, "forget %s: %s", sel, why)
	}
	fp.archives, fp.removed = engine.ForgetArchives(v, fp.ids)
	fp.rewriteTopics(v)
	fp.needles = fp.collectNeedles(v)
	return fp, nil
}

// selectRecords fills fp.ids and fp.targets and returns every source-id
// the selection names that exists, forgotten already or not.
func (fp *forgetPlan) selectRecords(v *engine.View) map[string]bool {
	sel := fp.sel
	want := map[string]bool{}
	for _, id := range sel.Sources {
		want[id] = true
	}
	found := map[string]bool{}
	hit := func(src result.Source) bool {
		switch {
		case len(want) > 0:
			return want[src.Ref]
		case sel.Speaker != "":
			return !src.Legacy && src.SpeakerTrusted && src.SpeakerID == sel.Speaker
		}
		p, t, _, err := archive.ParseSourceID(src.Ref)
		return src.Thread == sel.Thread || (err == nil && p+"/"+t == sel.Thread)
	}
	all := v.ArchiveRecords()
	for _, src := range all {
		if hit(src) {
			found[src.Ref] = true
			if !src.Forgotten {
				fp.ids[src.Ref] = true
			}
		}
	}
	// Every copy of a selected record goes: a legacy record shadowed by its
	// v2 frame holds the same text.
	for _, src := range all {
		if fp.ids[src.Ref] && !src.Forgotten {
			fp.targets = append(fp.targets, src)
		}
	}
	return found
}

// forgetNodes lists the sessions.db nodes the selection blanks; a missing
// sessions.db holds none (and is not created).
func forgetNodes(e *engine.Engine, sel result.ForgetSelector) ([]sessions.Node, error) {
	path := workspace.SessionsDB(e.StateDir())
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	st, err := sessions.Open(path, nil)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "open sessions.db")
	}
	defer st.Close()
	nodes, err := st.Forgettable(sessionSelector(sel))
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "read sessions.db")
	}
	return nodes, nil
}

func sessionSelector(sel result.ForgetSelector) sessions.Selector {
	return sessions.Selector{SourceIDs: sel.Sources, SpeakerID: sel.Speaker, Thread: sel.Thread}
}
