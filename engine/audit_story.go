package engine

import (
	"slices"
	"strings"

	"scriptorium/trust"
)

// SourceStory is where one source stands now, for `audit --source`.
type SourceStory struct {
	Ref            string `json:"ref"`
	Path           string `json:"path"`
	Anchor         string `json:"anchor"`
	Time           string `json:"time"`
	SpeakerLabel   string `json:"speaker_label"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerTrusted bool   `json:"speaker_trusted"` // the speaker's identity, not the record's trust
	Trust          string `json:"trust"`           // the record: "trusted" or "pending"
	// State says why: "trusted" (never pending), "promoted", "pending"
	// (awaiting review), "rejected" (pending, out of the queue), "forgotten"
	// (a tombstone: the owner forgot it) or "missing" (no archive holds it).
	State   string     `json:"state"`
	Reason  string     `json:"reason,omitempty"` // the rejection's reason
	CitedBy []BlockRef `json:"cited_by"`
}

// BlockRef names a topic block.
type BlockRef struct {
	Path  string `json:"path"`
	Block string `json:"block"` // 8 hex digits, no ^
}

// sourceStory turns the entries that concern source id into its story,
// and says where it stands. The install that archived it becomes its
// "received" entry; when history holds none (a record written before
// history was kept, or by hand) the entry stands at the record's time with
// revision 0.
func sourceStory(s *snapshot, all []AuditEntry, rejected map[string]trust.Rejection, id string) ([]AuditEntry, *SourceStory) {
	src, present := s.sources[id]
	var out []AuditEntry
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
				en.Detail = "archived by a " + en.Kind + " install" + pendingNote(src)
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
		out = append(out, AuditEntry{Time: src.view.Time, Kind: "received", Actor: "", Sources: []string{id},
			Changed: []string{}, Detail: "archived in " + src.view.Path + "#" + src.view.Anchor +
				"; no recorded install archived it (written before history was kept, or by hand)" + pendingNote(src)})
	}
	st := &SourceStory{Ref: id, State: "missing", CitedBy: s.citingBlocks(id)}
	if !present {
		return out, st
	}
	v := src.view
	st.Path, st.Anchor, st.Time, st.Trust = v.Path, v.Anchor, v.Time, v.Trust
	st.SpeakerLabel, st.SpeakerID, st.SpeakerTrusted = v.SpeakerLabel, v.SpeakerID, v.SpeakerTrusted
	r, isRejected := rejected[id]
	switch {
	case v.Forgotten:
		st.State = "forgotten"
	case src.pending() && isRejected:
		st.State, st.Reason = "rejected", r.Reason
	case src.pending():
		st.State = "pending"
	case s.promoted[id]:
		st.State = "promoted"
	default:
		st.State = "trusted"
	}
	return out, st
}

func pendingNote(src *sourceEntry) string {
	if src != nil && src.framePending {
		return "; it arrived pending review (unpaired sender)"
	}
	return ""
}

// citingFiles lists the topic files whose diff adds a line naming id: the
// footnote definitions that cite it.
func citingFiles(diffs []FileDiff, id string) []string {
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
func (s *snapshot) citingBlocks(id string) []BlockRef {
	out := []BlockRef{}
	for _, p := range s.topicPaths {
		tf := s.topics[p]
		defs := tf.file.Definitions()
		for _, b := range tf.file.Blocks() {
			cites := false
			for _, r := range b.Refs {
				for _, c := range defs[r.Label].Sources {
					cites = cites || c.SourceID == id
				}
			}
			if cites {
				out = append(out, BlockRef{Path: p, Block: b.BlockID})
			}
		}
	}
	return out
}
