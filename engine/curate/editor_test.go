package curate_test

import (
	"errors"
	"strings"
	"testing"

	"scriptorium/engine/curate"
	"scriptorium/errcode"
)

var block = curate.Block{ID: "f888f60e", Path: "topics/core.md", Trust: "trusted",
	Footnotes: []curate.Footnote{{Label: "e-1175dea39c", Date: "2024-03-15", Sources: []string{"cli/sess-1/s1"}}}}

func TestEditorFile_RoundTrip(t *testing.T) {
	for _, text := range []string{
		"Craig is building a budget tracker.[^e-1175dea39c]",
		"- one\n- two",
		"Deploy:\n```sh\n# build first\nmake\n```",
		"#hashtag first",
	} {
		data := curate.EditorFile(block, text, nil)
		if got := curate.ParseEditorFile(data); got != text {
			t.Errorf("round trip of %q gave %q from:\n%s", text, got, data)
		}
		noted := curate.EditorFile(block, text, []string{"the text is wrong", "- line 2: blank\nline"})
		if got := curate.ParseEditorFile(noted); got != text {
			t.Errorf("round trip with notes of %q gave %q", text, got)
		}
	}
}

func TestEditorFile_Header(t *testing.T) {
	data := string(curate.EditorFile(block, "Text.", []string{"refused: 1 problem", "- line 1: bad\nthing"}))
	for _, want := range []string{
		"# NOT SAVED: fix the text below",
		"#   - line 1: bad thing\n", // a note stays one comment line
		"# Editing block ^f888f60e of topics/core.md (trusted).",
		"#   [^e-1175dea39c] 2024-03-15: cli/sess-1/s1",
		"\n\nText.\n",
	} {
		if !strings.Contains(data, want) {
			t.Errorf("editor file lacks %q:\n%s", want, data)
		}
	}
}

func TestEditorFile_LongNotesWrap(t *testing.T) {
	long := "line 1: the blank line after it splits the text into two paragraphs; a block is one paragraph or list: remove the blank line"
	data := string(curate.EditorFile(block, "Text.", []string{long}))
	for _, l := range strings.Split(data, "\n") {
		if len(l) > 80 {
			t.Errorf("header line of %d bytes: %q", len(l), l)
		}
	}
	if !strings.Contains(data, "\n#     ") || curate.ParseEditorFile([]byte(data)) != "Text." {
		t.Errorf("editor file:\n%s", data)
	}
}

func TestParseEditorFile_OnlyTheHeader(t *testing.T) {
	for in, want := range map[string]string{
		"# help\n#\n\nText\n# not a comment here\n": "Text\n# not a comment here",
		"# help\n":                  "",
		"":                          "",
		"#\n# x\nText\r\n":          "Text",
		"Text without header\n\n\n": "Text without header",
	} {
		if got := curate.ParseEditorFile([]byte(in)); got != want {
			t.Errorf("ParseEditorFile(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNotes(t *testing.T) {
	err := &errcode.Error{Code: errcode.Rejected, Message: "refused", Violations: []errcode.Violation{
		{Code: "bad_block_text", Path: "topics/core.md", Message: "line 2: blank"},
		{Code: "broken_link", Path: "topics/core.md", Line: 7, Message: "line 1 of the text: link broken"},
		{Code: "broken_link", Path: "topics/other.md", Line: 3, Message: "link broken"}}}
	got := strings.Join(curate.Notes(err), "|")
	want := "refused|- line 2: blank|- line 1 of the text: link broken|- topics/other.md:3: link broken (broken_link)"
	if got != want {
		t.Errorf("Notes = %q, want %q", got, want)
	}
	if got := curate.Notes(errors.New("plain")); len(got) != 1 || got[0] != "plain" {
		t.Errorf("Notes(plain) = %v", got)
	}
}

func TestEditorCommand(t *testing.T) {
	env := map[string]string{"EDITOR": "vim -u NONE"}
	cmd := curate.EditorCommand("/tmp/x.md", func(k string) string { return env[k] })
	if strings.Join(cmd.Args, "|") != `/bin/sh|-c|vim -u NONE "$@"|vim -u NONE|/tmp/x.md` {
		t.Errorf("args = %q", cmd.Args)
	}
	env["VISUAL"] = "code --wait"
	if cmd := curate.EditorCommand("f", func(k string) string { return env[k] }); cmd.Args[2] != `code --wait "$@"` {
		t.Errorf("VISUAL wins: %q", cmd.Args)
	}
	if cmd := curate.EditorCommand("f", func(string) string { return "" }); cmd.Args[2] != `vi "$@"` {
		t.Errorf("default: %q", cmd.Args)
	}
}

// FuzzEditorFile checks that any text the owner could have typed comes
// back from the editor file as the text (cleaned), unless it starts with
// a line the header convention strips.
func FuzzEditorFile(f *testing.F) {
	for _, s := range []string{"Text.[^e-1175dea39c]", "- a\n- b", "```\n# c\n```", "\n\nx  \n", "# h\nx", "#x"} {
		f.Add(s, "note")
	}
	f.Fuzz(func(t *testing.T, text, note string) {
		clean := curate.CleanText(text)
		first, _, _ := strings.Cut(clean, "\n")
		if first == "#" || strings.HasPrefix(first, "# ") {
			return
		}
		if got := curate.ParseEditorFile(curate.EditorFile(block, clean, []string{note})); got != clean {
			t.Errorf("text %q came back as %q", clean, got)
		}
	})
}
