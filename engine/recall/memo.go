package recall

import (
	"sync"
	"weak"

	"scriptorium/engine"
	"scriptorium/memo"
)

// fileBlocks is what a recall takes out of one topic file: its trusted
// blocks by id (blocksIn) and in the file's order.
type fileBlocks struct {
	byID  map[string]Block
	order []Block
}

// A long-lived engine hands out the same *engine.RecallFile for a topic
// file as long as its snapshot stands (engine.TrustedTopics memoises them
// per snapshot), and a RecallFile is never changed once handed out, so
// the blocks taken out of it are kept with it: core.md's every block was
// taken out again for every prompt, 7% of a served recall at 100k records
// (BENCHMARKS.md, round five of the resident prompt path). Keyed by a weak
// pointer, so the memo never keeps a replaced snapshot's file alive, and
// a file allocated later at the same address is a different key. A
// one-shot engine's files are new each time and only pass through.
var blockMemo = struct {
	sync.Mutex
	m map[memoKey]*fileBlocks
}{m: map[memoKey]*fileBlocks{}}

type memoKey struct {
	rf   weak.Pointer[engine.RecallFile]
	path string
}

// maxBlockMemo bounds the memo (a snapshot's core.md and the hit files of
// many prompts); the blocks' text keeps their file's bytes alive.
const maxBlockMemo = 512

// blocksOf is the trusted blocks of the file p read as rf, remembered
// with rf. The caller must not change what it returns.
func blocksOf(p string, rf *engine.RecallFile) *fileBlocks {
	key := memoKey{weak.Make(rf), p}
	blockMemo.Lock()
	fb, ok := blockMemo.m[key]
	blockMemo.Unlock()
	if ok {
		return fb
	}
	fb = &fileBlocks{byID: blocksIn(p, rf)}
	for _, el := range rf.File.Blocks() {
		if b, ok := fb.byID[el.BlockID]; ok {
			fb.order = append(fb.order, b)
		}
	}
	blockMemo.Lock()
	if len(blockMemo.m) >= maxBlockMemo {
		// The files of replaced snapshots go first; the current one's
		// core.md stays unless the memo is full of live files.
		for k := range blockMemo.m {
			if k.rf.Value() == nil {
				delete(blockMemo.m, k)
			}
		}
		if len(blockMemo.m) >= maxBlockMemo {
			clear(blockMemo.m)
		}
	}
	blockMemo.m[key] = fb
	blockMemo.Unlock()
	return fb
}

// cleanMemo remembers Clean of block texts: a resident process shows the
// same core blocks for every prompt, and cleaning them again (four regular
// expressions each) was 3% of a served recall.
var cleanMemo = memo.New(maxCleanMemo, Clean)

const maxCleanMemo = 8192

// cleanBlock is Clean(text), remembered.
func cleanBlock(text string) string { return cleanMemo.Get(text) }
