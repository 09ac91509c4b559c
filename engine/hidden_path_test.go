package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
)

// TestUpdate_RefusesHiddenPathSegments: no topic path may have a segment
// starting with "." (topics/.scriptorium/x.md, topics/.hidden.md, a move
// into a dot folder), for the owner and for the paired tier: dot names are
// the engine's own or hidden from a person browsing the folder. The valid
// sibling edit proves the refusal is about the name, and nothing is
// written.
func TestUpdate_RefusesHiddenPathSegments(t *testing.T) {
	body := "# X\n\nFine. ^95000001\n"
	bad := []result.Edit{
		ftCreate("topics/.scriptorium/x.md", body),
		ftCreate("topics/.hidden.md", body),
		ftCreate("topics/people/.cache/x.md", body),
		ftAppend("topics/.git/config.md", body),
	}
	for _, tier := range []struct {
		name string
		mod  []func(*engine.Options)
	}{{"owner", nil}, {"paired", []func(*engine.Options){asPaired}}} {
		t.Run(tier.name, func(t *testing.T) {
			state := ftFixture(t, "valid")
			e := ftOpen(t, state, tier.mod...)
			before := ftTree(t, state)
			for _, ed := range bad {
				_, err := e.Update(context.Background(), ftTx(0, ed))
				if ftCode(err) != errcode.Rejected || !strings.Contains(err.Error(), "hidden path segment") {
					t.Errorf("%s %s: %v, want REJECTED for a hidden path segment", ed.Op, ed.Path, err)
				}
			}
			if tier.name == "owner" {
				_, err := e.Update(context.Background(), ftTx(0, ftMove("topics/people/craig.md", "topics/.trash/craig.md")))
				if ftCode(err) != errcode.Rejected || !strings.Contains(err.Error(), "hidden path segment") {
					t.Errorf("move into a dot folder: %v, want REJECTED", err)
				}
			}
			if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
				t.Errorf("a refused edit changed the workspace:\n%s", d)
			}
			if _, err := os.Stat(filepath.Join(state, "memory", "topics", ".scriptorium")); !os.IsNotExist(err) {
				t.Errorf("topics/.scriptorium exists after the refusal: %v", err)
			}
			if _, err := e.Update(context.Background(), ftTx(0, ftCreate("topics/visible.md", body))); err != nil {
				t.Errorf("the same edit at a visible path: %v", err)
			}
		})
	}
}
