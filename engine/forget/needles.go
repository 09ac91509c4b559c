package forget

import (
	"strings"

	"scriptorium/engine"
	"scriptorium/workspace/topic"
)

// needles is what marks a stored copy of forgotten content.
type needles struct {
	// text is the content itself: record texts and contents, their block-
	// safe summaries, the text of removed blocks. Known only while the
	// forget runs.
	text []string
	// marks are ids only a copy of the content carries: citations of the
	// forgotten source-ids, their frame comments, the removed block ids and
	// footnote labels. They come from the ledger, so recovery has them.
	marks []string
	// ids are the forgotten source-ids themselves: too common to mark a
	// copy in state.db, but a runtime log or status line naming one is
	// about the forgotten record (scrubRuntime).
	ids []string
}

// minNeedle is the shortest text worth looking for: shorter strings match
// unrelated rows and would scrub them for nothing.
const minNeedle = 8

func (n *needles) addText(s string) {
	s = strings.TrimSpace(s)
	if len(s) >= minNeedle {
		n.text = append(n.text, s)
	}
}

// hit reports whether s holds a needle.
func (n needles) hit(s string) bool {
	for _, list := range [][]string{n.marks, n.text} {
		for _, x := range list {
			if strings.Contains(s, x) {
				return true
			}
		}
	}
	return false
}

func (n needles) hitBytes(b []byte) bool { return len(b) > 0 && n.hit(string(b)) }

// marksOf derives the marks from a ledger record.
func marksOf(rec *record) needles {
	var n needles
	seen := map[string]bool{}
	for _, r := range rec.Records {
		if seen[r.SourceID] {
			continue
		}
		seen[r.SourceID] = true
		n.ids = append(n.ids, r.SourceID)
		n.marks = append(n.marks, "["+r.SourceID+"](", "<!-- source-id:"+r.SourceID+" -->")
	}
	for _, id := range rec.Blocks {
		n.marks = append(n.marks, "^"+id)
	}
	for _, l := range rec.Labels {
		n.marks = append(n.marks, "[^"+l+"]")
	}
	return n
}

// collectNeedles gathers the text and the marks of a forget plan.
func (fp *forgetPlan) collectNeedles(v *engine.View) needles {
	n := marksOf(&record{Records: fp.removed, Blocks: fp.blocks, Labels: fp.labels})
	for _, t := range fp.targets {
		n.addText(t.Text)
		n.addText(t.Content)
		n.addText(topic.BlockSafe(t.Content))
		for _, line := range strings.Split(t.Content, "\n") {
			if len(strings.TrimSpace(line)) >= 2*minNeedle {
				n.addText(line)
			}
		}
	}
	for _, nd := range fp.nodes {
		n.ids = append(n.ids, nd.SourceID())
		n.addText(nd.Content)
		n.addText(topic.BlockSafe(nd.Content))
	}
	gone := map[string]bool{}
	for _, id := range fp.blocks {
		gone[id] = true
	}
	for _, p := range v.TopicPaths() {
		_, f, _ := v.Topic(p)
		for _, b := range f.Blocks() {
			if gone[b.BlockID] {
				n.addText(topic.BlockText(b))
			}
		}
	}
	return n
}
