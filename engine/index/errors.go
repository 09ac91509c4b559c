package index

import "errors"

var (
	// ErrEmptyQuery is returned by Search when the query text is empty or only
	// white space.
	ErrEmptyQuery = errors.New("index: empty query")

	// ErrQueryTooLong is returned by Search when the query text is longer than
	// MaxQueryRunes runes.
	ErrQueryTooLong = errors.New("index: query too long")

	// ErrInvalidQuery is returned by Search when an option is malformed: an
	// unknown sort or kind, or Since after Until.
	ErrInvalidQuery = errors.New("index: invalid query")

	// ErrInvalidBound is returned by ParseBound when a date bound is neither
	// YYYY-MM-DD nor an RFC 3339 time.
	ErrInvalidBound = errors.New("index: invalid date bound")

	// ErrLocked is returned by Open when another handle, in this or another
	// process, holds the index open for longer than Options.LockTimeout.
	ErrLocked = errors.New("index: locked by another handle")

	// ErrClosed is returned by every method called after Close, or after a
	// failed Rebuild left no usable index (reopen it).
	ErrClosed = errors.New("index: closed")

	// ErrReadOnly is returned by a write to a handle opened ReadOnly.
	ErrReadOnly = errors.New("index: opened read-only")

	// ErrUnavailable is returned by a ReadOnly Open when the index on disk
	// is missing, of another format or unreadable: only a writable open
	// may repair it.
	ErrUnavailable = errors.New("index: not usable read-only (missing, other format or damaged)")
)
