package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"scriptorium/engine/curate"
	"scriptorium/engine/enginetest"
	"scriptorium/errcode"
)

// jsonKeys lists a JSON document's keys, sorted.
func jsonKeys(doc map[string]any) string {
	var ks []string
	for k := range doc {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

func readTopic(t *testing.T, state, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, "memory", "topics", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestCLI_EditWithoutTerminal(t *testing.T) {
	state := fixtureState(t, "valid")
	r := runCLI(t, "", "edit", "^c0ffee02", "--text", "Carol reported the build green on Monday.[^e-6f7a8b9ca3]", "--json", "--state", state)
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	doc := oneJSON(t, r.stdout)
	if got := jsonKeys(doc); got != "after,before,changed,id,path,reattached,revision" {
		t.Errorf("keys = %s", got)
	}
	if !strings.Contains(readTopic(t, state, "people/craig.md"), "\nCarol reported the build green on Monday.[^e-6f7a8b9ca3] ^c0ffee02\n") {
		t.Error("the text was not installed")
	}
	// stdin, with "-" or by default off a terminal.
	for i, args := range [][]string{{"edit", "^c0ffee02", "-"}, {"edit", "^c0ffee02"}} {
		r = runCLI(t, fmt.Sprintf("Carol said green %d times.\n", i+1), append(args, "--state", state)...)
		if r.code != 0 || !strings.Contains(r.stdout, "re-attached [^e-6f7a8b9ca3]") {
			t.Errorf("%v: exit %d: %s%s", args, r.code, r.stdout, r.stderr)
		}
	}
	// Refusals: one JSON error document each, nothing changed.
	before := treeState(t, filepath.Join(state, "memory"), ".scriptorium")
	for _, c := range []struct {
		stdin string
		args  []string
		code  string
		exit  int
	}{
		{"", []string{"edit", "^c0ffee02", "--text", "  "}, "INVALID_ARGUMENT", 1},
		{"", []string{"edit", "^c0ffee02", "--text", "One.\n\nTwo."}, "REJECTED", 1},
		{"", []string{"edit", "^12345678", "--text", "x"}, "NOT_FOUND", 1},
		{"x", []string{"edit", "^c0ffee02", "-", "--text", "x"}, "INVALID_ARGUMENT", 2},
		{"", []string{"edit", "^c0ffee02", "extra"}, "INVALID_ARGUMENT", 2},
	} {
		r := runCLI(t, c.stdin, append(c.args, "--json", "--state", state)...)
		doc := oneJSON(t, r.stdout)
		e, _ := doc["error"].(map[string]any)
		if r.code != c.exit || e == nil || e["code"] != c.code {
			t.Errorf("%v: exit %d, %s", c.args, r.code, r.stdout)
		}
		if c.code == "REJECTED" && !strings.Contains(r.stdout, `"violations"`) {
			t.Errorf("REJECTED without violations: %s", r.stdout)
		}
	}
	if d := diffTrees(before, treeState(t, filepath.Join(state, "memory"), ".scriptorium")); d != "" {
		t.Errorf("a refused edit changed %s", d)
	}
}

func TestCLI_DeleteAndMove(t *testing.T) {
	state := fixtureState(t, "valid")
	// Without a terminal, --yes (or --dry-run) is required.
	r := runCLI(t, "y\n", "delete", "^c0ffee02", "--json", "--state", state)
	if r.code != 1 || !strings.Contains(r.stdout, "FORBIDDEN") {
		t.Errorf("delete without --yes: exit %d %s", r.code, r.stdout)
	}
	// A linked block is refused with the links named.
	r = runCLI(t, "", "delete", "^f888f60e", "--yes", "--json", "--state", state)
	if r.code != 1 || !strings.Contains(r.stdout, `"code": "REJECTED"`) || !strings.Contains(r.stdout, `"path": "topics/people/craig.md"`) ||
		!strings.Contains(r.stdout, "block ^c0ffee01 links to ^f888f60e") {
		t.Errorf("linked delete: exit %d %s", r.code, r.stdout)
	}
	r = mustCLI(t, "delete", "^c0ffee02", "--dry-run", "--json", "--state", state)
	if doc := oneJSON(t, r.stdout); jsonKeys(doc) != "changed,dry_run,file_deleted,footnotes,id,path,revision,text" || doc["dry_run"] != true {
		t.Errorf("delete --dry-run: %s", r.stdout)
	}
	r = mustCLI(t, "delete", "^c0ffee02", "--yes", "--state", state)
	if !strings.Contains(r.stdout, "deleted block ^c0ffee02 from topics/people/craig.md, with its footnote(s) [^e-6f7a8b9ca3] (revision 1)") {
		t.Errorf("delete: %s", r.stdout)
	}
	r = mustCLI(t, "move", "^f888f60e", "people/craig-work", "--under", "Work", "--yes", "--json", "--state", state)
	doc := oneJSON(t, r.stdout)
	if jsonKeys(doc) != "changed,created,dry_run,file_deleted,footnotes,from,id,links,revision,to,under" || doc["created"] != true {
		t.Errorf("move: %s", r.stdout)
	}
	if !strings.Contains(readTopic(t, state, "people/craig.md"), "(craig-work.md#^f888f60e)") {
		t.Error("the link did not follow the move")
	}
	r = mustCLI(t, "history", "--state", state)
	if !strings.Contains(r.stdout, " move ") || !strings.Contains(r.stdout, " delete ") {
		t.Errorf("history:\n%s", r.stdout)
	}
	// revert undoes the move: the new file goes, the block is back.
	mustCLI(t, "revert", "2", "--yes", "--state", state)
	if _, err := os.Stat(filepath.Join(state, "memory", "topics", "people", "craig-work.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("craig-work.md survived the revert: %v", err)
	}
	if !strings.Contains(readTopic(t, state, "people/craig.md"), "(../core.md#^f888f60e)") {
		t.Error("the revert did not restore the link")
	}
	// A terminal answer other than y cancels (answering is tested through
	// confirm; here stdin is not a terminal, so --yes is needed).
	r = runCLI(t, "", "move", "^f888f60e", "../x", "--yes", "--json", "--state", state)
	if r.code != 1 || !strings.Contains(r.stdout, "INVALID_ARGUMENT") {
		t.Errorf("bad path: exit %d %s", r.code, r.stdout)
	}
}

// fakeEditor plays the owner: each call replaces the text under the
// header with the next answer (nil: leave the file as it is) and keeps
// what it was shown.
type fakeEditor struct {
	answers []*string
	shown   []string
}

func (f *fakeEditor) edit(file string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	f.shown = append(f.shown, string(data))
	if len(f.answers) == 0 {
		return errors.New("the editor crashed")
	}
	a := f.answers[0]
	f.answers = f.answers[1:]
	if a == nil {
		return nil
	}
	var header []string
	for _, l := range strings.Split(string(data), "\n") {
		if l != "#" && !strings.HasPrefix(l, "# ") {
			break
		}
		header = append(header, l)
	}
	return os.WriteFile(file, []byte(strings.Join(header, "\n")+"\n\n"+*a+"\n"), 0o600)
}

func str(s string) *string { return &s }

func TestEditInEditor_ReopensUntilValid(t *testing.T) {
	state := fixtureState(t, "valid")
	e := enginetest.Open(t, state)
	var stderr bytes.Buffer
	inv := &invocation{stderr: &stderr}
	ed := &fakeEditor{answers: []*string{str("Carol reported green.\n\nA second paragraph."), str("Carol reported green, twice.")}}
	res, why, err := editInEditor(context.Background(), inv, e, "^c0ffee02", ed.edit)
	if err != nil {
		t.Fatal(err)
	}
	if len(ed.shown) != 2 || why != "" || len(res.Changed) != 1 {
		t.Fatalf("shown %d times, why %q, result %+v", len(ed.shown), why, res)
	}
	first, second := ed.shown[0], ed.shown[1]
	if !strings.Contains(first, "# Editing block ^c0ffee02 of topics/people/craig.md (trusted).") ||
		!strings.HasSuffix(first, "\n\nCarol reported the build green again.[^e-6f7a8b9ca3]\n") {
		t.Errorf("first editor file:\n%s", first)
	}
	// The refused text comes back, the reasons above it: nothing is lost.
	if !strings.HasPrefix(second, "# NOT SAVED") || !strings.Contains(second, "the blank line after it splits") ||
		!strings.HasSuffix(second, "\n\nCarol reported green.\n\nA second paragraph.\n") {
		t.Errorf("second editor file:\n%s", second)
	}
	if !strings.Contains(stderr.String(), "not saved") {
		t.Errorf("stderr: %s", stderr.String())
	}
	if !strings.Contains(readTopic(t, state, "people/craig.md"), "Carol reported green, twice.[^e-6f7a8b9ca3] ^c0ffee02") {
		t.Error("the valid text was not installed")
	}
}

func TestEditInEditor_NothingToSave(t *testing.T) {
	state := fixtureState(t, "valid")
	e := enginetest.Open(t, state)
	inv := &invocation{stderr: &bytes.Buffer{}}
	before := treeState(t, filepath.Join(state, "memory"), ".scriptorium")
	for _, c := range []struct {
		answer *string
		why    string
	}{{nil, "the same text"}, {str(""), "an empty text"}} {
		res, why, err := editInEditor(context.Background(), inv, e, "^c0ffee02", (&fakeEditor{answers: []*string{c.answer}}).edit)
		if err != nil || why != c.why || len(res.Changed) != 0 {
			t.Errorf("answer %v: why %q, err %v, result %+v", c.answer, why, err, res)
		}
	}
	if d := diffTrees(before, treeState(t, filepath.Join(state, "memory"), ".scriptorium")); d != "" {
		t.Errorf("changed %s", d)
	}
}

func TestEditInEditor_KeepsTheTextOnFailure(t *testing.T) {
	state := fixtureState(t, "valid")
	e := enginetest.Open(t, state)
	inv := &invocation{stderr: &bytes.Buffer{}}
	// The editor dies: the file stays and the error names it.
	_, _, err := editInEditor(context.Background(), inv, e, "^c0ffee02", (&fakeEditor{}).edit)
	if errcode.As(err).Code != errcode.IO || !strings.Contains(err.Error(), "the text is kept in ") {
		t.Fatalf("err = %v", err)
	}
	file := err.Error()[strings.Index(err.Error(), "kept in ")+len("kept in "):]
	file = strings.Fields(file)[0]
	file = strings.TrimSuffix(file, ":")
	defer os.Remove(file)
	if _, serr := os.Stat(file); serr != nil {
		t.Errorf("the text file is gone: %v", serr)
	}
	// The block changes while the owner edits: CONFLICT, the text kept.
	ed := &fakeEditor{answers: []*string{str("Carol's version.")}}
	wrapped := func(file string) error {
		if _, err := curate.Edit(context.Background(), e, curate.EditRequest{ID: "^c0ffee02", Text: "Someone else's version."}); err != nil {
			return err
		}
		return ed.edit(file)
	}
	_, _, err = editInEditor(context.Background(), inv, e, "^c0ffee02", wrapped)
	if errcode.As(err).Code != errcode.Conflict || !strings.Contains(err.Error(), "your text is kept in ") {
		t.Fatalf("err = %v", err)
	}
	kept := strings.TrimSpace(err.Error()[strings.Index(err.Error(), "kept in ")+len("kept in "):])
	defer os.Remove(kept)
	if data, _ := os.ReadFile(kept); !strings.Contains(string(data), "Carol's version.") {
		t.Errorf("kept file %s holds:\n%s", kept, data)
	}
}
