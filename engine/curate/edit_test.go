package curate_test

import (
	"strings"
	"testing"

	"scriptorium/engine/curate"
	"scriptorium/engine/enginetest"
	"scriptorium/errcode"
)

func TestEdit_KeepsIDAndFootnotes(t *testing.T) {
	e, state := open(t)
	before := enginetest.Tree(t, state)
	res, err := curate.Edit(ctx, e, curate.EditRequest{ID: "^f888f60e",
		Text: "Craig is building a budget app in Flask, due 2024-05-01.[^e-1175dea39c]"})
	if err != nil {
		t.Fatal(err)
	}
	got := enginetest.Read(t, state, "topics/core.md")
	if !strings.Contains(got, "\n\nCraig is building a budget app in Flask, due 2024-05-01.[^e-1175dea39c] ^f888f60e\n\n") {
		t.Errorf("core.md:\n%s", got)
	}
	if !strings.Contains(got, "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../sources/cli/_v2/sess-1.md#source-206f53cc)") {
		t.Errorf("the definition is gone:\n%s", got)
	}
	if res.Path != "topics/core.md" || res.Before != "Craig is building a budget tracker in Flask, due 2024-04-15.[^e-1175dea39c]" ||
		len(res.Changed) != 1 || len(res.Reattached) != 0 {
		t.Errorf("result = %+v", res)
	}
	enginetest.VerifyClean(t, e)
	h := lastHistory(t, e)
	if h.Kind != "edit" || h.Actor != "owner" || h.Revision != res.Revision {
		t.Errorf("history = %+v", h)
	}
	if d := auditDetail(t, e, res.Revision); d != "edit: edited ^f888f60e in topics/core.md" {
		t.Errorf("audit = %q", d)
	}
	revertRestores(t, e, state, res.Revision, before)
}

func TestEdit_DeletedMarkerIsReattached(t *testing.T) {
	e, state := open(t)
	res, err := curate.Edit(ctx, e, curate.EditRequest{ID: "f888f60e", Text: "Craig builds a budget tracker.\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Reattached) != 1 || res.Reattached[0] != "e-1175dea39c" {
		t.Errorf("reattached = %v", res.Reattached)
	}
	if got := enginetest.Read(t, state, "topics/core.md"); !strings.Contains(got, "\nCraig builds a budget tracker.[^e-1175dea39c] ^f888f60e\n") {
		t.Errorf("core.md:\n%s", got)
	}
	enginetest.VerifyClean(t, e)
}

func TestEdit_ListAndMovedMarker(t *testing.T) {
	e, state := open(t)
	// A two-line list keeps its shape; a marker may move to other words.
	_, err := curate.Edit(ctx, e, curate.EditRequest{ID: "topics/core.md#^0badcafe",
		Text: "- Prefers green tea over coffee.\n- Owns the budget tracker repo.[^e-4d5e6f7a81]"})
	if err != nil {
		t.Fatal(err)
	}
	want := "- Prefers green tea over coffee.\n- Owns the budget tracker repo.[^e-4d5e6f7a81] ^0badcafe\n"
	if got := enginetest.Read(t, state, "topics/core.md"); !strings.Contains(got, want) {
		t.Errorf("core.md:\n%s", got)
	}
	enginetest.VerifyClean(t, e)
}

func TestEdit_SameTextChangesNothing(t *testing.T) {
	e, state := open(t)
	before, rev := enginetest.Tree(t, state), enginetest.Revision(t, e)
	res, err := curate.Edit(ctx, e, curate.EditRequest{ID: "^c0ffee02",
		Text: "\n  \nCarol reported the build green again.[^e-6f7a8b9ca3]   \n\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changed) != 0 || res.Revision != rev || res.After != res.Before {
		t.Errorf("result = %+v", res)
	}
	unchanged(t, state, before)
}

func TestEdit_Refused(t *testing.T) {
	cases := []struct {
		name, ref, text string
		code            errcode.Code
		want            string // in a violation or the message
	}{
		{"two paragraphs", "^c0ffee02", "Carol reported green.\n\nAnd red.[^e-6f7a8b9ca3]", errcode.Rejected, "line 1: the blank line after it splits"},
		{"heading", "^c0ffee02", "# Build\nCarol reported green.[^e-6f7a8b9ca3]", errcode.Rejected, "line 1 is a heading"},
		{"definition", "^c0ffee02", "Carol reported green.[^e-6f7a8b9ca3]\n[^e-6f7a8b9ca3]: Time: `2026-08-10`; Sources: [x/y/z](a.md#source-00000000)", errcode.Rejected, "line 2 is a footnote definition"},
		{"typed id", "^c0ffee02", "Carol reported green. ^c0ffee09", errcode.Rejected, "line 1 ends with a block id (^c0ffee09)"},
		{"invented marker", "^c0ffee02", "Carol reported green.[^e-6f7a8b9ca3][^e-0000000000]", errcode.Rejected, "[^e-0000000000] is not a footnote of topics/people/craig.md"},
		{"broken link", "^c0ffee02", "Carol reported green, see [x](nowhere.md#^12345678).[^e-6f7a8b9ca3]", errcode.Rejected, "line 1 of the text: link (nowhere.md#^12345678)"},
		{"empty", "^c0ffee02", " \n\n", errcode.InvalidArgument, "empty"},
		{"no such block", "^12345678", "Text.", errcode.NotFound, "no block ^12345678"},
		{"not in that file", "topics/core.md#^c0ffee02", "Text.", errcode.NotFound, "no block ^c0ffee02 in topics/core.md"},
		{"bad ref", "^C0FFEE02", "Text.", errcode.InvalidArgument, "not a block id"},
	}
	e, state := open(t)
	before := enginetest.Tree(t, state)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := curate.Edit(ctx, e, curate.EditRequest{ID: c.ref, Text: c.text})
			wantCode(t, err, c.code)
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error does not say %q:\n%v", c.want, err)
			}
		})
	}
	unchanged(t, state, before)
}

