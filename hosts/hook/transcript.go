package hook

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/transcript"
	"scriptorium/transcript/claudecode"
	"scriptorium/workspace"
)

// provider is the provider of every turn the hook imports.
const provider = claudecode.Provider

// storeBusyWait bounds how long the import waits for another writer of
// sessions.db (an import, the writer's markers): like the workspace lock
// for background callers, a second and then give up.
const storeBusyWait = time.Second

// importTranscript stores what the Claude Code transcript at path holds
// that sessions.db does not have yet. The whole file is parsed each time:
// a turn's parent may sit anywhere above it, and re-importing the lines
// already stored adds nothing, so a grown transcript adds only its new
// lines. It reports whether the file holds any turn of session. A missing
// file is not a failure: Claude Code names the transcript before it
// writes the first line.
func importTranscript(path, session, stateDir string) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, engine.Wrap(engine.CodeIO, err, "read transcript")
	}
	defer f.Close()
	res, err := claudecode.Parse(f, path)
	if err != nil {
		return false, engine.Wrap(engine.CodeInvalidArgument, err, "parse transcript")
	}
	if len(res.Turns) == 0 {
		return false, nil
	}
	var stream bytes.Buffer
	if err := transcript.WriteJSONL(&stream, res.Turns); err != nil {
		return false, engine.Wrap(engine.CodeInvalidArgument, err, "encode transcript %s", path)
	}
	store, err := sessions.Open(workspace.SessionsDB(stateDir), &sessions.Options{BusyTimeout: storeBusyWait})
	if err != nil {
		return false, engine.Wrap(engine.CodeIO, err, "open sessions.db")
	}
	defer store.Close()
	if _, err := store.Import(&stream); err != nil {
		var ie *sessions.ImportError
		if errors.As(err, &ie) {
			return false, engine.Wrap(engine.CodeInvalidArgument, err, "import transcript %s", path)
		}
		return false, engine.Wrap(engine.CodeIO, err, "import transcript %s", path) // e.g. sessions.db busy past the wait
	}
	for _, t := range res.Turns {
		if t.Session == session {
			return true, nil
		}
	}
	return false, nil
}
