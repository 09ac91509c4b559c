package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"scriptorium/engine/result"
)

// The fake's review history: a spam message rejected, a writer batch, the
// sleep passes, a declined proposal and an older promotion, newest first.
const (
	spamRef  = "telegram/group-42/m104"
	spamText = "win a free phone at http://fr33-ph0ne.example"
)

func (f *fakeBackend) seedReview() {
	spam := frame(groupPath, spamRef, "2026-08-10T18:00:00Z", "Eve (u555)", "u555", spamText, "pending", true)
	g := f.archives[groupPath]
	g.Sources = append(g.Sources, spam)
	f.rejected = []result.RejectedSource{{PendingSource: result.PendingSource{Ref: spam.Ref, Path: spam.Path,
		Anchor: spam.Anchor, Time: spam.Time, SpeakerLabel: spam.SpeakerLabel, SpeakerID: spam.SpeakerID,
		Content: spam.Content, Thread: threadOf(spam.Ref), Text: spam.Text},
		Reason: "spam link", RejectedAt: "2026-08-11T11:20:00Z", RejectedBy: "owner"}}
	cite := func(refs ...string) []result.CitationView {
		var out []result.CitationView
		for _, r := range refs {
			for _, a := range f.archives {
				for _, s := range a.Sources {
					if s.Ref == r {
						out = append(out, result.CitationView{Ref: r, Path: s.Path, Anchor: s.Anchor})
					}
				}
			}
		}
		return out
	}
	archived := func(path string, refs ...string) result.FileDiff {
		d := fmt.Sprintf("--- a/%s\n+++ b/%s\n@@ -20,0 +21,%d @@\n", path, path, 6*len(refs))
		for _, r := range refs {
			d += "+\n+<a id=\"" + anchorOf(r) + "\"></a>\n+<!-- source-id:" + r + " -->\n+<!-- trust:pending -->\n+<!-- record-lines:1 -->\n+[…]\n"
		}
		return result.FileDiff{Path: path, Diff: d}
	}
	pass := f.passes[0]
	f.audit = []result.AuditEntry{
		{Time: "2026-08-11T11:20:00Z", Kind: "reject", Actor: "owner", Sources: []string{spamRef}, Changed: []string{},
			Detail:  "rejected 1 pending source (they stay untrusted; promote reverses it); reason: spam link",
			Records: cite(spamRef)},
		{Time: "2026-08-11T10:00:00Z", Kind: "write", Actor: "owner", Revision: 41,
			Sources: []string{"openprogram/group-ops/m7", "telegram/group-42/m105"},
			Changed: []string{opsPath, groupPath},
			Detail:  "writer batch: 2 sources concerned; 0 topic files, 2 archives changed",
			Diffs:   []result.FileDiff{archived(opsPath, "openprogram/group-ops/m7"), archived(groupPath, "telegram/group-42/m105")},
			Records: cite("openprogram/group-ops/m7", "telegram/group-42/m105")},
		{Time: pass.Time, Kind: "sleep", Actor: "owner", Revision: pass.Revision, Sources: []string{},
			Changed: []string{pass.Changed[0].Path}, Detail: "sleep pass #2 (offline): revision 40, 1 file(s) changed: " + pass.Changed[0].Path,
			Diffs: pass.Changed},
		{Time: "2026-08-10T09:00:00Z", Kind: "proposal_declined", Actor: "owner", Sources: []string{},
			Changed: []string{"topics/projects/release.md"},
			Detail:  "declined sleep proposal p-20260810-030000-9f8e7d (base revision 38): 1 file not installed"},
		{Time: "2026-08-10T03:00:00Z", Kind: "sleep", Actor: "owner", Sources: []string{}, Changed: []string{},
			Detail: "sleep pass #1 (offline): no changes"},
		{Time: "2024-03-15T10:05:00Z", Kind: "write", Actor: "owner", Revision: 12,
			Sources: []string{"openprogram/sess-7f2a/msg_2f9a", "openprogram/sess-7f2a/msg_2f9b"},
			Changed: []string{sessPath, "topics/people/craig.md"},
			Detail:  "writer batch: 2 sources concerned; 1 topic file, 1 archive changed",
			Diffs: []result.FileDiff{archived(sessPath, "openprogram/sess-7f2a/msg_2f9a", "openprogram/sess-7f2a/msg_2f9b"),
				{Path: "topics/people/craig.md", Diff: "--- /dev/null\n+++ b/topics/people/craig.md\n@@ -0,0 +1,5 @@\n+# Craig\n+\n" +
					"+Craig is building a budget tracker in Flask, due 2024-04-15.[^e-1175dea39c] ^f888f60e\n+\n" +
					"+[^e-1175dea39c]: Time: `2024-03-15`; Sources: [openprogram/sess-7f2a/msg_2f9b](../../sources/openprogram/_v2/sess-7f2a.md#source-9047c191)\n"}},
			Records: cite("openprogram/sess-7f2a/msg_2f9a", "openprogram/sess-7f2a/msg_2f9b")},
	}
}

