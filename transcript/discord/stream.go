package discord

import (
	"io"
	"strconv"

	"scriptorium/transcript"
)

// DefaultChunkBytes is what Stream hands over at a time when asked for 0
// (turn text and per-turn overhead): the other streamed formats' chunk.
const DefaultChunkBytes = 4 << 20

// turnOverhead is what a turn costs an import besides its text (ids, names,
// the node the store builds), counted towards a chunk.
const turnOverhead = 512

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
	if chunkBytes <= 0 {
		chunkBytes = DefaultChunkBytes
	}
	ex := &export{}
	c := &chain{emit: emit, chunkBytes: chunkBytes}
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
	if err := c.flush(0); err != nil {
		return transcript.Result{}, err
	}
	if emit != nil {
		c.res.Turns = nil // every turn went to emit
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

	emit       func([]transcript.Turn) error // nil: keep every turn
	chunkBytes int
	held       int // turn text and overhead in res.Turns
}

// add makes m the session's next turn, or counts why it is not one.
func (c *chain) add(m *message) error {
	if c.dup(m.ID) {
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
	c.res.Turns = append(c.res.Turns, turn)
	c.held += len(turn.Content) + turnOverhead
	return c.flush(c.chunkBytes)
}

// dup reports whether id was read before, and notes it.
func (c *chain) dup(id string) bool {
	if n, err := strconv.ParseUint(id, 10, 64); err == nil && (id[0] != '0' || id == "0") {
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

// flush hands the turns held to emit once they count at least atLeast
// bytes; with no emit they stay in the result.
func (c *chain) flush(atLeast int) error {
	if c.emit == nil || len(c.res.Turns) == 0 || c.held < atLeast {
		return nil
	}
	turns := c.res.Turns
	c.res.Turns, c.held = make([]transcript.Turn, 0, len(turns)), 0
	return c.emit(turns)
}