func TestEdit_StaleExpectIsConflict(t *testing.T) {
	e, state := open(t)
	b, err := curate.Find(ctx, e, "^c0ffee02")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := curate.Edit(ctx, e, curate.EditRequest{ID: "^c0ffee02", Text: "Carol said it is green.[^e-6f7a8b9ca3]"}); err != nil {
		t.Fatal(err)
	}
	mid := enginetest.Tree(t, state)
	_, err = curate.Edit(ctx, e, curate.EditRequest{ID: "^c0ffee02", Text: "Another text.[^e-6f7a8b9ca3]", Expect: b.Raw})
	wantCode(t, err, errcode.Conflict)
	if !errcode.As(err).Retryable() {
		t.Error("a conflict is retryable")
	}
	unchanged(t, state, mid)
}

func TestEdit_PairedIsForbidden(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	e := enginetest.Open(t, state, enginetest.AsPaired)
	for _, err := range []error{
		func() error {
			_, err := curate.Edit(ctx, e, curate.EditRequest{ID: "^c0ffee02", Text: "x"})
			return err
		}(),
		func() error { _, err := curate.Delete(ctx, e, "^c0ffee02", false); return err }(),
		func() error {
			_, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^c0ffee02", To: "people/x"})
			return err
		}(),
	} {
		wantCode(t, err, errcode.Forbidden)
	}
}

func TestEdit_FencedCodeKeepsIDLine(t *testing.T) {
	e, state := open(t)
	update(t, e, enginetest.Create("topics/ops.md", "# Ops\n\nDeploy with:\n```sh\n# build first\nmake deploy\n```\n^aaaa0001\n"))
	b, err := curate.Find(ctx, e, "^aaaa0001")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(b.Text, "make deploy", "make deploy ENV=prod", 1)
	if _, err := curate.Edit(ctx, e, curate.EditRequest{ID: "^aaaa0001", Text: text, Expect: b.Raw}); err != nil {
		t.Fatal(err)
	}
	want := "# Ops\n\nDeploy with:\n```sh\n# build first\nmake deploy ENV=prod\n```\n^aaaa0001\n"
	if got := enginetest.Read(t, state, "topics/ops.md"); got != want {
		t.Errorf("ops.md:\n%q\nwant\n%q", got, want)
	}
}

func TestEdit_CRLFFileKeepsItsEndings(t *testing.T) {
	e, state := open(t)
	update(t, e, enginetest.Create("topics/win.md", "# Win\r\n\r\nFirst line\r\nsecond line ^aaaa0002\r\n\r\nOther. ^aaaa0003\r\n"))
	if _, err := curate.Edit(ctx, e, curate.EditRequest{ID: "^aaaa0002", Text: "First line\r\nthird line"}); err != nil {
		t.Fatal(err)
	}
	want := "# Win\r\n\r\nFirst line\r\nthird line ^aaaa0002\r\n\r\nOther. ^aaaa0003\r\n"
	if got := enginetest.Read(t, state, "topics/win.md"); got != want {
		t.Errorf("win.md = %q, want %q", got, want)
	}
}
