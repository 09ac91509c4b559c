package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/importer"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// importDetails is `scriptorium import --help`: the formats and every JSONL
// field with the values the store accepts (engine/sessions checks them).
const importDetails = `formats (--format; default auto, which looks at each file's content, never its name):
  jsonl        our own turn lines, one JSON object per line (fields below)
  claude-code  a Claude Code transcript: ~/.claude/projects/<project>/<session-id>.jsonl
  chatgpt      conversations.json from a ChatGPT data export (Settings → Data controls → Export data)

PATH is a file, - (stdin) or a directory walked recursively: every *.jsonl (jsonl,
claude-code), every conversations.json (chatgpt), or every file that is a transcript
(auto; other files are counted as skipped not_a_transcript). A single file that auto
does not recognise is read as jsonl, so its bad lines are reported.

All files are stored in one transaction, file by file: a malformed file (reported
with its line or record) stores nothing at all. Importing again stores only what is
new: a Claude Code transcript that has grown adds just its new lines, and repeated
lines are counted as skipped duplicate.

jsonl fields (unknown fields are ignored):
  session          required: the conversation id (up to 200 bytes, no control characters)
  provider         default "openprogram": letters, digits and -_.~+=,@ (a directory under sources/)
  id               required: unique within provider and session; no whitespace, "--" or ">"
  parent           the id of the turn this one answers, in the same session; "" or absent for a root
  role             required: lower-case, e.g. user, assistant, tool, system
  content          the text, byte-exact; no NUL character
  speaker_id       optional: the sender's stable id (no control characters)
  speaker_display  optional: the sender's display name (one line, at most 64 characters kept)
  time             required: RFC 3339, e.g. 2026-08-10T12:00:00Z (stored at second precision)
  tier             owner (default), paired or unpaired
  group            true for a group chat: unpaired group turns are archived pending review
  synthetic        true for runtime-generated rows: stored, never written to memory

output: {"imported":N,"sessions":M,"skipped":{"<reason>":K,...}}`

// importOutput is the import verb's JSON document.
type importOutput struct {
	Imported int            `json:"imported"`
	Sessions int            `json:"sessions"`
	Skipped  map[string]int `json:"skipped"`
}

// runImport reads turns into sessions.db through the import service
// (engine/importer), with a progress bar on a terminal.
func runImport(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	format := transcript.Format(inv.flag("format"))
	switch {
	case format == "" || format == "auto":
		format = transcript.FormatUnknown
	case !importer.KnownFormat(format):
		return usagef("--format takes %s, not %q", orList(append([]string{"auto"}, importer.FormatNames()...)), format)
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	cfg, err := engine.LoadConfig(workspace.ConfigPath(dir))
	if err != nil {
		return err
	}
	if cfg.Disabled() {
		return engine.ErrDisabled
	}
	in, err := importer.List(inv.positional[0], format)
	if err != nil {
		return err
	}
	opts := importer.Options{Format: format, Stdin: inv.stdin}
	prog := newImportProgress(inv, in.Paths)
	if prog != nil {
		opts.Progress = prog
	}
	// No signal context: ctrl+c ends the process, and the transaction with
	// it, at once, even in the middle of parsing a large export.
	res, err := importer.Import(context.Background(), dir, in, opts)
	prog.done()
	if err != nil {
		return err
	}
	out := importOutput{Imported: res.Imported, Sessions: res.Sessions, Skipped: res.Skipped}
	return inv.emit(out, func(w io.Writer) {
		fmt.Fprintf(w, "imported %d turn(s) in %d session(s) from %d file(s)%s\n", out.Imported, out.Sessions, len(res.Files), skippedText(out.Skipped))
	})
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// skippedText is the skipped counts for the one human line.
func skippedText(skipped map[string]int) string {
	keys := make([]string, 0, len(skipped))
	for k, n := range skipped {
		if n > 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, skipped[k])
	}
	return "; skipped: " + strings.Join(parts, ", ")
}
