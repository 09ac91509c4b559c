package curate_test

import (
	"strings"
	"testing"

	"scriptorium/engine/browse"
	"scriptorium/engine/curate"
	"scriptorium/engine/enginetest"
	"scriptorium/errcode"
)

func TestMove_ToNewFileLinksFollow(t *testing.T) {
	e, state := open(t)
	before := enginetest.Tree(t, state)
	res, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^f888f60e", To: "people/craig-work"})
	if err != nil {
		t.Fatal(err)
	}
	want := "# Craig Work\n\nCraig is building a budget tracker in Flask, due 2024-04-15.[^e-1175dea39c] ^f888f60e\n\n" +
		"[^e-1175dea39c]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../../sources/cli/_v2/sess-1.md#source-206f53cc)\n"
	if got := enginetest.Read(t, state, "topics/people/craig-work.md"); got != want {
		t.Errorf("craig-work.md:\n%s\nwant\n%s", got, want)
	}
	core := enginetest.Read(t, state, "topics/core.md")
	if strings.Contains(core, "f888f60e") || strings.Contains(core, "e-1175dea39c") {
		t.Errorf("core.md still holds the block or its footnote:\n%s", core)
	}
	if craig := enginetest.Read(t, state, "topics/people/craig.md"); !strings.Contains(craig, "[the core fact](craig-work.md#^f888f60e)") {
		t.Errorf("the link did not follow:\n%s", craig)
	}
	if res.From != "topics/core.md" || res.To != "topics/people/craig-work.md" || !res.Created || res.FileDeleted ||
		len(res.Links) != 1 || res.Links[0].Path != "topics/people/craig.md" || len(res.Changed) != 3 {
		t.Errorf("result = %+v", res)
	}
	enginetest.VerifyClean(t, e)
	if d := auditDetail(t, e, res.Revision); d != "move: moved ^f888f60e from topics/core.md to topics/people/craig-work.md (3 files changed)" {
		t.Errorf("audit = %q", d)
	}
	revertRestores(t, e, state, res.Revision, before)
	enginetest.VerifyClean(t, e)
}

func TestMove_IntoCoreRewritesOwnLinks(t *testing.T) {
	e, state := open(t)
	res, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^c0ffee01", To: "topics/core.md"})
	if err != nil {
		t.Fatal(err)
	}
	core := enginetest.Read(t, state, "topics/core.md")
	for _, want := range []string{
		// Its link into core.md is now a same-file link; its citation path is one level up.
		"Craig ships the budget tracker; see [the core fact](#^f888f60e).[^e-5e6f7a8b92] ^c0ffee01\n\n[^e-1175dea39c]",
		"[^e-5e6f7a8b92]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../sources/cli/_v2/sess-1.md#source-206f53cc)\n",
	} {
		if !strings.Contains(core, want) {
			t.Errorf("core.md lacks %q:\n%s", want, core)
		}
	}
	// The same-file link of craig.md now crosses files.
	if craig := enginetest.Read(t, state, "topics/people/craig.md"); !strings.Contains(craig, "See [above](../core.md#^c0ffee01)") ||
		strings.Contains(craig, "e-5e6f7a8b92") {
		t.Errorf("craig.md:\n%s", craig)
	}
	enginetest.VerifyClean(t, e)
	cv, err := browse.CoreView(ctx, e)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range cv.Blocks {
		found = found || b.ID == "c0ffee01"
	}
	if !found {
		t.Error("the Core view does not show the moved block")
	}
	_ = res
}

func TestMove_UnderHeading(t *testing.T) {
	e, state := open(t)
	if _, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^c0ffee02", To: "topics/projects/legacy.md", Under: "## Status"}); err != nil {
		t.Fatal(err)
	}
	legacy := enginetest.Read(t, state, "topics/projects/legacy.md")
	want := "^b1ab1ab2\n\n## Status\n\nCarol reported the build green again.[^e-6f7a8b9ca3] ^c0ffee02\n\n[^e-7a8b9cadb4]"
	if !strings.Contains(legacy, want) {
		t.Errorf("legacy.md:\n%s", legacy)
	}
	// An existing heading: the end of its section, before the next one.
	if _, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^b1ab1ab1", To: "people/craig.md", Under: "work"}); err != nil {
		t.Fatal(err)
	}
	craig := enginetest.Read(t, state, "topics/people/craig.md")
	want = "^c0ffee01\n\nThe assistant agreed to tea.[^e-7a8b9cadb4] ^b1ab1ab1\n\n## Notes\n\nSee [above](#^c0ffee01) and [the legacy note](#^b1ab1ab1). ^c0ffee03"
	if !strings.Contains(craig, want) {
		t.Errorf("craig.md:\n%s", craig)
	}
	enginetest.VerifyClean(t, e)
}

