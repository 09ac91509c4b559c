package curate_test

import (
	"strings"
	"testing"

	"scriptorium/engine/curate"
	"scriptorium/engine/enginetest"
	"scriptorium/errcode"
)

// ownerFile is a people/owner.md as the writer filed a speakerless owner:
// two themes, one citation shared with craig.md (the same label and
// source), and a block another file links to.
const ownerFile = "# The owner\n\n## Preferences\n\n" +
	"The owner prefers tea to coffee.[^e-aaaa000001] ^0a000001\n\n## Work\n\n" +
	"The owner's budget tracker ships in April; see [Craig](craig.md#^c0ffee01).[^e-5e6f7a8b92] ^0a000002\n\n" +
	"[^e-aaaa000001]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../../sources/cli/_v2/sess-1.md#source-206f53cc)\n\n" +
	"[^e-5e6f7a8b92]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../../sources/cli/_v2/sess-1.md#source-206f53cc)\n"

// TestMoveAll_OwnerIntoPerson: every block of people/owner.md moves into
// people/craig.md in one install of kind move: ids and footnotes kept
// (the shared citation not repeated), each under the heading it had
// (Work joins Work, Preferences is added), the text rewritten, the link
// from another file following, owner.md removed; revert puts it all back.
func TestMoveAll_OwnerIntoPerson(t *testing.T) {
	e, state := open(t)
	update(t, e, enginetest.Create("topics/people/owner.md", ownerFile),
		enginetest.Create("topics/notes.md", "# Notes\n\nSee [tea](people/owner.md#^0a000001). ^0b000001\n"))
	before := enginetest.Tree(t, state)
	rewrite := func(s string) string { return strings.ReplaceAll(s, "The owner", "Craig") }

	dry, err := curate.MoveAll(ctx, e, curate.MoveAllRequest{From: "people/owner", To: "people/craig", Rewrite: rewrite, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	unchanged(t, state, before)
	if len(dry.Changed) != 3 || len(dry.Moved) != 2 {
		t.Errorf("dry run = %+v", dry)
	}

	res, err := curate.MoveAll(ctx, e, curate.MoveAllRequest{From: "people/owner", To: "people/craig", Rewrite: rewrite})
	if err != nil {
		t.Fatal(err)
	}
	craig := enginetest.Read(t, state, "topics/people/craig.md")
	for _, want := range []string{
		"Carol reported the build green again.[^e-6f7a8b9ca3] ^c0ffee02\n\n" +
			"Craig's budget tracker ships in April; see [Craig](#^c0ffee01).[^e-5e6f7a8b92] ^0a000002\n\n## Notes",
		"## Preferences\n\nCraig prefers tea to coffee.[^e-aaaa000001] ^0a000001\n",
		"[^e-aaaa000001]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../../sources/cli/_v2/sess-1.md#source-206f53cc)",
	} {
		if !strings.Contains(craig, want) {
			t.Errorf("craig.md lacks %q:\n%s", want, craig)
		}
	}
	if n := strings.Count(craig, "[^e-5e6f7a8b92]:"); n != 1 {
		t.Errorf("the shared citation is defined %d times:\n%s", n, craig)
	}
	if notes := enginetest.Read(t, state, "topics/notes.md"); !strings.Contains(notes, "(people/craig.md#^0a000001)") {
		t.Errorf("the link did not follow:\n%s", notes)
	}
	if enginetest.Exists(state, "topics/people/owner.md") {
		t.Error("owner.md is still there")
	}
	if !res.FileDeleted || res.Created || len(res.Moved) != 2 || len(res.Rewritten) != 2 || len(res.Links) != 1 {
		t.Errorf("result = %+v", res)
	}
	enginetest.VerifyClean(t, e)
	if h := lastHistory(t, e); h.Kind != "move" || h.Revision != res.Revision {
		t.Errorf("history = %+v, want one move", h)
	}
	if d := auditDetail(t, e, res.Revision); d != "move: moved 2 blocks from topics/people/owner.md to topics/people/craig.md (3 files changed)" {
		t.Errorf("audit = %q", d)
	}
	revertRestores(t, e, state, res.Revision, before)
	enginetest.VerifyClean(t, e)
}

// TestMoveAll_NewTarget: a target that does not exist is created, headed
// by the title asked for.
func TestMoveAll_NewTarget(t *testing.T) {
	e, state := open(t)
	update(t, e, enginetest.Create("topics/people/owner.md", ownerFile))
	res, err := curate.MoveAll(ctx, e, curate.MoveAllRequest{From: "people/owner", To: "people/ines-moreau", Title: "Inès Moreau"})
	if err != nil {
		t.Fatal(err)
	}
	got := enginetest.Read(t, state, "topics/people/ines-moreau.md")
	if !strings.HasPrefix(got, "# Inès Moreau\n\n## Preferences\n\nThe owner prefers tea") || !res.Created {
		t.Errorf("ines-moreau.md (%+v):\n%s", res, got)
	}
	enginetest.VerifyClean(t, e)
}

// TestMoveAll_Refused: a missing source file, the same file, a bad target
// path: each refused with its code, nothing changed.
func TestMoveAll_Refused(t *testing.T) {
	e, state := open(t)
	before := enginetest.Tree(t, state)
	for _, c := range []struct {
		req  curate.MoveAllRequest
		code errcode.Code
	}{
		{curate.MoveAllRequest{From: "people/owner", To: "people/craig"}, errcode.NotFound},
		{curate.MoveAllRequest{From: "people/craig", To: "people/craig.md"}, errcode.InvalidArgument},
		{curate.MoveAllRequest{From: "people/craig", To: "../x"}, errcode.InvalidArgument},
	} {
		_, err := curate.MoveAll(ctx, e, c.req)
		wantCode(t, err, c.code)
	}
	unchanged(t, state, before)
}
