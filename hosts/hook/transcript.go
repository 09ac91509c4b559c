package hook

import (
	"context"
	"errors"
	"fmt"
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

// importTranscript stores what the Claude Code transcript at path holds
// that sessions.db does not have yet, through the import service. The
// whole file is parsed each time: a turn's parent may sit anywhere above
// it, and re-importing the lines already stored adds nothing, so a grown
// transcript adds only its new lines. It reports whether the file holds
// any turn of session. A missing file is not a failure: Claude Code names
// the transcript before it writes the first line.
func importTranscript(ctx context.Context, path, session, stateDir string) (bool, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	ids, err := importFile(ctx, path, transcript.FormatClaudeCode, stateDir)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if id == session {
			return true, nil
		}
	}
	return false, nil
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
