package gemini

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
	"scriptorium/transcript/internal/jsonlines"
)

// Provider is the provider of every turn this package emits.
const Provider = "gemini"

// Skip reasons, the keys of Result.Skipped. Record reasons count JSONL
// lines that are not messages; message reasons count messages that are not
// turns; part reasons count what a message held besides its text (a
// message whose text is empty is counted by its parts only).
const (
	// Record reasons.
	ReasonMetadata          = "metadata"            // the session's metadata line and {"$set": …} updates
	ReasonRewind            = "rewind"              // {"$rewindTo": id}: later messages branch off before that message
	ReasonUnknownRecord     = "unknown_record"      // any other JSONL line
	ReasonTruncatedLastLine = "truncated_last_line" // an invalid last line: the session is still being written
	// Message reasons.
	ReasonInfo         = "info"          // type info: a notice of the CLI
	ReasonError        = "error"         // type error: an API or CLI error shown to the person
	ReasonWarning      = "warning"       // type warning
	ReasonUnknownType  = "unknown_type"  // any other or missing message type
	ReasonToolResult   = "tool_result"   // a user message carrying functionResponse parts: a tool's output
	ReasonCommand      = "command"       // a user message starting with / or ?: a slash command or help
	ReasonContext      = "context"       // <session_context> and <hook_context> the CLI injects as a user message
	ReasonUpdate       = "update"        // a message id written again: Gemini rewrites a message it updates
	ReasonEmpty        = "empty"         // a message with no text and nothing else
	ReasonNULCharacter = "nul_character" // text with U+0000, which the store refuses
	// Part reasons.
	ReasonThought     = "thought"      // thoughts entries and thought parts: reasoning, not memory
	ReasonToolCall    = "tool_call"    // toolCalls entries and functionCall parts
	ReasonAttachment  = "attachment"   // inlineData and fileData parts (images, PDFs, files)
	ReasonUnknownPart = "unknown_part" // any other part
)

// maxLineBytes bounds one JSONL line: a message with a pasted image or a
// tool's output can be large; the bound exists so a corrupt file cannot
// exhaust memory.
const maxLineBytes = 64 << 20

// sniffBytes is how much of the file Parse looks at to tell the JSONL form
// from the single JSON document.
const sniffBytes = 64 << 10

// Parse reads one Gemini CLI session, in either form the CLI writes: the
// JSONL log (chats/session-*.jsonl: a metadata line, then messages, $set
// updates and $rewindTo records) or the single JSON document of older
// versions (chats/session-*.json), which it reads message by message. Both
// are streamed: Parse holds the turns it returns, not the file. name is
// used only in error messages; errors are *transcript.Error with the line
// (JSONL) or the message (JSON). It is Stream with no emit.
func Parse(r io.Reader, name string) (transcript.Result, error) {
	return Stream(r, name, 0, nil)
}

// Stream reads a session as Parse does and hands its turns to emit a
// chunk of about chunkBytes (0: 4 MiB) of turn text and per-turn overhead
// at a time, in order, each turn's parent in its chunk or an earlier one.
// No turn is final before the end of the file, in either form: Gemini
// writes a message again, whole, when it updates it (the last copy's text
// wins), and every turn carries the latest summary, directories and kind,
// and the first sessionId, which a $set or the JSON form's keys may give
// after the messages. So the file is read a line (or, in the JSON form, a
// message) at a time holding only its turns, and the chunks are handed
// over at the end: the store's nodes and records for the file are then
// alive a chunk at a time, not all at once. The turns, their order, the
// skips and the errors are Parse's; an error of emit ends the stream with
// it. With a nil emit every turn is kept in the returned Result; otherwise
// the Result holds only the skips.
func Stream(r io.Reader, name string, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	res, err := read(r, name)
	return chunks.HandOver(res, err, chunkBytes, emit)
}

