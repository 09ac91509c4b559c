package discord

import (
	"io"
	"strconv"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
)

// DefaultChunkBytes is what Stream hands over at a time when asked for 0
// (turn text and per-turn overhead): the other streamed formats' chunk.
const DefaultChunkBytes = chunks.DefaultBytes

// Stream reads one export as Parse does, but hands its turns to emit a
// chunk at a time, once the chunk holds about chunkBytes (0:
// DefaultChunkBytes) of turn text and per-turn overhead, so that a channel
// of any size is never held whole: memory is bounded by a chunk and eight
// bytes or so per message id (a duplicate is an id seen before). The
// channel's turns are chained in the file's order, which is the order the
// exporter writes (oldest first), so a turn's parent is in its chunk or an
// earlier one. A file whose "channel" comes after its messages is held
// until the channel is read. The turns, their order, the skips and the
// errors are Parse's; an error may come after chunks were emitted (nothing
// of the file should then be imported), and an error of emit ends the
// stream with it. With a nil emit every turn is kept in the returned
// Result, as Parse does; otherwise the Result holds only the skips.
func Stream(r io.Reader, name string, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	ex := &export{}
	c := &chain{buf: &chunks.Buffer{Emit: emit, Bytes: chunkBytes}}
	var early []*message // messages read before the channel
	err := read(newJSONFile(r, name), ex, func(m *message) error {
		if !ex.hasChannel {
			early = append(early, m)
			return nil
		}
		c.ch = ex.channel
		return c.add(m)
	})
	if err != nil {
		return transcript.Result{}, err
	}
	c.ch = ex.channel
	for _, m := range early {
		if err := c.add(m); err != nil {
			return transcript.Result{}, err
		}
	}
	if err := c.buf.Flush(); err != nil {
		return transcript.Result{}, err
	}
	if emit == nil {
		c.res.Turns = c.buf.Turns
	}
	return c.res, nil
}

// chain makes one export's messages, in file order, its channel's session:
// each kept turn's parent is the one before it, and a message id read
// before is a duplicate (the first copy is kept: it may be stored already).
type chain struct {
	ch   channel
	res  transcript.Result
	last string

	// seen holds the ids read: a snowflake as its number, any other id as
	// itself.
	seen    map[uint64]struct{}
	seenStr map[string]struct{}

	buf *chunks.Buffer // the turns not yet handed on (every turn, with no emit)

	// unique says the caller hands each id once (a merge of exports):
	// nothing to note.
	unique bool
}

// add makes m the session's next turn, or counts why it is not one.
func (c *chain) add(m *message) error {
	if !c.unique && c.dup(m.ID) {
		c.res.Skip(ReasonDuplicate)
		return nil
	}
	turn, reason := m.turn(c.ch)
	if reason != "" {
		c.res.Skip(reason)
		return nil
	}
	turn.Parent = c.last
	c.last = m.ID
	return c.buf.Add(turn)
}

// dup reports whether id was read before, and notes it.
func (c *chain) dup(id string) bool {
	if n, ok := snowflake(id); ok {
		if c.seen == nil {
			c.seen = map[uint64]struct{}{}
		}
		_, ok := c.seen[n]
		c.seen[n] = struct{}{}
		return ok
	}
	if c.seenStr == nil {
		c.seenStr = map[string]struct{}{}
	}
	_, ok := c.seenStr[id]
	c.seenStr[id] = struct{}{}
	return ok
}

// snowflake is id as a number when it is one written plainly (no leading
// zero, no sign): then no other id has that number.
func snowflake(id string) (uint64, bool) {
	n, err := strconv.ParseUint(id, 10, 64)
	return n, err == nil && (id[0] != '0' || id == "0")
}