func TestMove_FootnoteLabels(t *testing.T) {
	e, state := open(t)
	// other.md uses ^c0ffee01's label for another source; same.md cites
	// the same source under the same label.
	update(t, e,
		enginetest.Create("topics/other.md", "# Other\n\nBuild news.[^e-5e6f7a8b92] ^aaaa0001\n\n"+
			"[^e-5e6f7a8b92]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m2](../sources/openprogram/_v2/group-dev.md#source-df270a2a)\n"),
		enginetest.Create("topics/same.md", "# Same\n\nCraig again.[^e-5e6f7a8b92] ^aaaa0002\n\n"+
			"[^e-5e6f7a8b92]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../sources/cli/_v2/sess-1.md#source-206f53cc)\n"))
	res, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^c0ffee01", To: "other"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Footnotes) != 1 || res.Footnotes[0] == "e-5e6f7a8b92" {
		t.Fatalf("footnotes = %v, want one renamed label", res.Footnotes)
	}
	other := enginetest.Read(t, state, "topics/other.md")
	if !strings.Contains(other, "[^"+res.Footnotes[0]+"] ^c0ffee01") ||
		!strings.Contains(other, "[^"+res.Footnotes[0]+"]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../sources/cli/_v2/sess-1.md#source-206f53cc)") {
		t.Errorf("other.md:\n%s", other)
	}
	enginetest.VerifyClean(t, e)
	res, err = curate.Move(ctx, e, curate.MoveRequest{ID: "^c0ffee02", To: "same"})
	if err != nil {
		t.Fatal(err)
	}
	// Different source: added. Then the same label and source: shared.
	if _, err = curate.Move(ctx, e, curate.MoveRequest{ID: "^aaaa0002", To: "other"}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(enginetest.Read(t, state, "topics/other.md"), "Sources: [cli/sess-1/s1]"); n != 1 {
		t.Errorf("other.md cites cli/sess-1/s1 in %d definitions, want 1 shared... ", n)
	}
	enginetest.VerifyClean(t, e)
	_ = res
}

func TestMove_LastBlockTakesTheFile(t *testing.T) {
	e, state := open(t)
	update(t, e, enginetest.Create("topics/misc.md", "# Misc\n\nOne fact. ^aaaa0001\n"))
	before := enginetest.Tree(t, state)
	res, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^aaaa0001", To: "topics/people/craig.md"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.FileDeleted || enginetest.Exists(state, "topics/misc.md") {
		t.Errorf("misc.md should be gone: %+v", res)
	}
	revertRestores(t, e, state, res.Revision, before)
}

func TestMove_Refused(t *testing.T) {
	e, state := open(t)
	before := enginetest.Tree(t, state)
	cases := []struct {
		name string
		req  curate.MoveRequest
		code errcode.Code
		want string
	}{
		{"traversal", curate.MoveRequest{ID: "^c0ffee02", To: "../x"}, errcode.InvalidArgument, "not clean"},
		{"hidden", curate.MoveRequest{ID: "^c0ffee02", To: "people/.x"}, errcode.InvalidArgument, "hidden path segment"},
		{"empty", curate.MoveRequest{ID: "^c0ffee02", To: " "}, errcode.InvalidArgument, "empty path"},
		{"same file", curate.MoveRequest{ID: "^c0ffee02", To: "people/craig.md"}, errcode.InvalidArgument, "in topics/people/craig.md already"},
		{"no block", curate.MoveRequest{ID: "^12345678", To: "x"}, errcode.NotFound, "no block ^12345678"},
		{"two-line heading", curate.MoveRequest{ID: "^c0ffee02", To: "x", Under: "a\nb"}, errcode.InvalidArgument, "one line"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := curate.Move(ctx, e, c.req)
			wantCode(t, err, c.code)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not say %q: %v", c.want, err)
			}
		})
	}
	unchanged(t, state, before)
}

func TestTopicPath(t *testing.T) {
	for in, want := range map[string]string{
		"people/dana":        "topics/people/dana.md",
		"topics/people/dana": "topics/people/dana.md",
		" ./people/dana.md ": "topics/people/dana.md",
		"topics/core.md":     "topics/core.md",
		"":                   "",
		"projects/x.md/y":    "topics/projects/x.md/y.md",
	} {
		if got := curate.TopicPath(in); got != want {
			t.Errorf("TopicPath(%q) = %q, want %q", in, got, want)
		}
	}
}
