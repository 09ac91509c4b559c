package forget

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/engine/search"
	"scriptorium/errcode"
	"scriptorium/workspace"
	"scriptorium/workspace/archive"
)

// preview lists every place that holds the content and what the
// forget does there, each as a diff: the archives and topics the install
// changes, the derived views it re-renders, the index documents it drops,
// the sessions.db turns it blanks, and the earlier copies it scrubs.
func preview(ctx context.Context, e *engine.Engine, v *engine.View, plan *engine.Plan, fp *forgetPlan) (result.ForgetResult, error) {
	after := plan.After
	res := result.ForgetResult{Sources: fp.sourceIDs(), Changes: []result.ForgetChange{}, Turns: len(fp.nodes),
		Blocks: nonNil(fp.blocks), Citations: fp.citations}
	add := func(kind, path, diff string) {
		if diff != "" {
			res.Changes = append(res.Changes, result.ForgetChange{Path: path, Kind: kind, Diff: diff})
		}
	}
	for _, p := range plan.Changed {
		kind := "topic"
		if strings.HasPrefix(p, workspace.SourcesDir+"/") {
			kind = "archive"
		}
		add(kind, p, plan.Diff(p))
	}
	for _, d := range derivedDiffs(e, after) {
		add("derived", d.Path, d.Diff)
	}
	add("index", workspace.MetaRel(workspace.IndexName), indexDiff(e.CorpusOf(v), e.CorpusOf(after)))
	add("sessions", "sessions.db", sessionsDiff(fp))
	vecs, err := forgottenVectors(e, v, after)
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "read the vector cache")
	}
	res.Vectors = vecs
	if vecs > 0 {
		add("embeddings", workspace.MetaRel(workspace.EmbeddingsName), listDiff(workspace.EmbeddingsName,
			[]string{fmt.Sprintf("%d vector(s) keyed by the SHA-256 of forgotten text", vecs)},
			"removed, and the file rewritten so that no free page keeps a key"))
	}
	rows, err := scrubState(ctx, e.Records(), 0, fp.needles)
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "read state.db")
	}
	add("history", workspace.MetaRel(workspace.StateDBName), listDiff(workspace.StateDBName, rows,
		"scrubbed: an earlier copy of the forgotten text (these revisions can no longer be reverted)"))
	props, err := scrubProposals(e, fp.needles, false)
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "read proposals")
	}
	for _, p := range props {
		id := strings.TrimPrefix(p, "proposal ")
		add("proposal", workspace.MetaRel(workspace.ProposalsName, id+".json"), listDiff(id+".json", []string{p},
			"deleted: it holds the forgotten text, and accepting it would bring it back"))
	}
	rt, err := scrubRuntime(e, fp.needles, false)
	if err != nil {
		return res, errcode.Wrap(errcode.IO, err, "read runtime files")
	}
	for _, p := range rt {
		add("runtime", p, listDiff(filepath.Base(p), []string{p}, "the forgotten text is replaced by "+forgottenMark+"; a status file or cache naming a forgotten record is removed, a log loses those lines"))
	}
	return res, nil
}

// indexDiff lists the search documents the forget drops or re-indexes.
// The index is rebuilt from scratch afterwards, so no segment keeps a term
// of a dropped document.
func indexDiff(before, after engine.Corpus) string {
	old, cur := search.IndexChanges(before, after)
	var lines []string
	for id, d := range old {
		n, ok := cur[id]
		n.Frame, d.Frame = archive.Span{}, archive.Span{} // where a frame lies moves with the bytes before it: no change to show
		switch {
		case !ok:
			lines = append(lines, "-"+docLine(d))
		case n != d:
			lines = append(lines, "-"+docLine(d), "+"+docLine(n))
		}
	}
	for id, d := range cur {
		if _, ok := old[id]; !ok {
			lines = append(lines, "+"+docLine(d))
		}
	}
	if len(lines) == 0 {
		return ""
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i][1:] < lines[j][1:] })
	return "--- a/.scriptorium/index\n+++ b/.scriptorium/index\n" + strings.Join(lines, "\n") +
		"\n the whole index is rebuilt from the files afterwards\n"
}

func docLine(d index.Doc) string {
	return fmt.Sprintf("%s: %s", d.ID, oneLine(d.Text, 72))
}

// sessionsDiff shows each sessions.db node that is blanked.
func sessionsDiff(fp *forgetPlan) string {
	if len(fp.nodes) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("--- a/sessions.db\n+++ b/sessions.db\n")
	session := ""
	for _, n := range fp.nodes {
		if s := n.Provider + "/" + n.Session; s != session {
			session = s
			fmt.Fprintf(&b, "@@ session %s @@\n", s)
		}
		who := n.Role
		if n.SpeakerDisplay != "" || n.SpeakerID != "" {
			who += ", " + strings.TrimSpace(n.SpeakerDisplay+" "+paren(n.SpeakerID))
		}
		stamp := n.Time.UTC().Format("2006-01-02T15:04:05Z")
		fmt.Fprintf(&b, "-%s (%s, %s):", n.ID, who, stamp)
		for i, line := range strings.Split(n.Content, "\n") {
			if i == 0 {
				b.WriteString(" " + line + "\n")
			} else {
				b.WriteString("-    " + line + "\n")
			}
		}
		fmt.Fprintf(&b, "+%s (%s, %s): (forgotten)\n", n.ID, n.Role, stamp)
	}
	return b.String()
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}

// listDiff shows a list of things that lose the text, one "-" line each,
// and what happens to them.
func listDiff(name string, items []string, what string) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	for _, it := range items {
		b.WriteString("-" + it + "\n")
	}
	b.WriteString(" " + what + "\n")
	return b.String()
}

// oneLine is s on one line, cut to n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
