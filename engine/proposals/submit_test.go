package proposals_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine/enginetest"
	"scriptorium/engine/proposals"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
)

// Issue 24, finding 2: a paired caller may not install topics/core.md, so
// its core.md edits go to the owner as a proposal, and only the owner's
// accept installs them.
func TestSubmit_PairedCoreBecomesAProposal(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name  string
		files map[string]string
		edit  result.Edit
	}{
		{"create", map[string]string{"topics/notes.md": notes}, enginetest.Create(trust.CorePath, "# Core\n\nUse tabs. ^c0c0c0c1\n")},
		{"append", map[string]string{"topics/core.md": "# Core\n\nOwner rule. ^c0c0c0c0\n"}, enginetest.Append(trust.CorePath, "Use tabs. ^c0c0c0c1\n")},
		{"replace", map[string]string{"topics/core.md": "# Core\n\nOwner rule. ^c0c0c0c0\n"}, enginetest.Replace(trust.CorePath, "# Core\n\nUse tabs. ^c0c0c0c1\n")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := enginetest.Empty(t, c.files)
			paired := enginetest.Open(t, state, enginetest.AsPaired)
			owner := enginetest.Open(t, state)
			rev := enginetest.Revision(t, owner)
			before := enginetest.Tree(t, state)
			if _, err := paired.Update(ctx, enginetest.Tx(rev, c.edit)); enginetest.Code(err) != errcode.Forbidden ||
				!strings.Contains(err.Error(), "--propose") {
				t.Fatalf("paired update of core.md: %v, want FORBIDDEN offering the proposal route", err)
			}
			sub, err := proposals.Submit(ctx, paired, enginetest.Tx(rev, c.edit))
			if err != nil {
				t.Fatal(err)
			}
			if sub.Proposal == "" || len(sub.Changed) != 1 || sub.Changed[0] != trust.CorePath {
				t.Fatalf("Submit = %+v", sub)
			}
			if d := enginetest.TreeDiff(before, enginetest.Tree(t, state)); d != "" {
				t.Fatalf("a proposal changed memory:\n%s", d)
			}
			list, err := proposals.List(owner)
			if err != nil || len(list) != 1 || list[0].ID != sub.Proposal || list[0].Kind != "update" || list[0].ProposedBy != "paired" {
				t.Fatalf("proposals = %+v, %v", list, err)
			}
			// Only the owner decides.
			if _, err := proposals.Accept(ctx, paired, sub.Proposal, nil); enginetest.Code(err) != errcode.Forbidden {
				t.Errorf("paired accepted its own proposal: %v", err)
			}
			if _, err := proposals.Accept(ctx, owner, sub.Proposal, nil); err != nil {
				t.Fatal(err)
			}
			if got := enginetest.Read(t, state, trust.CorePath); !strings.Contains(got, "Use tabs. ^c0c0c0c1") {
				t.Errorf("accepted core.md:\n%s", got)
			}
		})
	}
}

func TestSubmit_Refusals(t *testing.T) {
	ctx := context.Background()
	state := enginetest.Empty(t, map[string]string{"topics/core.md": "# Core\n\nOwner rule. ^c0c0c0c0\n", "topics/notes.md": notes})
	paired := enginetest.Open(t, state, enginetest.AsPaired)
	rev := enginetest.Revision(t, paired)
	before := enginetest.Tree(t, state)
	cases := []struct {
		name string
		tx   result.Transaction
		want errcode.Code
	}{
		{"another file", enginetest.Tx(rev, enginetest.Append("topics/notes.md", "More. ^c0c0c0c1\n")), errcode.InvalidArgument},
		{"core.md and another file", enginetest.Tx(rev, enginetest.Append(trust.CorePath, "More. ^c0c0c0c1\n"),
			enginetest.Create("topics/x.md", "# X\n\nX. ^c0c0c0c2\n")), errcode.InvalidArgument},
		{"delete core.md", enginetest.Tx(rev, enginetest.Delete(trust.CorePath)), errcode.InvalidArgument},
		{"stale base", enginetest.Tx(rev+1, enginetest.Append(trust.CorePath, "More. ^c0c0c0c1\n")), errcode.Conflict},
		{"a duplicate block id", enginetest.Tx(rev, enginetest.Append(trust.CorePath, "Again. ^aaaaaaa1\n")), errcode.Rejected},
	}
	for _, c := range cases {
		if _, err := proposals.Submit(ctx, paired, c.tx); enginetest.Code(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	if d := enginetest.TreeDiff(before, enginetest.Tree(t, state)); d != "" {
		t.Errorf("refused proposals changed the state dir:\n%s", d)
	}
}
