package recall

import (
	"reflect"
	"testing"

	"scriptorium/engine"
	"scriptorium/workspace/topic"
)

// lookUp is the per-block look-up blocksIn replaced: a scan of the file
// for the first block of id, its footnotes read again each time.
func lookUp(p string, rf *engine.RecallFile, id string) (Block, bool) {
	if !rf.Trusted[id] {
		return Block{}, false
	}
	heading, level := "", 0
	defs := rf.File.Definitions()
	for _, el := range rf.File.Elements {
		if el.Kind == topic.KindHeading {
			heading, level = el.Heading, el.Level
			continue
		}
		if el.Kind != topic.KindBlock || el.BlockID != id {
			continue
		}
		b := Block{ID: id, Path: p, Heading: heading, Level: level, Text: topic.BlockText(el)}
		for _, r := range el.Refs {
			d, ok := defs[r.Label]
			if !ok {
				continue
			}
			b.Date = max(b.Date, d.Date)
			for _, c := range d.Sources {
				b.Cites = append(b.Cites, c.SourceID)
			}
		}
		return b, true
	}
	return Block{}, false
}

// TestBlocksIn_AsTheLookUp: the one-pass read of a file's blocks gives
// each id exactly what a look-up of it gave: the first block of a repeated
// id under its own heading, dates and citations from its footnotes, and
// nothing for an untrusted id or one the file does not hold.
func TestBlocksIn_AsTheLookUp(t *testing.T) {
	src := "# Facts\n\n" +
		"The owner keeps bees on the roof.[^e-c000000001] ^0000000a\n\n" +
		"## Later\n\n" +
		"The bees moved to the garden.[^e-c000000002][^e-c000000001] ^0000000b\n\n" +
		"A second block of the first id. ^0000000a\n\n" +
		"Not trusted.[^e-c000000002] ^0000000c\n\n" +
		"[^e-c000000001]: Time: `2026-03-01`; Sources: [telegram/s1/1](../sources/telegram/_v2/s1.md#source-00000001)\n\n" +
		"[^e-c000000002]: Time: `2026-04-02`; Sources: [telegram/s1/2](../sources/telegram/_v2/s1.md#source-00000002)\n"
	f, problems := topic.Parse([]byte(src))
	if f == nil {
		t.Fatalf("parse: %v", problems)
	}
	rf := &engine.RecallFile{File: f, Trusted: map[string]bool{"0000000a": true, "0000000b": true}}
	got := blocksIn("topics/facts.md", rf)
	if len(got) != 2 {
		t.Fatalf("blocks %v, want the two trusted ids", got)
	}
	for _, id := range []string{"0000000a", "0000000b", "0000000c", "0000000d"} {
		want, ok := lookUp("topics/facts.md", rf, id)
		if b, has := got[id]; has != ok || !reflect.DeepEqual(b, want) {
			t.Errorf("%s: %+v (%v), the look-up %+v (%v)", id, b, has, want, ok)
		}
	}
	if b := got["0000000b"]; b.Heading != "Later" || len(b.Cites) != 2 || b.Date != "2026-04-02" {
		t.Errorf("block b: %+v", b)
	}
}
