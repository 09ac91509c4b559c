package topic

import "testing"

func TestPinnedEnd(t *testing.T) {
	for _, c := range []struct {
		doc  string
		want string // Raw of the first element after the pinned section; "" for none or the end
	}{
		{"# Core\n\n## Pinned\n\nA fact. ^0000000a\n\n## Work\n\nB. ^0000000b\n", "## Work"},
		{"# Core\n\n## Pinned\n\nA fact. ^0000000a\n\n### Sub\n\nC. ^0000000c\n", ""},
		{"# Core\n\nA fact. ^0000000a\n", ""},
	} {
		f, _ := Parse([]byte(c.doc))
		end := PinnedEnd(f.Elements)
		got := ""
		if end > 0 && end < len(f.Elements) {
			got = f.Elements[end].Raw
		}
		if got != c.want {
			t.Errorf("%q: after the pinned section %q (index %d), want %q", c.doc, got, end, c.want)
		}
	}
	f, _ := Parse([]byte("# Core\n\nA fact. ^0000000a\n"))
	if PinnedEnd(f.Elements) != 0 {
		t.Error("no pinned section: 0")
	}
	f, _ = Parse([]byte("# Core\n\n## Pinned\n\nA. ^0000000a\n"))
	if PinnedEnd(f.Elements) != len(f.Elements) {
		t.Error("a pinned section running to the end: len(elements)")
	}
}
