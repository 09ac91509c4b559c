package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"scriptorium/engine/config"
	"scriptorium/engine/importer"
	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// importDetails is `scriptorium import --help`: the formats, the trust of
// chat senders and every JSONL field with the values the store accepts
// (engine/sessions checks them).
const importDetails = `formats (--format; default auto, which looks at each file's content, never its name):
  jsonl        our own turn lines, one JSON object per line (fields below)
  claude-code  a Claude Code transcript: ~/.claude/projects/<project>/<session-id>.jsonl
  chatgpt      conversations.json from a ChatGPT data export (Settings → Data controls → Export data)
  codex        a Codex CLI rollout: ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl
  gemini       a Gemini CLI session: ~/.gemini/tmp/<project>/chats/session-*.json(l)
  telegram     result.json of a Telegram Desktop export (one chat or the whole account)
  whatsapp     "Export chat" of WhatsApp: _chat.txt (iOS, in its zip) or "WhatsApp Chat with X.txt"
  slack        a Slack workspace export: its folder or its .zip
  discord      DiscordChatExporter JSON: one channel's file, or a folder of (overlapping) exports

PATH is a file, a .zip, - (stdin) or a directory walked recursively. With auto, each file
is read as what its content is: a folder (or zip) holding a Slack export's users.json,
channels.json and day files is one Slack export, the Discord exports of one folder are
merged (the later edit of a message wins), and a file no format recognises is counted as
skipped not_a_transcript and listed with what it looks like. A single file auto does not
recognise is refused, with what it looks like (JSON lines are read as jsonl, so that their
bad lines are reported). With a format, a directory walk takes that format's files
(*.jsonl; conversations.json; rollout-*.jsonl; *.json; *.txt; the whole folder for slack).

All files are stored in one transaction, file by file: a malformed file (reported
with its line or record) stores nothing at all. Importing again stores only what is
new: a transcript or export that has grown adds just its new messages; repeated ones
are counted as skipped duplicate. A chat export may change between two exports (an edited
message, a renamed sender, a deleted message): the stored message is kept and the
difference counted as skipped changed (our own jsonl refuses such a file instead).

who is who in a chat export (Telegram, WhatsApp, Slack, Discord):
  --owner SENDER    you, as the export names you (repeatable)
  --paired SENDER   someone you trust (repeatable)
  SENDER is a Telegram from_id (user123), a Slack user id (U024BE7LH), a Discord author id,
  or the WhatsApp name as written ("~ Ana" and "Ana" are the same). The choice is stored in
  config.toml as [trust.<provider>] owner = [...] paired = [...] (merged with what is there)
  and used by every later import of that provider. In a group chat, every message of a
  sender who is neither owner nor paired is archived pending review at the next write:
  it shows in 'scriptorium pending' and the Pending pane, never in search, recall or core
  until promoted (promote --sender SENDER takes a sender at once). In a one-to-one chat
  the other side, unless paired, never enters memory. Without an owner the import warns
  and names the most active senders.

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
  title            optional: the chat's or conversation's name (its thread file is named by it)
  project          optional: a coding session's working directory (its facts go to projects/<folder>.md)

output: {"imported":N,"sessions":M,"skipped":{"<reason>":K,...},"retiered":R,
         "warnings":[{"kind","message",...}],"unrecognised":[{"path","looks_like"}],
         "trust":{"<provider>":{"owner":[...],"paired":[...]}} (only when stored)}`

// importOutput is the import verb's JSON document.
type importOutput struct {
	Imported     int                            `json:"imported"`
	Sessions     int                            `json:"sessions"`
	Skipped      map[string]int                 `json:"skipped"`
	Retiered     int                            `json:"retiered"`
	Warnings     []importer.Warning             `json:"warnings"`
	Unrecognised []importer.Unrecognised        `json:"unrecognised"`
	Trust        map[string]importer.TrustLists `json:"trust,omitempty"`
}

// maxListed is how many unrecognised files the human output names.
const maxListed = 10

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
	named := importer.Named{Owner: inv.flags("owner"), Paired: inv.flags("paired")}
	for _, s := range append(append([]string{}, named.Owner...), named.Paired...) {
		if strings.TrimSpace(s) == "" {
			return usagef("--owner and --paired take a sender as the export names them, not an empty string")
		}
	}
	dir, err := inv.stateDir()
	if err != nil {
		return err
	}
	cfgPath := workspace.ConfigPath(dir)
	cfg, err := config.Load(cfgPath)
	if err != nil {
		return err
	}
	if cfg.Disabled() {
		return errcode.ErrDisabled
	}
	in, err := importer.List(inv.positional[0], format)
	if err != nil {
		return err
	}
	opts := importer.Options{Format: format, Stdin: inv.stdin, Senders: importer.SendersOf(trustTables(cfg)),
		Named: named, ConfigPath: cfgPath}
	prog := newImportProgress(inv, in)
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
	out := importOutput{Imported: res.Imported, Sessions: res.Sessions, Skipped: res.Skipped, Retiered: res.Retiered,
		Warnings: res.Warnings, Unrecognised: res.Unrecognised, Trust: res.Trust}
	if out.Warnings == nil {
		out.Warnings = []importer.Warning{}
	}
	if out.Unrecognised == nil {
		out.Unrecognised = []importer.Unrecognised{}
	}
	if !inv.json {
		printImportNotes(inv.stderr, res)
	}
	return inv.emit(out, func(w io.Writer) {
		fmt.Fprintf(w, "imported %d turn(s) in %d session(s) from %d file(s)%s\n", out.Imported, out.Sessions, len(res.Files), skippedText(out.Skipped))
		if out.Retiered > 0 {
			fmt.Fprintf(w, "%d stored turn(s) not yet written took the tier you gave their sender\n", out.Retiered)
		}
		for _, p := range sortedKeys(out.Trust) {
			t := out.Trust[p]
			fmt.Fprintf(w, "stored in %s: [trust.%s] owner = %s, paired = %s\n", cfgPath, p, listText(t.Owner), listText(t.Paired))
		}
	})
}

// printImportNotes prints the warnings and the files no format
// recognises on stderr: the import worked, but the owner should know.
func printImportNotes(w io.Writer, res importer.Result) {
	for _, x := range res.Warnings {
		fmt.Fprintf(w, "warning: %s\n", x.Message)
	}
	for i, u := range res.Unrecognised {
		if i == maxListed {
			fmt.Fprintf(w, "… and %d more file(s) that are no transcript (--json lists them all)\n", len(res.Unrecognised)-maxListed)
			break
		}
		label := "not a transcript"
		if strings.HasPrefix(u.LooksLike, "a symbolic link") {
			label = "skipped" // a link the walk does not follow (importer.walkFolder)
		}
		fmt.Fprintf(w, "%s: %s: %s\n", label, u.Path, u.LooksLike)
	}
}

func listText(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
