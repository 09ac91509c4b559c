package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"scriptorium/engine"
	"scriptorium/engine/sessions"
	"scriptorium/transcript"
	"scriptorium/transcript/chatgpt"
	"scriptorium/transcript/claudecode"
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

Every file is parsed first and everything is stored in one transaction: a malformed
file (reported with its line or record) stores nothing at all. Importing again stores
only what is new: a Claude Code transcript that has grown adds just its new lines, and
repeated lines are counted as skipped duplicate.

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

// skipNotTranscript counts the files of a directory that match no format.
const skipNotTranscript = "not_a_transcript"

// skipDuplicate counts the turns that were stored already (or twice in the
// input): they add nothing.
const skipDuplicate = "duplicate"

// skipForgotten counts the turns of nodes the owner forgot: importing them
// again never brings their text back.
const skipForgotten = "forgotten"

// detectBytes is how much of a file auto detection reads: enough for the
// first lines of a Claude Code transcript even when one holds a long paste.
const detectBytes = 64 << 10

// importOutput is the import verb's JSON document.
type importOutput struct {
	Imported int            `json:"imported"`
	Sessions int            `json:"sessions"`
	Skipped  map[string]int `json:"skipped"`
}

// importChunk is one input file's share of the single JSONL stream handed
// to sessions.Store.Import, kept so a bad stream line can be traced back to
// its file and line.
type importChunk struct {
	path   string
	format transcript.Format
	first  int               // the stream line of the chunk's first line (1-based)
	lines  int               // how many stream lines it holds
	turns  []transcript.Turn // the parsed turns, one per line; nil for jsonl
	data   []byte            // the stream lines
}

