package curate

import (
	"errors"
	"fmt"
	"os/exec"
	"scriptorium/errcode"
	"strings"
)

// The editor file follows the git-commit convention: a comment header of
// lines starting "#", which ParseEditorFile strips, then the block's text.
// Only the header at the top is stripped, and only lines that are "#" or
// start with "# ": those can never begin a block (they are headings), so
// a "#" line inside the text, in a fenced code block say, survives.

// EditorFile is the file the owner edits: a header naming the block, its
// citations and the rules, then text. notes, when set, are the reasons
// the previous text was refused; they go at the top of the header.
func EditorFile(b Block, text string, notes []string) []byte {
	var h []string
	if len(notes) > 0 {
		h = append(h, "# NOT SAVED: fix the text below and save again, or empty it to give up.")
		for _, n := range notes {
			for i, l := range wrapWords(strings.Fields(n), 72) {
				if i == 0 {
					h = append(h, "#   "+l)
				} else {
					h = append(h, "#     "+l)
				}
			}
		}
		h = append(h, "#")
	}
	h = append(h,
		fmt.Sprintf("# Editing block ^%s of %s (%s).", b.ID, b.Path, b.Trust),
		"# The lines starting with \"#\" up here are removed. The block keeps its id",
		"# and its citations; it is one paragraph or one list (no blank line).",
		"# A [^e-…] marker cites a source: move it with the words it supports. A",
		"# marker you delete is put back at the end, so a citation is never lost.",
		"# Save the text unchanged, or an empty text, to change nothing.")
	if len(b.Footnotes) > 0 {
		h = append(h, "#", "# Citations of this block:")
		for _, f := range b.Footnotes {
			h = append(h, fmt.Sprintf("#   [^%s] %s: %s", f.Label, f.Date, strings.Join(f.Sources, ", ")))
		}
	}
	if len(b.LinkedFrom) > 0 {
		h = append(h, "#", fmt.Sprintf("# Linked from %d place(s); the links stay valid.", len(b.LinkedFrom)))
	}
	return []byte(strings.Join(h, "\n") + "\n\n" + text + "\n")
}

// wrapWords joins words into lines of at most width bytes (a longer word
// stands alone).
func wrapWords(words []string, width int) []string {
	var out []string
	line := ""
	for _, w := range words {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			out = append(out, line)
			line = w
		default:
			line += " " + w
		}
	}
	if line != "" || len(out) == 0 {
		out = append(out, line)
	}
	return out
}

// ParseEditorFile returns the text of an edited file: the comment header
// at its top stripped, cleaned as Edit cleans it ("" when nothing is
// left).
func ParseEditorFile(data []byte) string {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for len(lines) > 0 && (lines[0] == "#" || strings.HasPrefix(lines[0], "# ")) {
		lines = lines[1:]
	}
	return CleanText(strings.Join(lines, "\n"))
}

// Notes turns a refused edit's error into the notes EditorFile puts above
// the text: its message, then each violation (by line of the text when it
// is on the block).
func Notes(err error) []string {
	var ee *errcode.Error
	if !errors.As(err, &ee) {
		return []string{err.Error()}
	}
	out := []string{ee.Message}
	for _, v := range ee.Violations {
		if v.Line == 0 || strings.HasPrefix(v.Message, "line ") {
			out = append(out, "- "+v.Message)
		} else {
			out = append(out, "- "+v.String())
		}
	}
	return out
}

// EditorCommand is the command that edits file: $VISUAL, else $EDITOR,
// else vi, run by the shell as git runs it, so "code --wait" and
// "vim -u NONE" work.
func EditorCommand(file string, getenv func(string) string) *exec.Cmd {
	editor := strings.TrimSpace(getenv("VISUAL"))
	if editor == "" {
		editor = strings.TrimSpace(getenv("EDITOR"))
	}
	if editor == "" {
		editor = "vi"
	}
	return exec.Command("/bin/sh", "-c", editor+` "$@"`, editor, file)
}
