package claudecode

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/jsonlines"
)

// DefaultChunkBytes is how much turn text Stream holds before it hands
// the turns over: the memory a transcript of any size needs, besides the
// links of its lines.
const DefaultChunkBytes = 4 << 20

// ErrStop, returned by a Stream callback, ends the parse after that chunk:
// the returned State is where it stopped, and nothing is an error.
var ErrStop = errors.New("stop")

// StreamOptions configures Stream.
type StreamOptions struct {
	// From is where an earlier parse of the same file stopped (its
	// returned State); r must then read the file from From.Offset. Nil
	// reads the file from its start.
	From *State
	// ChunkBytes is the turn text held before the callback is called; 0
	// means DefaultChunkBytes.
	ChunkBytes int
	// Stop, when set, is asked after each whole line that ends with a line
	// feed, with the offset of its end: true hands over the turns held and
	// ends the parse there (a bound on one call's work; the State goes on).
	Stop func(offset int64) bool
}

// Stream reads a Claude Code transcript as Parse does, but hands its turns
// to emit a chunk at a time, in file order (parents first), so that the
// file is never held in memory. emit may keep the slice. A chunk ends at
// a line boundary; an emit error ends the parse and is returned, except
// ErrStop. The Result has the skip counts only.
//
// The State returned is where a later Stream can go on, when the file has
// grown: the end of the last line that was read whole and ended with a
// line feed (a last line still being written is read again next time,
// and the turn it gave, if any, is then a duplicate). It is the zero
// State's offset on an error.
func Stream(r io.Reader, name string, o StreamOptions, emit func([]transcript.Turn) error) (transcript.Result, State, error) {
	chunk := o.ChunkBytes
	if chunk <= 0 {
		chunk = DefaultChunkBytes
	}
	p := &parser{name: name, seen: map[string]link{}}
	var sc *jsonlines.Scanner
	at := State{}
	if o.From != nil {
		at = *o.From
		if at.seen != nil {
			p.seen = at.seen
		}
		sc = jsonlines.NewScannerAt(r, maxLineBytes, at.Offset, at.Line)
	} else {
		sc = jsonlines.NewScanner(r, maxLineBytes)
	}
	flush := func() error {
		if len(p.res.Turns) == 0 {
			return nil
		}
		turns := p.res.Turns
		p.res.Turns, p.held = nil, 0
		return emit(turns)
	}
	var pending error // a bad line that is forgiven if nothing follows it
	for sc.Scan() {
		raw, lineNo := sc.Bytes(), sc.Line()
		switch {
		case sc.TooLong():
			return transcript.Result{}, State{}, p.errorf(lineNo, "line is longer than %d bytes", maxLineBytes)
		case len(bytes.TrimSpace(raw)) == 0:
		case pending != nil:
			return transcript.Result{}, State{}, pending
		default:
			if truncatable, perr := p.line(raw, lineNo); perr != nil {
				if !truncatable {
					return transcript.Result{}, State{}, perr
				}
				pending = perr
				continue
			}
		}
		if sc.Terminated() {
			at.Offset, at.Line = sc.Offset(), lineNo
			if o.Stop != nil && o.Stop(at.Offset) {
				if err := flush(); err != nil && !errors.Is(err, ErrStop) {
					return transcript.Result{}, State{}, err
				}
				at.seen = p.seen
				return p.res, at, nil
			}
		}
		if p.held >= chunk {
			if err := flush(); err != nil {
				if errors.Is(err, ErrStop) {
					at.seen = p.seen
					return p.res, at, nil
				}
				return transcript.Result{}, State{}, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return transcript.Result{}, State{}, fmt.Errorf("%s:%d: read: %w", name, sc.Line(), err)
	}
	if pending != nil {
		p.res.Skip(ReasonTruncatedLastLine)
	}
	if err := flush(); err != nil && !errors.Is(err, ErrStop) {
		return transcript.Result{}, State{}, err
	}
	at.seen = p.seen
	return p.res, at, nil
}
