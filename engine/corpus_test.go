package engine_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
)

// TestCorpus_RecordLevelRead: the record-level read the search documents
// are built from says which records are visible (a pending record, a
// legacy record shadowed by its v2 frame: not) and skips the invisible ones
// when it names a record's neighbours, so a pending turn is never anyone's
// context; a topic file's blocks carry their trust (a block citing a
// pending record is withheld).
func TestCorpus_RecordLevelRead(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, enginetest.Fixture(t, "valid"))
	c, err := e.Corpus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	group := "sources/openprogram/_v2/group-dev.md"
	var list []string
	for r := range c.Records(group) {
		list = append(list, strings.TrimPrefix(r.Ref(), "openprogram/group-dev/")+map[bool]string{true: "+", false: "-"}[r.Visible()])
	}
	if got := strings.Join(list, " "); got != "m1+ m2+ m3- m4+ m5-" {
		t.Errorf("group chat records (visible +): %s", got)
	}
	ref := func(r engine.Record, ok bool) string {
		if !ok {
			return "none"
		}
		return r.Ref()
	}
	m4, _ := c.Source("openprogram/group-dev/m4")
	m2, _ := c.Source("openprogram/group-dev/m2")
	m5, _ := c.Source("openprogram/group-dev/m5")
	m1, _ := c.At(group, "source-fcdcde36")
	for _, tc := range []struct{ what, got, want string }{
		{"m4 before (skips pending m3)", ref(m4.Before()), "openprogram/group-dev/m2"},
		{"m2 after (skips pending m3)", ref(m2.After()), "openprogram/group-dev/m4"},
		{"m5 after", ref(m5.After()), "none"},
		{"m5 before", ref(m5.Before()), "openprogram/group-dev/m4"},
		{"m1 before", ref(m1.Before()), "none"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.what, tc.got, tc.want)
		}
	}
	// msg-9 is in the legacy archive and in its v2 copy: only the frame is
	// the preferred, visible record.
	for r := range c.Records("sources/openprogram/old-chat.md") {
		if r.Ref() == "openprogram/old-chat/msg-9" && r.Visible() {
			t.Error("the legacy msg-9 shadowed by its v2 frame is visible")
		}
	}
	if r, ok := c.Source("openprogram/old-chat/msg-9"); !ok || r.Path() != "sources/openprogram/_v2/old-chat.md" || !r.Visible() {
		t.Errorf("msg-9 preferred: %v %s", ok, r.Path())
	}
	core, ok := c.Topic("topics/core.md")
	if !ok {
		t.Fatal("no topics/core.md")
	}
	trusted := map[string]bool{}
	for _, b := range core.File().Blocks() {
		trusted[b.BlockID] = core.Trusted(b)
	}
	if !trusted["f888f60e"] || trusted["deadbeef"] {
		t.Errorf("core.md blocks' trust: %v (deadbeef cites pending m3)", trusted)
	}
	if !c.SameTopic(c, "topics/core.md") || !c.SameArchive(c, group) || c.SameArchive(c, "sources/none.md") {
		t.Error("a corpus is not the same parse as itself")
	}
}
