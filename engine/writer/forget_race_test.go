package writer_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/forget"
	"scriptorium/engine/model"
	"scriptorium/engine/result"
	"scriptorium/engine/writer"
)

// The owner forgets a turn while the writer is distilling it (the model is
// asked outside the write lock): the turn was never archived, so the forget
// only blanks it in sessions.db. The writer must not archive the text it
// read before the forget; it reads the branch again and writes the rest.
// The concurrency soak found this: the forgotten text came back as a frame.
func TestWrite_TurnForgottenDuringTheModelCall(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	wtImport(t, state, wtChain("",
		wtTurn{Session: "s1", ID: "m1", Role: "user", Content: "I keep bees.", Tier: "owner"},
		wtTurn{Session: "s1", ID: "m2", Role: "user", Content: "My bank PIN is 4711.", Tier: "owner"},
		wtTurn{Session: "s1", ID: "m3", Role: "user", Content: "I play the cello.", Tier: "owner"},
	)...)
	forgetter := wtOpen(t, state, nil)
	forgot := false
	m := &wtModel{}
	m.answer = func(call int, req model.Request) (string, error) {
		if call == 1 {
			// The first model call: forget m2 before answering.
			if _, err := forget.Run(ctx, forgetter, result.ForgetSelector{Sources: []string{"openprogram/s1/m2"}}, false); err != nil {
				t.Errorf("forget during the model call: %v", err)
			}
			forgot = true
		}
		return "```json\n" + wtCitingEdits(wtSources(req.Messages[0].Content)) + "\n```\n", nil
	}
	e := wtOpen(t, state, m)
	if _, err := writer.Write(ctx, e, writer.WriteOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if !forgot {
		t.Fatal("the model was never asked")
	}
	data, err := os.ReadFile(filepath.Join(state, "memory", "sources", "openprogram", "_v2", "s1.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "4711") || strings.Contains(string(data), "source-id:openprogram/s1/m2") {
		t.Fatalf("the forgotten turn was archived:\n%s", data)
	}
	for _, keep := range []string{"I keep bees.", "I play the cello."} {
		if !strings.Contains(string(data), keep) {
			t.Errorf("%q was not archived:\n%s", keep, data)
		}
	}
	for _, p := range []string{"topics"} {
		_ = filepath.WalkDir(filepath.Join(state, "memory", p), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if b, _ := os.ReadFile(path); strings.Contains(string(b), "4711") {
					t.Errorf("%s holds the forgotten text", path)
				}
			}
			return nil
		})
	}
	ftVerifyClean(t, e)
}
