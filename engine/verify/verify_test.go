package verify

import (
	"strings"
	"testing"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// fakeWS is a workspace of one topic file and one archive holding s1
// under anchor source-a1.
type fakeWS struct{ topics map[string]*topic.File }

func (w fakeWS) TopicFile(p string) (*topic.File, bool) { f, ok := w.topics[p]; return f, ok }
func (w fakeWS) IsArchive(p string) bool                { return p == "sources/t/_v2/c.md" }
func (w fakeWS) AnchorRef(p, a string) (string, bool) {
	return "s1", p == "sources/t/_v2/c.md" && a == "source-a1"
}
func (w fakeWS) ArchiveAnchor(p, ref string) (string, bool) {
	return "source-a1", p == "sources/t/_v2/c.md" && ref == "s1"
}

func TestUnresolvedNamesWhatFails(t *testing.T) {
	w := fakeWS{}
	cases := []struct {
		c      topic.Citation
		target string
		want   string
	}{
		{topic.Citation{SourceID: "s1", Path: "../x", Anchor: "source-a1"}, "", "leaves the workspace"},
		{topic.Citation{SourceID: "s1", Anchor: "source-a1"}, "sources/none.md", "no source archive at sources/none.md"},
		{topic.Citation{SourceID: "s9", Anchor: "source-a1"}, "sources/t/_v2/c.md", "holds source-id s1"},
		{topic.Citation{SourceID: "s1", Anchor: "source-zz"}, "sources/t/_v2/c.md", "holds s1 under anchor source-a1"},
		{topic.Citation{SourceID: "s7", Anchor: "source-zz"}, "sources/t/_v2/c.md", "has no valid frame with anchor source-zz"},
	}
	for _, c := range cases {
		v := Unresolved(w, "topics/a.md", 3, c.c, c.target)
		if v.Code != "unresolved_source" || v.Line != 3 || !strings.Contains(v.Message, c.want) {
			t.Errorf("%+v: got %+v, want message with %q", c.c, v, c.want)
		}
	}
}

func TestLinkAndArchiveRules(t *testing.T) {
	f, _ := topic.Parse([]byte("# B\n\nA fact. ^0badc0de\n"))
	w := fakeWS{topics: map[string]*topic.File{"topics/b.md": f}}
	for _, c := range []struct {
		l   topic.Link
		bad bool
	}{
		{topic.Link{Path: "b.md", BlockID: "0badc0de", Target: "b.md#^0badc0de"}, false},
		{topic.Link{Path: "b.md", BlockID: "zz", Target: "b.md#^zz"}, true},
		{topic.Link{Path: "gone.md", Target: "gone.md"}, true},
		{topic.Link{Path: "notes.txt", Target: "notes.txt"}, false},
		{topic.Link{Path: "../sources/t/_v2/c.md", Anchor: "source-a1"}, false},
		{topic.Link{Path: "../sources/t/_v2/c.md", Anchor: "source-zz"}, true},
	} {
		if _, bad := Link(w, "topics/a.md", c.l); bad != c.bad {
			t.Errorf("link %+v: broken %v, want %v", c.l, bad, c.bad)
		}
	}
	seen := map[string]string{}
	vs := Archive("sources/a.md", &archive.FrameError{Line: 9, FrameLine: 7, Reason: "cut"},
		[]archive.Frame{{SourceID: "s1", Line: 2}}, seen)
	vs = append(vs, Archive("sources/b.md", nil, []archive.Frame{{SourceID: "s1", Line: 4}}, seen)...)
	if len(vs) != 2 || vs[0].Code != "invalid_frame" || !strings.Contains(vs[0].Message, "starts at line 7") ||
		vs[1].Code != "duplicate_source" || vs[1].Path != "sources/b.md" {
		t.Errorf("archive violations %+v", vs)
	}
}