// read is Parse.
func read(r io.Reader, name string) (transcript.Result, error) {
	br := bufio.NewReaderSize(r, sniffBytes)
	head, _ := br.Peek(sniffBytes)
	p := &parser{name: name, index: map[string]int{}, above: map[string]string{}}
	if len(bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")) == 0 {
		return transcript.Result{}, nil // an empty file: nothing was said
	}
	var err error
	if jsonlForm(head) {
		err = p.jsonl(br)
	} else {
		err = p.document(br)
	}
	if err != nil {
		return transcript.Result{}, err
	}
	return p.finish()
}

// jsonlForm reports a first line that is a whole JSON object by itself
// without a messages list: the JSONL form's metadata line. The JSON form is
// pretty-printed, so its first line is "{"; written on one line, it holds
// its messages.
func jsonlForm(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		i = len(head)
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(head[:i], &keys) != nil {
		return false
	}
	_, messages := keys["messages"]
	return !messages
}

type parser struct {
	name string
	res  transcript.Result
	// The session, from the metadata: the first sessionId, the latest
	// summary, directories and kind.
	session, title, project string
	subagent                bool
	sawMeta                 bool   // a JSONL metadata line was read
	contextDir              string // the working directory the session context names
	// index maps a message id to its turn in res.Turns, or -1 for a message
	// that is not a turn.
	index map[string]int
	// above maps a message id to the turn it hangs from ("" for a root), so
	// that a rewind to it branches off there.
	above map[string]string
	tip   string // the turn the next message hangs from
}

