package codex

import (
	"testing"

	"scriptorium/transcript"
)

// checkIDs verifies what source ids need of a session and a message id:
// they name files and sit between slashes in <provider>/<session>/<id>.
func checkIDs(t *testing.T, res transcript.Result) {
	t.Helper()
	for i, tu := range res.Turns {
		for _, id := range []string{tu.Session, tu.ID} {
			if err := checkID(id); err != nil {
				t.Errorf("turn %d: id %q %v", i, id, err)
			}
		}
	}
}