func runImport(inv *invocation) error {
	if err := inv.wantArgs(1, 1); err != nil {
		return err
	}
	format := transcript.Format(inv.flag("format"))
	switch format {
	case "", "auto":
		format = transcript.FormatUnknown
	case transcript.FormatJSONL, transcript.FormatClaudeCode, transcript.FormatChatGPT:
	default:
		return usagef("--format takes auto, jsonl, claude-code or chatgpt, not %q", format)
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
	out := importOutput{Skipped: map[string]int{}}
	paths, walked, err := importInputs(inv.positional[0], format)
	if err != nil {
		return err
	}
	prog := newImportProgress(inv, paths)
	chunks, violations := parseInputs(inv, paths, format, walked, out.Skipped, prog)
	if len(violations) > 0 {
		prog.done()
		return rejectImport(violations)
	}
	var stream bytes.Buffer
	line := 1
	for i := range chunks {
		chunks[i].first = line
		line += chunks[i].lines
		stream.Write(chunks[i].data)
		chunks[i].data = nil
	}
	prog.storing(line - 1)
	res, err := storeTurns(dir, &stream)
	prog.done()
	if err != nil {
		var ie *sessions.ImportError
		if errors.As(err, &ie) {
			return rejectImport(traceLines(ie, chunks))
		}
		return err
	}
	out.Imported, out.Sessions = res.Imported, res.Sessions
	if res.Duplicate > 0 {
		out.Skipped[skipDuplicate] += res.Duplicate
	}
	if res.Forgotten > 0 {
		out.Skipped[skipForgotten] += res.Forgotten
	}
	return inv.emit(out, func(w io.Writer) {
		fmt.Fprintf(w, "imported %d turn(s) in %d session(s) from %d file(s)%s\n", out.Imported, out.Sessions, len(chunks), skippedText(out.Skipped))
	})
}

// importInputs lists the files to read: PATH itself, or the files of the
// directory PATH that the format takes, in lexical order (walked is then
// true). A directory the walk cannot read is refused rather than silently
// left out.
func importInputs(path string, format transcript.Format) (files []string, walked bool, err error) {
	if path == "-" {
		return []string{"-"}, false, nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, false, engine.Wrap(engine.CodeInvalidArgument, err, "read turns")
	}
	if !fi.IsDir() {
		return []string{path}, false, nil
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil // directories are walked; symlinks and devices are not followed
		}
		name := d.Name()
		switch format {
		case transcript.FormatJSONL, transcript.FormatClaudeCode:
			if strings.HasSuffix(name, ".jsonl") {
				files = append(files, p)
			}
		case transcript.FormatChatGPT:
			if name == "conversations.json" {
				files = append(files, p)
			}
		default:
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, true, engine.Wrap(engine.CodeInvalidArgument, err, "read directory %s", path)
	}
	return files, true, nil
}

// parseInputs parses every file into its chunk of the stream. Every
// malformed file is reported, not just the first, so one run shows all
// that must be fixed.
func parseInputs(inv *invocation, paths []string, format transcript.Format, walked bool, skipped map[string]int, prog *importProgress) ([]importChunk, []engine.Violation) {
	var chunks []importChunk
	var violations []engine.Violation
	for _, p := range paths {
		c, skip, err := parseInput(inv, p, format, walked, prog)
		if err != nil {
			violations = append(violations, parseViolation(p, err))
			continue
		}
		for k, n := range skip {
			skipped[k] += n
		}
		if c != nil {
			chunks = append(chunks, *c)
		}
	}
	return chunks, violations
}

// parseInput reads one file into its chunk and the parser's skip counts. A
// file of a directory walk that matches no format has no chunk and counts
// as not_a_transcript.
func parseInput(inv *invocation, p string, format transcript.Format, walked bool, prog *importProgress) (*importChunk, map[string]int, error) {
	var r io.Reader = inv.stdin
	if p != "-" {
		f, err := os.Open(p)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(prog.reader(r), detectBytes)
	if format == transcript.FormatUnknown {
		head, _ := br.Peek(detectBytes)
		format = transcript.Detect(head)
		if format == transcript.FormatUnknown {
			if walked {
				return nil, map[string]int{skipNotTranscript: 1}, nil
			}
			// One file named on the command line: read it as our own
			// format, so the store names its bad lines.
			format = transcript.FormatJSONL
		}
	}
	c := &importChunk{path: p, format: format}
	var res transcript.Result
	var err error
	switch format {
	case transcript.FormatJSONL:
		data, err := io.ReadAll(br)
		if err != nil {
			return nil, nil, err
		}
		c.data = jsonlChunk(data)
		c.lines = bytes.Count(c.data, []byte("\n"))
		return c, nil, nil
	case transcript.FormatClaudeCode:
		res, err = claudecode.Parse(br, p)
	case transcript.FormatChatGPT:
		res, err = chatgpt.Parse(br, p)
	}
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := transcript.WriteJSONL(&buf, res.Turns); err != nil {
		return nil, nil, err
	}
	c.data, c.turns, c.lines = buf.Bytes(), res.Turns, len(res.Turns)
	return c, res.Skipped, nil
}

// jsonlChunk makes a JSONL file a self-contained piece of the stream: its
// byte order mark dropped (the store only skips one on the stream's first
// line) and a final newline added, so line N of the file stays line N of
// the chunk and the next file starts on a line of its own.
func jsonlChunk(data []byte) []byte {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	return data
}

// storeTurns imports the stream into sessions.db in one transaction.
func storeTurns(dir string, stream io.Reader) (sessions.ImportResult, error) {
	if err := os.MkdirAll(dir, workspace.PrivateDir); err != nil {
		return sessions.ImportResult{}, engine.Wrap(engine.CodeIO, err, "create state dir")
	}
	store, err := sessions.Open(workspace.SessionsDB(dir), nil)
	if err != nil {
		return sessions.ImportResult{}, engine.Wrap(engine.CodeIO, err, "open sessions.db")
	}
	defer store.Close()
	res, err := store.Import(stream)
	var ie *sessions.ImportError
	if err != nil && !errors.As(err, &ie) {
		return res, engine.Wrap(engine.CodeIO, err, "import")
	}
	return res, err
}

// parseViolation is a file the parsers refused, or could not read.
func parseViolation(p string, err error) engine.Violation {
	var te *transcript.Error
	if errors.As(err, &te) {
		msg := te.Message
		if te.Record != "" {
			msg = "record " + te.Record + ": " + msg
		}
		return engine.Violation{Code: "bad_line", Path: p, Line: te.Line, Message: msg}
	}
	return engine.Violation{Code: "bad_line", Path: p, Message: err.Error()}
}

// traceLines maps the store's bad stream lines back to their files: a
// jsonl file's own line, or the parsed turn (and, for a Claude Code file,
// the line that holds its uuid).
func traceLines(ie *sessions.ImportError, chunks []importChunk) []engine.Violation {
	var out []engine.Violation
	for _, l := range ie.Lines {
		i := sort.Search(len(chunks), func(i int) bool { return chunks[i].first+chunks[i].lines > l.Line })
		if i == len(chunks) {
			out = append(out, engine.Violation{Code: "bad_line", Path: "-", Line: l.Line, Message: l.Message})
			continue
		}
		c := chunks[i]
		local := l.Line - c.first + 1
		if c.turns == nil {
			out = append(out, engine.Violation{Code: "bad_line", Path: c.path, Line: local, Message: l.Message})
			continue
		}
		t := c.turns[local-1]
		v := engine.Violation{Code: "bad_line", Path: c.path,
			Message: fmt.Sprintf("turn %q of session %q: %s", t.ID, t.Session, l.Message)}
		if c.format == transcript.FormatClaudeCode {
			v.Line = lineOfUUID(c.path, t.ID)
		}
		out = append(out, v)
	}
	return out
}

// lineOfUUID finds the line of a Claude Code file that carries uuid, or 0.
// It runs only on the rare path of a rejected turn, so re-reading is fine.
func lineOfUUID(path, uuid string) int {
	if path == "-" {
		return 0
	}
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	needle := []byte(`"uuid":"` + uuid + `"`)
	br := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if bytes.Contains(line, needle) {
			return n
		}
		if err != nil {
			return 0
		}
	}
}

// rejectImport is the INVALID_ARGUMENT of a malformed input.
func rejectImport(v []engine.Violation) error {
	files := map[string]bool{}
	for _, x := range v {
		files[x.Path] = true
	}
	return &engine.Error{Code: engine.CodeInvalidArgument, Violations: v,
		Message: fmt.Sprintf("%d problem(s) in %d file(s); nothing was imported", len(v), len(files))}
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
