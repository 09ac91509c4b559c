package deps

import (
	"reflect"
	"testing"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

const file = "# A\n\nCopper on Fridays.[^e-0000000001] See [B](b.md). ^0000000a\n\nNo source.[^e-0000000009] ^0000000b\n\n" +
	"[^e-0000000001]: Time: `2026-08-10`; Sources: [x/t/m1](../sources/x/_v2/t.md#source-fcdcde36)\n"

func TestOfTopic(t *testing.T) {
	f, _ := topic.Parse([]byte(file))
	d := OfTopic("topics/a.md", f, f.Definitions())
	if !reflect.DeepEqual(d.IDs, []string{"0000000a", "0000000b"}) || !reflect.DeepEqual(d.Refs, []string{"x/t/m1"}) ||
		!reflect.DeepEqual(d.Targets, []string{"sources/x/_v2/t.md", "topics/b.md"}) {
		t.Fatalf("deps %+v", d)
	}
	want := []BlockCites{{Defined: true, Keys: []string{"sources/x/_v2/t.md#source-fcdcde36"}, Refs: []string{"x/t/m1"}}, {Defined: false}}
	if !reflect.DeepEqual(d.Blocks, want) {
		t.Errorf("blocks %+v, want %+v (a reference without its definition is not defined)", d.Blocks, want)
	}
}

func TestAddAnchors(t *testing.T) {
	f, _ := topic.Parse([]byte(file + "\nTwo.[^e-0000000002] ^0000000c\n\n" +
		"[^e-0000000002]: Time: `2026-08-10`; Sources: [x/t/m2](../sources/x/_v2/t.md#source-00000002), [y/u/m1](../sources/y/_v2/u.md#source-00000003)\n"))
	cited := map[string]map[string]bool{"sources/x/_v2/t.md": {"source-0000000f": true}}
	AddAnchors(cited, "topics/a.md", f.Definitions())
	want := map[string]map[string]bool{
		"sources/x/_v2/t.md": {"source-0000000f": true, "source-fcdcde36": true, "source-00000002": true},
		"sources/y/_v2/u.md": {"source-00000003": true},
	}
	if !reflect.DeepEqual(cited, want) {
		t.Errorf("cited %v, want %v", cited, want)
	}
}

func TestIndex_AddDrop(t *testing.T) {
	var x Index
	a := &Topic{Targets: []string{"sources/x/_v2/t.md"}, Refs: []string{"x/t/1"}, IDs: []string{"0000000a"}}
	b := &Topic{Targets: []string{"sources/x/_v2/t.md"}, IDs: []string{"0000000a"}}
	x.AddTopic("topics/a.md", a)
	x.AddTopic("topics/b.md", b)
	x.AddArchive("sources/x/_v2/t.md", []archive.Frame{{SourceID: "x/t/1"}, {SourceID: "x/t/1"}, {SourceID: "y/u/2"}})
	x.AddArchive("sources/y/_v2/u.md", []archive.Frame{{SourceID: "y/u/2"}})
	if got := SortedKeys(keys(x.Citers("sources/x/_v2/t.md"))); !reflect.DeepEqual(got, []string{"topics/a.md", "topics/b.md"}) {
		t.Errorf("citers %v", got)
	}
	if len(x.Holding("0000000a")) != 2 || len(x.Citing("x/t/1")) != 1 || len(x.ArchivesHolding("y/u/2")) != 2 {
		t.Errorf("holding %v citing %v archives %v", x.Holding("0000000a"), x.Citing("x/t/1"), x.ArchivesHolding("y/u/2"))
	}
	if got := x.ArchiveRefs("sources/x/_v2/t.md"); !reflect.DeepEqual(got, []string{"x/t/1", "y/u/2"}) {
		t.Errorf("archive refs %v", got)
	}
	x.DropTopic("topics/a.md", a)
	x.DropArchive("sources/x/_v2/t.md")
	if x.Citing("x/t/1") != nil || len(x.Holding("0000000a")) != 1 || len(x.ArchivesHolding("y/u/2")) != 1 || x.ArchiveRefs("sources/x/_v2/t.md") != nil {
		t.Errorf("after drops: citing %v holding %v archives %v", x.Citing("x/t/1"), x.Holding("0000000a"), x.ArchivesHolding("y/u/2"))
	}
	x.DropTopic("topics/b.md", b)
	x.DropArchive("sources/y/_v2/u.md")
	if len(x.citers)+len(x.refCite)+len(x.idHold)+len(x.refHold)+len(x.archRefs) != 0 {
		t.Errorf("an index emptied of its files keeps entries: %+v", x)
	}
}

func keys(m map[string]int) map[string]bool {
	out := map[string]bool{}
	AddKeys(out, m)
	return out
}
