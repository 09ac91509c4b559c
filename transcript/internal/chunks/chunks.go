// Package chunks owns how a streaming parser hands its turns to a store a
// chunk at a time, so that the store's nodes and records for a file are
// never all alive at once: Buffer for a parser whose turns are final as it
// reads them (Telegram, Discord, Slack, a WhatsApp chat once its end
// decided the date order), Emit and HandOver for one that must read a
// file to its end before any turn is (Codex: the latest thread name on
// every turn; Gemini: a message rewritten whole when it is updated, and
// the latest summary on every turn).
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

// Buffer gathers a parser's turns into chunks of about Bytes (0:
// DefaultBytes) of text and Overhead, handing each to Emit; with a nil
// Emit it keeps every turn in Turns (Parse's Result).
type Buffer struct {
	Emit  func([]transcript.Turn) error
	Bytes int
	Turns []transcript.Turn
	held  int
}

// Add appends t and hands the chunk on once it is full.
func (b *Buffer) Add(t transcript.Turn) error {
	b.Turns = append(b.Turns, t)
	if b.Emit == nil {
		return nil
	}
	b.held += len(t.Content) + Overhead
	limit := b.Bytes
	if limit <= 0 {
		limit = DefaultBytes
	}
	if b.held < limit {
		return nil
	}
	return b.Flush()
}

// Flush hands on the turns held, if any (a file's end). With a nil Emit
// it does nothing: the turns stay in Turns.
func (b *Buffer) Flush() error {
	if b.Emit == nil || len(b.Turns) == 0 {
		return nil
	}
	turns := b.Turns
	// The next chunk is about as long: grow it once.
	b.Turns, b.held = make([]transcript.Turn, 0, len(turns)), 0
	return b.Emit(turns)
}
