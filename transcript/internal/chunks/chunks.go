// Package chunks owns how a parser that must read a file to its end before
// any turn is final (Codex: the latest thread name on every turn; Gemini:
// a message rewritten whole when it is updated, and the latest summary on
// every turn) still hands its turns to a store a chunk at a time, so that
// the store's nodes and records for the file are never all alive at once.
//
// It is internal because only the parsers under transcript/ use it.
package chunks

import "scriptorium/transcript"

// DefaultBytes is a chunk when a caller asks for 0, as the streamed
// parsers' own (turn text and per-turn overhead).
const DefaultBytes = 4 << 20

// Overhead is what a turn costs an import besides its text (the turn's
// fields, its node and its record in the store's batch), counted against a
// chunk's bytes: short messages counted by text alone would let a chunk
// hold many times its size in turns.
const Overhead = 512

// Emit hands turns to emit in order, a chunk of about chunkBytes (0:
// DefaultBytes) at a time. Each chunk is a copy, and the turns it took are
// cleared in turns, so that a chunk the store has taken and dropped is
// freed while the rest wait (turns must not be read after). It returns
// emit's first error.
func Emit(turns []transcript.Turn, chunkBytes int, emit func([]transcript.Turn) error) error {
	if chunkBytes <= 0 {
		chunkBytes = DefaultBytes
	}
	for start := 0; start < len(turns); {
		end, held := start, 0
		for end < len(turns) && (end == start || held < chunkBytes) {
			held += len(turns[end].Content) + Overhead
			end++
		}
		chunk := make([]transcript.Turn, end-start)
		copy(chunk, turns[start:end])
		clear(turns[start:end])
		if err := emit(chunk); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// HandOver is the end of a Stream that holds a file's turns to its end
// (Codex, Gemini): with a nil emit the read's Result is returned as it
// is; otherwise its turns go to emit a chunk at a time and the Result
// keeps only the skips. A read's error is returned as it is.
func HandOver(res transcript.Result, err error, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	if err != nil || emit == nil {
		return res, err
	}
	err = Emit(res.Turns, chunkBytes, emit)
	res.Turns = nil
	return res, err
}
