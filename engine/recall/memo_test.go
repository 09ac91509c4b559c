package recall

import (
	"runtime"
	"testing"

	"scriptorium/engine"
	"scriptorium/workspace/topic"
)

// TestBlocksOf_KeptWithTheFile: the blocks taken out of one RecallFile are
// taken once (a long-lived engine hands out the same one per snapshot);
// another RecallFile of the same path (the next snapshot, where a block's
// trust changed) is taken out anew, never answered from the first.
func TestBlocksOf_KeptWithTheFile(t *testing.T) {
	src := "# Facts\n\n" +
		"The owner keeps bees.[^e-c000000001] ^0000000a\n\n" +
		"The bees moved.[^e-c000000001] ^0000000b\n\n" +
		"A repeat of the first id. ^0000000a\n\n" +
		"[^e-c000000001]: Time: `2026-03-01`; Sources: [telegram/s1/1](../sources/telegram/_v2/s1.md#source-00000001)\n"
	f, problems := topic.Parse([]byte(src))
	if f == nil {
		t.Fatalf("parse: %v", problems)
	}
	const p = "topics/bees.md"
	rf := &engine.RecallFile{File: f, Trusted: map[string]bool{"0000000a": true, "0000000b": true}}
	first := blocksOf(p, rf)
	if again := blocksOf(p, rf); again != first {
		t.Fatal("the same file's blocks were taken out again")
	}
	// The file's order, a repeated id shown at each place as the first
	// block of that id (as a per-file pass showed it before the memo).
	if got := first.order; len(got) != 3 || got[0].ID != "0000000a" || got[1].ID != "0000000b" || got[2].Text != got[0].Text {
		t.Fatalf("order: %+v", got)
	}
	next := &engine.RecallFile{File: f, Trusted: map[string]bool{"0000000a": true}}
	if got := blocksOf(p, next); got == first || len(got.order) != 2 || got.byID["0000000b"].ID != "" {
		t.Fatalf("the next snapshot's file (0000000b no longer trusted): %+v", got.order)
	}
}

// TestCleanBlock: a remembered cleaning is Clean's, and the memory of
// them stays bounded.
func TestCleanBlock(t *testing.T) {
	for i := 0; i < maxCleanMemo+10; i++ {
		s := "- user: a [link](x.md) item " + string(rune('a'+i%26)) + "[^e-c000000001]\n- another " + string(rune(0x4e00+i))
		for range 2 {
			if got, want := cleanBlock(s), Clean(s); got != want {
				t.Fatalf("%q: %q, Clean says %q", s, got, want)
			}
		}
	}
	if n := cleanMemo.Len(); n > maxCleanMemo {
		t.Errorf("%d cleanings remembered, bound %d", n, maxCleanMemo)
	}
}

// TestBlocksOf_Bounded: the memo never holds more than its bound, and a
// full memo lets go of the files no longer referenced first, keeping a
// live one (the current snapshot's core.md).
func TestBlocksOf_Bounded(t *testing.T) {
	f, _ := topic.Parse([]byte("# Facts\n\nThe owner keeps bees. ^0000000a\n"))
	gone := func() {
		blocksOf("topics/gone.md", &engine.RecallFile{File: f, Trusted: map[string]bool{"0000000a": true}})
	}
	blockMemo.Lock()
	clear(blockMemo.m)
	blockMemo.Unlock()
	live := &engine.RecallFile{File: f, Trusted: map[string]bool{"0000000a": true}}
	first := blocksOf("topics/core.md", live)
	for range maxBlockMemo - 1 {
		gone()
	}
	runtime.GC() // the gone files' weak pointers now read nil
	gone()       // the memo is full: the sweep
	if blocksOf("topics/core.md", live) != first {
		t.Error("a live file was let go while collected ones filled the memo")
	}
	for range 3 * maxBlockMemo {
		gone()
	}
	if n := len(blockMemo.m); n > maxBlockMemo {
		t.Errorf("%d files remembered, bound %d", n, maxBlockMemo)
	}
	runtime.KeepAlive(live)
}