// jsonl reads the JSONL form line by line.
func (p *parser) jsonl(r io.Reader) error {
	sc := jsonlines.NewScanner(r, maxLineBytes)
	var pending error // a bad line that is forgiven if nothing follows it
	for sc.Scan() {
		raw, n := sc.Bytes(), sc.Line()
		switch {
		case sc.TooLong():
			return p.lineErr(n, "line is longer than %d bytes", maxLineBytes)
		case len(bytes.TrimSpace(raw)) == 0:
		case pending != nil:
			return pending
		default:
			if truncatable, err := p.line(raw, n); err != nil {
				if !truncatable {
					return err
				}
				pending = err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s:%d: read: %w", p.name, sc.Line(), err)
	}
	if pending != nil {
		p.res.Skip(ReasonTruncatedLastLine)
	}
	if !p.sawMeta {
		return &transcript.Error{File: p.name, Message: notSession}
	}
	return nil
}

// notSession is the error for a file that is neither form.
const notSession = "not a Gemini CLI session: want a JSONL log whose first line holds sessionId and projectHash, or a JSON object with messages"

func (p *parser) lineErr(n int, format string, args ...any) error {
	return &transcript.Error{File: p.name, Line: n, Message: fmt.Sprintf(format, args...)}
}

// record holds the keys that classify a JSONL line, as the CLI's own
// loader does (loadConversationRecord), in its order: a $rewindTo string,
// an id string (a message), a $set object, sessionId and projectHash
// strings (the metadata line).
// A message line is decoded once, with the message's own fields.
type record struct {
	message
	RewindTo    json.RawMessage `json:"$rewindTo"`
	Set         json.RawMessage `json:"$set"`
	SessionID   json.RawMessage `json:"sessionId"`
	ProjectHash json.RawMessage `json:"projectHash"`
}

// line handles one non-blank JSONL line. truncatable reports an error that
// is forgiven on the last line: invalid JSON, as a half-written line is.
func (p *parser) line(raw []byte, n int) (truncatable bool, err error) {
	var rec record
	if e := json.Unmarshal(raw, &rec); e != nil {
		var syn *json.SyntaxError
		if errors.As(e, &syn) {
			return true, p.lineErr(n, "invalid JSON: %s", strings.TrimPrefix(e.Error(), "json: "))
		}
		return false, p.lineErr(n, "line is not a JSON object")
	}
	if bytes.TrimSpace(raw)[0] != '{' { // null decodes into a struct without error
		return false, p.lineErr(n, "line is not a JSON object")
	}
	switch {
	case isString(rec.RewindTo):
		p.rewind(str(rec.RewindTo))
	case isString(rec.ID):
		if err := p.message(&rec.message); err != nil {
			return false, p.lineErr(n, "%v", err)
		}
	case isObject(rec.Set):
		p.res.Skip(ReasonMetadata)
		p.metadata(rec.Set)
	case isString(rec.SessionID) && isString(rec.ProjectHash):
		p.res.Skip(ReasonMetadata)
		p.sawMeta = true
		p.metadata(raw)
	default:
		p.res.Skip(ReasonUnknownRecord)
	}
	return false, nil
}

// rewind branches the next messages off where the message id was: the CLI
// drops that message and everything after it from the conversation (all of
// it for an id it does not know). What was said stays: it is a branch.
func (p *parser) rewind(id string) {
	p.res.Skip(ReasonRewind)
	p.tip = p.above[id] // "" for an unknown id: the next message is a root
}

// metadata reads the session fields of the metadata line, a $set update or
// the JSON form's top level. The first sessionId names the session; the
// other fields are the latest. A $set of messages rewrites the history the
// model sees next (after a compression or a failed request): what was said
// was already read, so it is ignored.
func (p *parser) metadata(raw json.RawMessage) {
	var m struct {
		SessionID   json.RawMessage `json:"sessionId"`
		Summary     json.RawMessage `json:"summary"`
		Directories json.RawMessage `json:"directories"`
		Kind        json.RawMessage `json:"kind"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return
	}
	if p.session == "" {
		p.session = str(m.SessionID)
	}
	if len(m.Summary) > 0 {
		p.title = str(m.Summary)
	}
	if len(m.Kind) > 0 {
		p.subagent = str(m.Kind) == "subagent"
	}
	var dirs []json.RawMessage
	if json.Unmarshal(m.Directories, &dirs) == nil && len(dirs) > 0 {
		// The workspace's directories, its root first (the directory the
		// CLI was started in).
		p.project = str(dirs[0])
	}
	if p.contextDir != "" || !bytes.Contains(raw, []byte("<session_context>")) {
		return
	}
	// The session context the CLI injects at the start names the working
	// directory, and lives in the history it writes with $set.
	var set struct {
		Messages []message `json:"messages"`
	}
	if json.Unmarshal(raw, &set) == nil {
		for i := range set.Messages {
			if dir := set.Messages[i].contextDir(); dir != "" {
				p.contextDir = dir
				break
			}
		}
	}
}

// finish names every turn after the session.
func (p *parser) finish() (transcript.Result, error) {
	if len(p.res.Turns) > 0 {
		if err := checkID(p.session); err != nil {
			return transcript.Result{}, &transcript.Error{File: p.name, Message: fmt.Sprintf("sessionId %q %v", p.session, err)}
		}
	}
	project := p.project
	if project == "" {
		project = p.contextDir
	}
	for i := range p.res.Turns {
		t := &p.res.Turns[i]
		t.Session, t.Title, t.Project, t.Synthetic = p.session, p.title, project, p.subagent
	}
	return p.res, nil
}

// str returns a raw JSON string's value, or "" for null, absent or a value of
// another type.
func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func isString(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '"'
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// parseTime reads an RFC 3339 time as UTC. Years 0 and 10000 can appear in
// UTC even when the written year is in range; the store refuses them, and
// the zero time means "no time".
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	t = t.UTC()
	if err != nil || t.IsZero() || t.Year() < 1 || t.Year() > 9999 {
		return time.Time{}, fmt.Errorf("bad timestamp %q: want RFC 3339", s)
	}
	return t, nil
}

// checkID reports why id cannot be a session or message id: source ids are
// <provider>/<session>/<id> and name files, so it must be a plain token.
func checkID(id string) error {
	switch {
	case id == "":
		return errors.New("is empty")
	case len(id) > 200:
		return errors.New("is longer than 200 bytes")
	case strings.Contains(id, "--"):
		return errors.New(`contains "--"`)
	}
	for _, r := range id {
		if r == '/' || r == '\\' || r == '>' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return fmt.Errorf("contains %q", r)
		}
	}
	return nil
}
