package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

func listing() *Listing {
	m := New()
	m.Put(&Entry{Path: "topics/a.md", Blocks: []string{"0000000a", "0000000b"}, Cites: []string{"sources/x/_v2/t.md", "sources/gone/_v2/g.md"}})
	m.Put(&Entry{Path: "topics/b.md", Blocks: []string{"0000000b"}})
	m.Put(&Entry{Path: "sources/x/_v2/t.md", Records: 3, Pending: []string{"x/t/2", "x/t/3"}, Foreign: []string{"y/u/9"}})
	m.Put(&Entry{Path: "sources/x/t.md", Records: 1})
	m.Put(&Entry{Path: "sources/y/_v2/u.md", Records: 1, Pending: []string{"y/u/9"}})
	return &Listing{Topics: []string{"topics/a.md", "topics/b.md"},
		Archives: []string{"sources/x/_v2/t.md", "sources/x/t.md", "sources/y/_v2/u.md"}, M: m}
}

func TestListing_Lookups(t *testing.T) {
	l := listing()
	for _, c := range []struct {
		ref  string
		want []string
	}{
		{"topics/b.md#^0000000b", []string{"topics/b.md"}},
		{"./topics/b.md#x", []string{"topics/b.md"}},
		{"^0000000b", []string{"topics/a.md"}}, // the first topic in path order
		{"0000000a", []string{"topics/a.md"}},
		{"x/t/1", []string{"sources/x/_v2/t.md", "sources/x/t.md"}}, // the thread's v2 and legacy archives
		{"y/u/9", []string{"sources/x/_v2/t.md", "sources/y/_v2/u.md"}},
		{"z/w/1", nil},
		{"^0000000c", nil},
	} {
		if got := l.PathsForRef(c.ref); !reflect.DeepEqual(got, c.want) {
			t.Errorf("PathsForRef(%q) = %v, want %v", c.ref, got, c.want)
		}
	}
	got := l.PendingPaths(map[string]bool{"x/t/3": true})
	want := []string{"sources/x/_v2/t.md", "sources/x/t.md", "sources/x/_v2/t.md", "sources/y/_v2/u.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PendingPaths = %v, want %v", got, want)
	}
	cites := l.WithCites([]string{"topics/a.md", "topics/unlisted.md"})
	if want := map[string]bool{"topics/a.md": true, "sources/x/_v2/t.md": true}; !reflect.DeepEqual(cites, want) {
		t.Errorf("WithCites = %v, want %v (an unlisted path or citation is left out)", cites, want)
	}
}

func TestReconcile(t *testing.T) {
	m := New()
	m.Put(&Entry{Path: "topics/gone.md", Sig: Sig{Size: 1}})
	m.Put(&Entry{Path: "topics/same.md", Sig: Sig{Size: 2, MtimeNS: 1}})
	m.Put(&Entry{Path: "topics/moved.md", Sig: Sig{Size: 3}})
	listed := map[string]Sig{"topics/same.md": {Size: 2, MtimeNS: 1}, "topics/moved.md": {Size: 4}, "topics/new.md": {Size: 5}}
	var refreshed []string
	refresh := func(p string) (*Entry, bool) {
		refreshed = append(refreshed, p)
		return &Entry{Path: p, Sig: listed[p]}, true
	}
	content := func(string) ([]byte, error) { return nil, os.ErrNotExist }
	changed, ok := m.Reconcile(listed, content, refresh)
	if !changed || !ok {
		t.Fatalf("changed %v ok %v", changed, ok)
	}
	if got := m.Paths(); !reflect.DeepEqual(got, []string{"topics/moved.md", "topics/new.md", "topics/same.md"}) {
		t.Errorf("paths %v", got)
	}
	if len(refreshed) != 2 || m.Get("topics/moved.md").Size != 4 {
		t.Errorf("refreshed %v, moved entry %+v", refreshed, m.Get("topics/moved.md"))
	}
	if changed, ok := m.Reconcile(listed, content, refresh); changed || !ok || len(refreshed) != 2 {
		t.Errorf("a second reconcile changed %v ok %v refreshed %v: nothing moved", changed, ok, refreshed)
	}
	listed["topics/new.md"] = Sig{Size: 6}
	if _, ok := m.Reconcile(listed, content, func(string) (*Entry, bool) { return nil, false }); ok {
		t.Error("a file changing under the read must stop the reconcile")
	}
}

func TestReadWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	if m := Read(p); m.Len() != 0 {
		t.Fatal("a missing manifest reads as empty")
	}
	Write(dir, p, sample(), time.Unix(0, 42))
	if got := Read(p); !reflect.DeepEqual(got.Paths(), sample().Paths()) {
		t.Fatalf("read back %v", got.Paths())
	}
	if err := os.WriteFile(p, []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m := Read(p); m.Len() != 0 {
		t.Fatal("a damaged manifest reads as empty, never partial")
	}
}

func TestEntries(t *testing.T) {
	f, _ := topic.Parse([]byte("# A\n\nA fact.[^e-0000000001] ^0000000a\n\n[^e-0000000001]: Time: `2026-08-10`; Sources: [x/t/1](../sources/x/_v2/t.md#source-fcdcde36)\n"))
	ent := TopicEntry("topics/a.md", f, f.Definitions())
	if !reflect.DeepEqual(ent.Blocks, []string{"0000000a"}) || !reflect.DeepEqual(ent.Cites, []string{"sources/x/_v2/t.md"}) {
		t.Errorf("topic entry %+v", ent)
	}
	frames := []archive.Frame{{SourceID: "x/t/1"}, {SourceID: "x/t/2", Pending: true}, {SourceID: "y/u/3"}}
	ent = ArchiveEntry("sources/x/_v2/t.md", "x", "t", frames, []archive.LegacyRecord{{SourceID: "z/w/4"}})
	if ent.Records != 4 || !reflect.DeepEqual(ent.Pending, []string{"x/t/2"}) || !reflect.DeepEqual(ent.Foreign, []string{"y/u/3", "z/w/4"}) {
		t.Errorf("archive entry %+v", ent)
	}
	var c Cached
	n := 0
	build := func() *Entry { n++; return &Entry{Path: "p"} }
	a, b := c.Get(build), c.Get(build)
	if n != 1 || a == b {
		t.Errorf("built %d times; copies shared: %v", n, a == b)
	}
}

// TestTopicEntry_CitesEachArchiveOnce: a topic citing archives many times
// over, through links that differ but resolve alike and links that leave
// the workspace, lists each archive once, sorted: what resolving every
// citation gives.
func TestTopicEntry_CitesEachArchiveOnce(t *testing.T) {
	links := []string{"../sources/x/_v2/t.md", "../sources/./x/_v2/t.md", "../sources/y/_v2/u.md", "../../outside.md",
		"/abs.md", "../sources/x/_v2/../_v2/t.md", "../sources/z/legacy.md"}
	var b strings.Builder
	b.WriteString("# A\n\n")
	for i := range 40 {
		fmt.Fprintf(&b, "Fact %d.[^e-%010d] ^%08x\n\n", i, i, i+10)
	}
	for i := range 40 {
		fmt.Fprintf(&b, "[^e-%010d]: Time: `2026-08-10`; Sources: [x/t/%d](%s#source-fcdcde36), [x/t/%d](%s#source-fcdcde37)\n",
			i, i, links[i%len(links)], i, links[(i*3+1)%len(links)])
	}
	f, probs := topic.Parse([]byte(b.String()))
	if f == nil {
		t.Fatalf("parse: %v", probs)
	}
	var want []string
	for _, d := range f.Definitions() {
		for _, c := range d.Sources {
			if p := topic.ResolvePath("topics/a.md", c.Path); p != "" && !slices.Contains(want, p) {
				want = append(want, p)
			}
		}
	}
	slices.Sort(want)
	if got := TopicEntry("topics/a.md", f, f.Definitions()); !reflect.DeepEqual(got.Cites, want) || len(want) != 3 {
		t.Errorf("cites %v, want %v", got.Cites, want)
	}
}
