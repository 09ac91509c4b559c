package importer

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/transcript/claudecode"
	"scriptorium/workspace"
)

// Resume bounds a resumable import (Options.Resume): the hook's import of
// a transcript that grows event after event, and the daemon's, which
// finishes what the hook's bounds left. Each reads a file from the offset
// sessions.db stores for it (sessions.FileOffset), stores the turns it
// read and the new offset in one transaction, and so never parses the
// same line twice nor loses one.
type Resume struct {
	// MaxBytes bounds what one import reads past the stored offset; it
	// stops at the first line end at or past it. Zero reads to the end.
	MaxBytes int64
	// Until is when the import stops at the next line end, to commit what
	// it read in time; the zero time never stops.
	Until time.Time
	// Now is the clock Until is read against; nil means time.Now.
	Now func() time.Time
}

// headBytes is how much of a file's start identifies it: a transcript
// replaced under the same path is read again from its start.
const headBytes = 4 << 10

// resumed reads the Claude Code file f (named p) from its stored offset,
// within Options.Resume's bounds, and has the batch store where it
// stopped. A stored offset that does not fit the file (a shorter file,
// other first bytes, a state that does not decode) is dropped: the file
// is read from its start, and what was stored before is a duplicate.
func (im *run) resumed(p string, f *os.File, row format) error {
	abs, err := filepath.Abs(p)
	if err != nil {
		im.problem(p, err)
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		im.problem(p, err)
		return nil
	}
	if err := im.open(); err != nil {
		return err
	}
	stored, ok, err := im.target.store.FileOffset(im.ctx, abs)
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "import")
	}
	var from *claudecode.State
	if ok && stored.Format == string(row.name) && stored.Offset <= fi.Size() {
		var st claudecode.State
		if head, err := headHash(f, stored.Offset); err == nil && bytes.Equal(head, stored.Head) &&
			st.UnmarshalBinary(stored.State) == nil && st.Offset == stored.Offset {
			from = &st
		}
	}
	file := File{Path: p, Format: row.name}
	if from != nil {
		file.From = from.Offset
	}
	if _, err := f.Seek(file.From, io.SeekStart); err != nil {
		im.problem(p, err)
		return nil
	}
	rz := im.opts.Resume
	now := rz.Now
	if now == nil {
		now = time.Now
	}
	stop := func(off int64) bool {
		return (rz.MaxBytes > 0 && off-file.From >= rz.MaxBytes) || (!rz.Until.IsZero() && now().After(rz.Until))
	}
	var end claudecode.State
	res, parsed, err := im.streamWith(&file, row, func(emit func([]transcript.Turn) error) (transcript.Result, error) {
		src := &sourceReader{r: f, progress: im.opts.Progress}
		r, st, err := claudecode.Stream(src, p, claudecode.StreamOptions{From: from, ChunkBytes: streamChunkBytes, Stop: stop}, emit)
		end = st
		return r, err
	})
	if err != nil || !parsed {
		return err
	}
	state, err := end.MarshalBinary()
	if err != nil {
		return errcode.Wrap(errcode.IO, err, "import")
	}
	head, err := headHash(f, end.Offset)
	if err != nil {
		im.problem(p, err)
		return nil
	}
	im.batch.SetFileOffset(sessions.FileOffset{Path: abs, Format: string(row.name), Offset: end.Offset,
		Size: fi.Size(), Head: head, State: state})
	file.Left = max(0, fi.Size()-end.Offset)
	if file.From > 0 && file.Turns == 0 {
		// Nothing new since the last event: no warning about a file
		// without turns, it had them before.
		im.res.Files = append(im.res.Files, file)
		im.report(file)
		for k, n := range res.Skipped {
			im.res.Skipped[k] += n
		}
		return nil
	}
	im.finishFile(file, res)
	return nil
}

// headHash identifies the file f read up to offset: the hash of its first
// min(offset, headBytes) bytes.
func headHash(f *os.File, offset int64) ([]byte, error) {
	buf := make([]byte, min(offset, headBytes))
	if _, err := f.ReadAt(buf, 0); err != nil && !(err == io.EOF && len(buf) == 0) {
		return nil, err
	}
	h := sha256.Sum256(buf)
	return h[:], nil
}

// Unfinished lists the files a resumable import left unread: those whose
// stored offset is below their size now (the hook stopped at its bound,
// or the transcript grew since). A state dir without sessions.db has none.
func Unfinished(ctx context.Context, stateDir string) ([]string, error) {
	t, err := openExisting(stateDir)
	if t == nil || err != nil {
		return nil, err
	}
	defer t.Close()
	offsets, err := t.FileOffsets(ctx)
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "list unfinished imports")
	}
	var out []string
	for _, o := range offsets {
		if fi, err := os.Stat(o.Path); err == nil && fi.Mode().IsRegular() && fi.Size() > o.Offset {
			out = append(out, o.Path)
		}
	}
	return out, nil
}

// openExisting opens the state dir's sessions.db, or returns nil when
// there is none.
func openExisting(stateDir string) (*sessions.Store, error) {
	path := workspace.SessionsDB(stateDir)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	st, err := sessions.Open(path, &sessions.Options{BusyTimeout: time.Second})
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "open sessions.db")
	}
	return st, nil
}

// FinishUnfinished imports the rest of every file a resumable import left
// unread (Unfinished), each on its own and without bounds: the daemon's
// part of the hook's imports, whose message says the daemon finishes
// them. One file's failure never holds up the others; ctx ends the round.
func FinishUnfinished(ctx context.Context, stateDir string) ([]WatchResult, error) {
	paths, err := Unfinished(ctx, stateDir)
	if err != nil {
		return nil, err
	}
	var out []WatchResult
	for _, p := range paths {
		if ctx.Err() != nil {
			break
		}
		r := WatchResult{Path: p}
		r.Result, r.Err = Import(ctx, stateDir, Paths(p), Options{Format: transcript.FormatClaudeCode,
			Resume: &Resume{}, BusyTimeout: time.Second})
		out = append(out, r)
	}
	return out, nil
}
