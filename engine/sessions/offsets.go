package sessions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// fileOffsetsSchema keeps, per file a resumable import reads (a Claude
// Code transcript the hook imports event after event), how far it has
// read: the offset is stored in the transaction that stores the turns
// before it, so the two never disagree. No conversation text is kept
// here: the parser state holds ids and links only.
const fileOffsetsSchema = `CREATE TABLE file_offsets (
	path    TEXT PRIMARY KEY,   -- absolute
	format  TEXT NOT NULL,
	offset  INTEGER NOT NULL CHECK (offset >= 0),  -- bytes read: the end of the last whole line
	size    INTEGER NOT NULL,   -- the file's size when it was read
	head    BLOB NOT NULL,      -- a hash of its first bytes: the same file
	state   BLOB NOT NULL,      -- the parser's state at offset
	updated TEXT NOT NULL
)`

// FileOffset is how far a resumable import has read one file.
type FileOffset struct {
	// Path is the file's absolute path.
	Path   string
	Format string
	// Offset is the number of bytes read and stored: the end of the last
	// whole line.
	Offset int64
	// Size is the file's size when it was read: more is left to read when
	// the file is now larger than Offset.
	Size int64
	// Head identifies the file (a hash of its first bytes): a file
	// replaced under the same path is read from its start again.
	Head []byte
	// State is the format parser's state at Offset.
	State []byte
}

// FileOffset returns what is stored for path; ok is false when nothing is.
func (s *Store) FileOffset(ctx context.Context, path string) (o FileOffset, ok bool, err error) {
	o.Path = path
	err = s.db.QueryRowContext(ctx, `SELECT format, offset, size, head, state FROM file_offsets WHERE path = ?`, path).
		Scan(&o.Format, &o.Offset, &o.Size, &o.Head, &o.State)
	if errors.Is(err, sql.ErrNoRows) {
		return FileOffset{}, false, nil
	}
	if err != nil {
		return FileOffset{}, false, fmt.Errorf("read the import offset of %s: %w", path, err)
	}
	return o, true, nil
}

// FileOffsets lists every stored offset, by path, without the parser
// states.
func (s *Store) FileOffsets(ctx context.Context) ([]FileOffset, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT path, format, offset, size FROM file_offsets ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("list import offsets: %w", err)
	}
	defer rows.Close()
	var out []FileOffset
	for rows.Next() {
		var o FileOffset
		if err := rows.Scan(&o.Path, &o.Format, &o.Offset, &o.Size); err != nil {
			return nil, fmt.Errorf("list import offsets: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// SetFileOffset stores o when the batch commits, with the turns it
// stored: an offset never gets ahead of the turns before it.
func (b *ImportBatch) SetFileOffset(o FileOffset) {
	b.offsets = append(b.offsets, o)
}

// storeOffsets writes the batch's offsets inside its transaction.
func (b *ImportBatch) storeOffsets() error {
	if len(b.offsets) == 0 {
		return nil
	}
	if err := b.begin(); err != nil {
		return b.fail(err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	for _, o := range b.offsets {
		if o.Head == nil {
			o.Head = []byte{}
		}
		if o.State == nil {
			o.State = []byte{}
		}
		_, err := b.tx.ExecContext(b.ctx, `INSERT INTO file_offsets(path, format, offset, size, head, state, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(path) DO UPDATE SET format = excluded.format, offset = excluded.offset, size = excluded.size,
				head = excluded.head, state = excluded.state, updated = excluded.updated`,
			o.Path, o.Format, o.Offset, o.Size, o.Head, o.State, now)
		if err != nil {
			return b.fail(fmt.Errorf("store the import offset of %s: %w", o.Path, err))
		}
	}
	return nil
}
