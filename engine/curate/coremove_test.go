package curate_test

import (
	"testing"

	"scriptorium/engine/curate"
	"scriptorium/engine/enginetest"
	"scriptorium/errcode"
)

// TestMoveCoreBlock: a block of core.md swaps places with its neighbour,
// headings stay; past either end or for an unknown block nothing changes.
func TestMoveCoreBlock(t *testing.T) {
	state := enginetest.Empty(t, map[string]string{"topics/core.md": "# Core\n\nFirst fact. ^aaaa0001\n\n## More\n\nSecond fact. ^aaaa0002\n"})
	e := enginetest.Open(t, state)
	rev := enginetest.Revision(t, e)
	res, err := curate.MoveCoreBlock(ctx, e, "aaaa0002", -1)
	if err != nil {
		t.Fatal(err)
	}
	want := "# Core\n\nSecond fact. ^aaaa0002\n\n## More\n\nFirst fact. ^aaaa0001\n"
	if got := enginetest.Read(t, state, "topics/core.md"); got != want {
		t.Errorf("core.md:\n%s\nwant\n%s", got, want)
	}
	if res.Revision != rev+1 || len(res.Changed) == 0 {
		t.Errorf("result %+v after revision %d", res, rev)
	}
	before := enginetest.Tree(t, state)
	res, err = curate.MoveCoreBlock(ctx, e, "aaaa0002", -1)
	if err != nil || res.Revision != rev+1 || len(res.Changed) != 0 {
		t.Errorf("move past the top = %+v, %v", res, err)
	}
	_, err = curate.MoveCoreBlock(ctx, e, "deadbeef", 1)
	wantCode(t, err, errcode.NotFound)
	unchanged(t, state, before)
}
