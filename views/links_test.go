package views

import (
	"testing"

	"scriptorium/engine/result"
)

// Rough edge: links in a block could not be followed. They are listed
// with the footnotes and enter opens what they point at.
func TestBlockLinks_ResolveAndFollow(t *testing.T) {
	b := result.BlockView{Path: "topics/people/craig.md", Text: "See [the plan](../projects/release.md#^1f2e3d4c), " +
		"[this file](#^0b1c2d3e), [the record](../../sources/openprogram/_v2/sess-7f2a.md#source-4f1f0000), " +
		"[out](../../../etc/passwd), [web](https://example.com) and ![img](x.png).[^e-1175dea39c]"}
	links := blockLinks(b)
	if len(links) != 4 {
		t.Fatalf("links = %+v, want 4 (web and image left out)", links)
	}
	want := []struct{ path, anchor string }{
		{"topics/projects/release.md", "^1f2e3d4c"},
		{"topics/people/craig.md", "^0b1c2d3e"},
		{"sources/openprogram/_v2/sess-7f2a.md", "source-4f1f0000"},
		{"", ""},
	}
	for i, w := range want {
		if links[i].path != w.path || (w.path != "" && links[i].anchor != w.anchor) {
			t.Errorf("link %d = %+v, want %+v", i, links[i], w)
		}
	}
	if msg := links[0].follow()(); msg != (OpenBlock{Path: "topics/projects/release.md", ID: "1f2e3d4c"}) {
		t.Errorf("following a block link sends %#v", msg)
	}
	if msg := links[2].follow()(); msg != (OpenArchive{Path: "sources/openprogram/_v2/sess-7f2a.md", Anchor: "source-4f1f0000"}) {
		t.Errorf("following a source link sends %#v", msg)
	}
	if msg, ok := links[3].follow()().(Notice); !ok || !msg.Err {
		t.Errorf("a link out of the workspace sends %#v", msg)
	}
}
