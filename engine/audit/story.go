package audit

import (
	"slices"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/result"

	"scriptorium/trust"
)

// sourceStory turns the entries that concern source id into its story,
// and says where it stands. The install that archived it becomes its
// "received" entry; when history holds none (a record written before
// history was kept, or by hand) the entry stands at the record's time with
// revision 0.
func sourceStory(v *engine.View, all []result.AuditEntry, rejected map[string]trust.Rejection, id string) ([]result.AuditEntry, *result.SourceStory) {
	src, present := v.Source(id)
	var out []result.AuditEntry
	received := false
	for _, en := range all {
		if !slices.Contains(en.Sources, id) {
			continue
		}
		if en.Revision > 0 {
			cited := citingFiles(en.Diffs, id)
			switch {
			case slices.Contains(archivedInDiffs(en.Diffs), id):
				received = true
				en.Detail = "archived by a " + en.Kind + " install" + pendingNote(src, present)
				en.Kind = "received"
			case en.Kind == "promote":
			default:
				en.Detail = "concerns it: " + en.Detail
			}
			if len(cited) > 0 {
				en.Detail += "; cited in " + strings.Join(cited, ", ")
			}
		}
		out = append(out, en)
	}
	if !received && present {
		out = append(out, result.AuditEntry{Time: src.Time, Kind: "received", Actor: "", Sources: []string{id},
			Changed: []string{}, Detail: "archived in " + src.Path + "#" + src.Anchor +
				"; no recorded install archived it (written before history was kept, or by hand)" + pendingNote(src, present)})
	}
	st := &result.SourceStory{Ref: id, State: "missing", CitedBy: citingBlocks(v, id)}
	if !present {
		return out, st
	}
	st.Path, st.Anchor, st.Time, st.Trust = src.Path, src.Anchor, src.Time, src.Trust
	st.SpeakerLabel, st.SpeakerID, st.SpeakerTrusted = src.SpeakerLabel, src.SpeakerID, src.SpeakerTrusted
	r, isRejected := rejected[id]
	switch {
	case src.Forgotten:
		st.State = "forgotten"
	case src.Pending && isRejected:
		st.State, st.Reason = "rejected", r.Reason
	case src.Pending:
		st.State = "pending"
	case src.Promoted:
		st.State = "promoted"
	default:
		st.State = "trusted"
	}
	return out, st
}

func pendingNote(src result.Source, present bool) string {
	if present && src.ArrivedPending {
		return "; it arrived pending review (unpaired sender)"
	}
	return ""
}

// citingFiles lists the topic files whose diff adds a line naming id: the
// footnote definitions that cite it.
func citingFiles(diffs []result.FileDiff, id string) []string {
	var out []string
	for _, d := range diffs {
		if !strings.HasPrefix(d.Path, "topics/") {
			continue
		}
		for _, l := range strings.Split(d.Diff, "\n") {
			if strings.HasPrefix(l, "+") && strings.Contains(l, "["+id+"]") {
				out = append(out, d.Path)
				break
			}
		}
	}
	return out
}

// citingBlocks lists the blocks whose footnotes cite source id, in file
// order. Never nil.
func citingBlocks(v *engine.View, id string) []result.BlockRef {
	out := []result.BlockRef{}
	for _, p := range v.TopicPaths() {
		_, f, ok := v.Topic(p)
		if !ok || f == nil {
			continue
		}
		defs := f.Definitions()
		for _, b := range f.Blocks() {
			cites := false
			for _, r := range b.Refs {
				for _, c := range defs[r.Label].Sources {
					cites = cites || c.SourceID == id
				}
			}
			if cites {
				out = append(out, result.BlockRef{Path: p, Block: b.BlockID})
			}
		}
	}
	return out
}
