package hook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"

	"scriptorium/engine/importer"
	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/transcript/claudecode"
)

// provider is the provider of every turn the hook imports.
const provider = claudecode.Provider

// storeBusyWait bounds how long the import waits for another writer of
// sessions.db (an import, the writer's markers): like the workspace lock
// for background callers, a second and then give up.
const storeBusyWait = time.Second

// importBytesPerEvent bounds what one transcript event reads past the
// offset imported before: at the import's pace on a slow, busy machine
// (about 30 MiB/s) a small part of the deadline. A larger gain is read
// over the next events, or by the daemon (importer.FinishUnfinished).
var importBytesPerEvent int64 = 8 << 20

// importShare is the part of the time left that the import may use: the
// commit and the writer's threshold pass need the rest.
const importShare = 2

// importTranscript stores what the Claude Code transcript at path gained
// since the hook last read it, through the import service: it reads from
// the offset sessions.db stores for the file (a turn's parent above it is
// found through the parser state stored with it), at most
// importBytesPerEvent and half the time left, and stores the new offset
// with the turns. It reports whether the file holds turns of session (or
// held them before). A missing file is not a failure: Claude Code names
// the transcript before it writes the first line.
func importTranscript(ctx context.Context, path, session, stateDir string, log io.Writer) (bool, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	rz := importer.Resume{MaxBytes: importBytesPerEvent}
	ctx, rz.Until = importBounds(ctx)
	res, err := importer.Import(ctx, stateDir, importer.Paths(path),
		importer.Options{Format: transcript.FormatClaudeCode, BusyTimeout: storeBusyWait, Resume: &rz})
	if err != nil {
		return false, importFailure(path, err)
	}
	has := false
	for _, f := range res.Files {
		if f.Left > 0 {
			fmt.Fprintf(log, "scriptorium hook: imported part of %s; the next %d bytes are left for the next event or the daemon\n",
				path, f.Left)
		}
		has = has || f.From > 0
		for _, k := range f.Sessions {
			has = has || k.Session == session
		}
	}
	return has, nil
}

// importFile imports one transcript of format through the import service,
// waiting at most storeBusyWait for another writer of sessions.db, and
// returns the ids of the sessions its turns belong to.
func importFile(ctx context.Context, path string, format transcript.Format, stateDir string) ([]string, error) {
	res, err := importer.Import(ctx, stateDir, importer.Paths(path),
		importer.Options{Format: format, BusyTimeout: storeBusyWait})
	if err != nil {
		return nil, importFailure(path, err)
	}
	var ids []string
	for _, f := range res.Files {
		for _, k := range f.Sessions {
			ids = append(ids, k.Session)
		}
	}
	return ids, nil
}

// importFailure is a failed import in the one line the status file keeps:
// the transcript, and its first problem's line and message.
func importFailure(path string, err error) error {
	e := errcode.As(err)
	if len(e.Violations) == 0 {
		return errcode.Wrap(e.Code, err, "import transcript %s", path)
	}
	v := e.Violations[0]
	msg := v.Message
	if v.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", v.Line, msg)
	}
	if n := len(e.Violations) - 1; n > 0 {
		msg += fmt.Sprintf("; and %d more", n)
	}
	return &errcode.Error{Code: e.Code, Message: fmt.Sprintf("import transcript %s: %s; nothing was imported", path, msg), Err: err}
}
