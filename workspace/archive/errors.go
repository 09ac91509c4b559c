package archive

import (
	"errors"
	"fmt"
)

var (
	// ErrInvalidSpeakerID is returned by DecodeSpeakerID when a value is not
	// exactly the canonical encoding of a valid UTF-8 id.
	ErrInvalidSpeakerID = errors.New("invalid speaker-id encoding")

	// ErrInvalidSegment is returned when a provider or thread name is not a
	// safe path segment.
	ErrInvalidSegment = errors.New("invalid path segment")

	// ErrInvalidSourceID is returned when a source-id is not
	// <provider>/<thread>/<message-id> or cannot be held in an HTML comment.
	ErrInvalidSourceID = errors.New("invalid source-id")

	// ErrInvalidRecord is returned by Record.Validate and Append when a record
	// cannot be archived as given.
	ErrInvalidRecord = errors.New("invalid record")

	// ErrNotV2 is returned (inside a *FrameError) when data does not start
	// with the v2 marker line.
	ErrNotV2 = errors.New("not a v2 source archive")

	// ErrInvalidFrame is returned (inside a *FrameError) when a v2 archive
	// holds an invalid or truncated frame, or bytes that are not a frame.
	ErrInvalidFrame = errors.New("invalid v2 frame")
)

// FrameError reports where parsing a v2 archive stopped. Frames before it are
// valid; nothing after it is read.
type FrameError struct {
	// Line is the 1-based line that is wrong (or where the data ran out).
	Line int
	// FrameLine is the 1-based line where the rejected frame starts: its
	// anchor line, or where an anchor was expected. 0 for a missing marker.
	FrameLine int
	// Reason says what is wrong, in a few words.
	Reason string

	err error // ErrNotV2 or ErrInvalidFrame
}

// Error implements error.
func (e *FrameError) Error() string {
	if e.FrameLine > 0 && e.FrameLine != e.Line {
		return fmt.Sprintf("%v at line %d (frame at line %d): %s", e.Unwrap(), e.Line, e.FrameLine, e.Reason)
	}
	return fmt.Sprintf("%v at line %d: %s", e.Unwrap(), e.Line, e.Reason)
}

// Unwrap returns ErrNotV2 or ErrInvalidFrame, for errors.Is.
func (e *FrameError) Unwrap() error {
	if e.err == nil {
		return ErrInvalidFrame
	}
	return e.err
}
