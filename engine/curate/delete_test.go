package curate_test

import (
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/curate"
	"scriptorium/engine/enginetest"
	"scriptorium/errcode"
)

func TestDelete_LinkedBlockIsRefusedNamingTheLinks(t *testing.T) {
	e, state := open(t)
	before := enginetest.Tree(t, state)
	_, err := curate.Delete(ctx, e, "^f888f60e", false)
	wantCode(t, err, errcode.Rejected)
	vs := enginetest.Violations(err)
	if len(vs) != 1 || vs[0].Path != "topics/people/craig.md" || vs[0].Line != 5 || vs[0].Code != "linked_block" ||
		!strings.Contains(vs[0].Message, "block ^c0ffee01 links to ^f888f60e (../core.md#^f888f60e)") {
		t.Errorf("violations = %+v", vs)
	}
	unchanged(t, state, before)
	// A same-file link counts too.
	_, err = curate.Delete(ctx, e, "^c0ffee01", false)
	wantCode(t, err, errcode.Rejected)
	if vs := enginetest.Violations(err); len(vs) != 1 || !strings.Contains(vs[0].Message, "block ^c0ffee03 links to ^c0ffee01 (#^c0ffee01)") {
		t.Errorf("violations = %+v", vs)
	}
	unchanged(t, state, before)
}

func TestDelete_TakesItsOwnFootnotes(t *testing.T) {
	e, state := open(t)
	before := enginetest.Tree(t, state)
	res, err := curate.Delete(ctx, e, "^c0ffee02", false)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Craig\n\n## Work\n\nCraig ships the budget tracker; see [the core fact](../core.md#^f888f60e).[^e-5e6f7a8b92] ^c0ffee01\n\n" +
		"## Notes\n\nSee [above](#^c0ffee01) and [the legacy note](../projects/legacy.md#^b1ab1ab1). ^c0ffee03\n\n" +
		"[^e-5e6f7a8b92]: Time: `2024-03-15`; Sources: [cli/sess-1/s1](../../sources/cli/_v2/sess-1.md#source-206f53cc)\n"
	if got := enginetest.Read(t, state, "topics/people/craig.md"); got != want {
		t.Errorf("craig.md:\n%s\nwant\n%s", got, want)
	}
	if res.Text != "Carol reported the build green again.[^e-6f7a8b9ca3]" || len(res.Footnotes) != 1 ||
		res.Footnotes[0] != "e-6f7a8b9ca3" || res.FileDeleted {
		t.Errorf("result = %+v", res)
	}
	enginetest.VerifyClean(t, e)
	if h := lastHistory(t, e); h.Kind != "delete" {
		t.Errorf("history kind = %s", h.Kind)
	}
	if d := auditDetail(t, e, res.Revision); d != "delete: deleted ^c0ffee02 from topics/people/craig.md" {
		t.Errorf("audit = %q", d)
	}
	revertRestores(t, e, state, res.Revision, before)
}

func TestDelete_SharedFootnoteStays(t *testing.T) {
	e, state := open(t)
	core := enginetest.Read(t, state, "topics/core.md")
	update(t, e, enginetest.Replace("topics/core.md", strings.Replace(core, "^0badcafe\n", "^0badcafe\n\nDue soon.[^e-1175dea39c] ^aaaa0001\n", 1)))
	res, err := curate.Delete(ctx, e, "^aaaa0001", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Footnotes) != 0 {
		t.Errorf("removed %v, which ^f888f60e still uses", res.Footnotes)
	}
	if got := enginetest.Read(t, state, "topics/core.md"); got != core {
		t.Errorf("core.md:\n%s\nwant\n%s", got, core)
	}
}

func TestDelete_LastBlock(t *testing.T) {
	e, state := open(t)
	update(t, e, enginetest.Create("topics/misc.md", "# Misc\n\n## Odds\n\nOne fact. ^aaaa0001\n"),
		enginetest.Create("topics/linked.md", "# Linked\n\nAnother fact. ^aaaa0002\n"),
		enginetest.Create("topics/index.md", "# Index\n\nSee [the linked file](linked.md). ^aaaa0003\n"))
	before := enginetest.Tree(t, state)
	// A file left with headings only goes, and revert brings it back.
	res, err := curate.Delete(ctx, e, "^aaaa0001", false)
	if err != nil {
		t.Fatal(err)
	}
	if !res.FileDeleted || enginetest.Exists(state, "topics/misc.md") {
		t.Errorf("misc.md should be gone: %+v", res)
	}
	revertRestores(t, e, state, res.Revision, before)
	// A file another file links to stays, with its heading.
	res, err = curate.Delete(ctx, e, "^aaaa0002", false)
	if err != nil {
		t.Fatal(err)
	}
	if res.FileDeleted || enginetest.Read(t, state, "topics/linked.md") != "# Linked\n" {
		t.Errorf("linked.md should stay as its heading: %+v", res)
	}
	enginetest.VerifyClean(t, e)
}

func TestDelete_CoreFileStays(t *testing.T) {
	state := enginetest.Empty(t, map[string]string{"topics/core.md": "# Core\n\nOnly fact. ^aaaa0001\n"})
	e := enginetest.Open(t, state)
	res, err := curate.Delete(ctx, e, "^aaaa0001", false)
	if err != nil {
		t.Fatal(err)
	}
	if res.FileDeleted || enginetest.Read(t, state, "topics/core.md") != "# Core\n" {
		t.Errorf("core.md must stay: %+v", res)
	}
}

func TestDelete_LockBusy(t *testing.T) {
	state := enginetest.Fixture(t, "valid")
	holder := enginetest.Open(t, state)
	bg := enginetest.Open(t, state, func(o *engine.Options) { o.Interactive = false })
	err := holder.Locked(ctx, false, func(*engine.Tx) error {
		_, err := curate.Delete(ctx, bg, "^c0ffee02", false)
		return err
	})
	wantCode(t, err, errcode.LockBusy)
}

func TestDryRuns_ChangeNothing(t *testing.T) {
	e, state := open(t)
	before, rev := enginetest.Tree(t, state), enginetest.Revision(t, e)
	d, err := curate.Delete(ctx, e, "^c0ffee02", true)
	if err != nil {
		t.Fatal(err)
	}
	if !d.DryRun || d.Revision != rev || len(d.Changed) != 1 || d.Footnotes[0] != "e-6f7a8b9ca3" {
		t.Errorf("delete dry run = %+v", d)
	}
	m, err := curate.Move(ctx, e, curate.MoveRequest{ID: "^f888f60e", To: "people/new", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !m.DryRun || m.Revision != rev || !m.Created || len(m.Links) != 1 || len(m.Changed) != 3 {
		t.Errorf("move dry run = %+v", m)
	}
	_, err = curate.Delete(ctx, e, "^f888f60e", true)
	wantCode(t, err, errcode.Rejected) // a dry run says a linked block is refused
	unchanged(t, state, before)
	if n := len(enginetest.History(t, e)); n != 0 {
		t.Errorf("dry runs recorded %d history rows", n)
	}
}