// takeRejected removes the rejected sources among refs from the rejected
// list and returns them as pending sources again.
func (f *fakeBackend) takeRejected(refs []string) []result.PendingSource {
	var out []result.PendingSource
	f.rejected = slices.DeleteFunc(f.rejected, func(r result.RejectedSource) bool {
		if slices.Contains(refs, r.Ref) {
			out = append(out, r.PendingSource)
			return true
		}
		return false
	})
	return out
}

// recordPromotion completes a promotion's result the way the engine does
// and adds it to the trail.
func (f *fakeBackend) recordPromotion(res *result.PromoteResult) {
	res.Revision = f.revision
	res.Topics = []string{}
	if len(res.Distilled) > 0 {
		res.Topics = []string{"topics/projects/release.md"}
	}
	f.audit = append([]result.AuditEntry{{Time: "2026-08-12T09:00:00Z", Kind: "promote", Actor: "owner",
		Revision: f.revision, Sources: slices.Clone(res.Promoted), Changed: slices.Clone(res.Topics),
		Detail: fmt.Sprintf("promoted %d source(s)", len(res.Promoted))}}, f.audit...)
}

func (f *fakeBackend) Reject(_ context.Context, refs []string, reason string) (result.RejectResult, error) {
	if err := f.call("Reject"); err != nil {
		return result.RejectResult{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	res := result.RejectResult{Rejected: []string{}}
	for _, ref := range refs {
		i := slices.IndexFunc(f.pending, func(p result.PendingSource) bool { return p.Ref == ref })
		if i < 0 {
			continue
		}
		f.rejected = append(f.rejected, result.RejectedSource{PendingSource: f.pending[i], Reason: strings.TrimSpace(reason),
			RejectedAt: "2026-08-12T09:00:00Z", RejectedBy: "owner"})
		f.pending = slices.Delete(f.pending, i, i+1)
		res.Rejected = append(res.Rejected, ref)
	}
	if len(res.Rejected) > 0 {
		f.audit = append([]result.AuditEntry{{Time: "2026-08-12T09:00:00Z", Kind: "reject", Actor: "owner",
			Sources: slices.Clone(res.Rejected), Changed: []string{}, Detail: "rejected; reason: " + reason}}, f.audit...)
	}
	return res, nil
}

func (f *fakeBackend) Rejected(context.Context) ([]result.RejectedSource, error) {
	if err := f.call("Rejected"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.rejected), nil
}

func (f *fakeBackend) Audit(_ context.Context, q result.AuditQuery) (result.AuditReport, error) {
	if err := f.call("Audit"); err != nil {
		return result.AuditReport{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []result.AuditEntry{}
	for _, en := range f.audit {
		if q.Source == "" || slices.Contains(en.Sources, q.Source) {
			out = append(out, en)
		}
	}
	return result.AuditReport{Entries: out}, nil
}
