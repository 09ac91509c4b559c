package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
	"scriptorium/transcript/internal/jsonlines"
)

// Provider is the provider of every turn this package emits.
const Provider = "codex"

// Skip reasons, the keys of Result.Skipped. Line reasons count whole lines;
// item reasons count the response items (messages, reasoning, tool calls)
// that are not turns; content reasons count pieces dropped from a message.
const (
	// Line reasons.
	ReasonSessionMeta       = "session_meta"        // session_meta: the first names the session, a later one opens history a fork copied
	ReasonTurnContext       = "turn_context"        // turn_context: cwd, model and policies of a turn
	ReasonEvent             = "event"               // event_msg: user_message confirms a prompt, agent_message repeats an answer, the rest is telemetry
	ReasonCompacted         = "compacted"           // compacted: a summary and history replayed from turns already read
	ReasonUnknownType       = "unknown_type"        // any other or missing record type
	ReasonLegacyState       = "legacy_state"        // {"record_type":"state"} lines of the pre-envelope format
	ReasonTruncatedLastLine = "truncated_last_line" // an invalid last line: the rollout is still being written
	// Item reasons.
	ReasonReasoning    = "reasoning"             // reasoning: summaries and encrypted thinking, not memory
	ReasonToolCall     = "tool_call"             // function, custom, local shell, web search and other *_call items
	ReasonToolOutput   = "tool_output"           // *_output items: what a tool returned
	ReasonCompaction   = "compaction"            // compaction / compaction_summary items (encrypted)
	ReasonOtherItem    = "other_item"            // any other response item type
	ReasonDeveloper    = "developer"             // developer and system messages: instructions, not said by anyone
	ReasonUnknownRole  = "unknown_role"          // a message with any other role
	ReasonBoilerplate  = "boilerplate"           // user items the CLI writes: environment context, instructions, AGENTS.md, shell commands
	ReasonUnconfirmed  = "unconfirmed_user_item" // a user item no user_message event of the rollout matches
	ReasonEmpty        = "empty"                 // a message with no text at all
	ReasonNULCharacter = "nul_character"         // text with U+0000, which the store refuses
	// Content reasons.
	ReasonImage          = "image"           // input_image (with the <image> tags Codex wraps it in)
	ReasonUnknownContent = "unknown_content" // any other content item type
)

// maxLineBytes bounds one line. A rollout line can carry a pasted image as a
// data URL or a long tool output, so the bound is generous; it exists so a
// corrupt file cannot exhaust memory.
const maxLineBytes = 64 << 20

// maxWaitingEvents bounds the user_message events kept while no user item
// matches them yet. Codex writes the item first and its event right after,
// so this queue is normally empty; the bound keeps a hostile file small.
const maxWaitingEvents = 1024

// Parse reads one Codex CLI rollout, streaming: it holds the turns it
// returns and the user items still waiting for their user_message event,
// never the whole file. name is used only in error messages. A bad
// line followed by another line is an *transcript.Error with its line
// number; invalid JSON on the last line is a rollout still being written and
// is counted as truncated_last_line. It is Stream with no emit.
func Parse(r io.Reader, name string) (transcript.Result, error) {
	return Stream(r, name, 0, nil)
}

// Stream reads a rollout as Parse does and hands its turns to emit a chunk
// of about chunkBytes (0: 4 MiB) of turn text and per-turn overhead at a
// time, in order, each turn's parent in its chunk or an earlier one. No
// turn is final before the end of the file: every turn carries the
// latest thread name (a thread_name_updated can come last), and a user
// item may wait for its user_message event to the end. So the file is
// read line by line holding only its turns (prompts and answers; tool
// calls, outputs, reasoning and events are never kept), and the chunks
// are handed over at the end: the store's nodes and records for the file
// are then alive a chunk at a time, not all at once. The turns, their
// order, the skips and the errors are Parse's; an error of emit ends the
// stream with it. With a nil emit every turn is kept in the returned
// Result; otherwise the Result holds only the skips.
func Stream(r io.Reader, name string, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	res, err := read(r, name)
	return chunks.HandOver(res, err, chunkBytes, emit)
}

// read is Parse.
func read(r io.Reader, name string) (transcript.Result, error) {
	p := &parser{name: name}
	sc := jsonlines.NewScanner(r, maxLineBytes)
	var pending error // a bad line that is forgiven if nothing follows it
	for sc.Scan() {
		raw, n := sc.Bytes(), sc.Line()
		switch {
		case sc.TooLong():
			return transcript.Result{}, p.errorf(n, "line is longer than %d bytes", maxLineBytes)
		case len(bytes.TrimSpace(raw)) == 0:
		case pending != nil:
			return transcript.Result{}, pending
		default:
			if truncatable, err := p.line(raw, n); err != nil {
				if !truncatable {
					return transcript.Result{}, err
				}
				pending = err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return transcript.Result{}, fmt.Errorf("%s:%d: read: %w", name, sc.Line(), err)
	}
	if pending != nil {
		p.res.Skip(ReasonTruncatedLastLine)
	}
	return p.finish(), nil
}

// format is the shape of the rollout, known from its first record.
type format int

const (
	formatUnknown  format = iota
	formatEnvelope        // {"timestamp","type","payload"} lines
	formatLegacy          // a bare {"id","timestamp"} header, then bare response items
)

// candidate is a turn in the window: kept, or a user item awaiting its
// user_message event.
type candidate struct {
	turn     transcript.Turn
	awaiting bool
}

type parser struct {
	name   string
	res    transcript.Result
	format format
	// The session, from the first session_meta (or the legacy header).
	session   string
	synthetic bool
	legacyAt  time.Time // the legacy header's time: legacy items have none of their own
	cwd       string    // the latest working directory: session_meta, then turn_context
	title     string    // the latest thread name
	// window holds the turns from the first user item still awaiting its
	// event on; the turns before it are in res. It is normally empty or a
	// few lines long, as Codex writes an item's event right after it; in a
	// rollout that keeps no events it holds the turns to its end.
	window       []candidate
	waiting      []string // user_message texts that no user item has matched yet
	sawUserEvent bool     // the rollout keeps user_message events
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return &transcript.Error{File: p.name, Line: line, Message: fmt.Sprintf(format, args...)}
}

// record holds the fields read from every line. They stay raw so that a
// record type this package does not know, which may use the same names with
// other JSON types, is skipped instead of failing the file.
type record struct {
	Timestamp  json.RawMessage `json:"timestamp"`
	Type       json.RawMessage `json:"type"`
	Payload    json.RawMessage `json:"payload"`
	ID         json.RawMessage `json:"id"`          // the legacy header
	RecordType json.RawMessage `json:"record_type"` // legacy state lines
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

// line handles one non-blank line. truncatable reports an error that is
// forgiven on the last line: invalid JSON, as a half-written line is.
func (p *parser) line(raw []byte, n int) (truncatable bool, err error) {
	var rec record
	if e := json.Unmarshal(raw, &rec); e != nil {
		var syn *json.SyntaxError
		if errors.As(e, &syn) {
			return true, p.errorf(n, "invalid JSON: %s", strings.TrimPrefix(e.Error(), "json: "))
		}
		return false, p.errorf(n, "line is not a JSON object")
	}
	if bytes.TrimSpace(raw)[0] != '{' { // null decodes into a struct without error
		return false, p.errorf(n, "line is not a JSON object")
	}
	if p.format == formatUnknown {
		if err := p.start(&rec, n); err != nil {
			return false, err
		}
		if p.format == formatLegacy {
			return false, nil // the header line
		}
	}
	if p.format == formatLegacy {
		return false, p.legacyLine(&rec, raw, n)
	}
	typ := str(rec.Type)
	switch typ {
	case "response_item":
		return false, p.item(rec.Payload, rec.Timestamp, n)
	case "event_msg":
		p.event(rec.Payload)
	case "session_meta":
		return false, p.sessionMeta(rec.Payload, n)
	case "turn_context":
		var tc struct {
			Cwd json.RawMessage `json:"cwd"`
		}
		if json.Unmarshal(rec.Payload, &tc) == nil && str(tc.Cwd) != "" {
			p.cwd = str(tc.Cwd)
		}
		p.res.Skip(ReasonTurnContext)
	case "compacted":
		p.res.Skip(ReasonCompacted)
	default:
		p.res.Skip(ReasonUnknownType)
	}
	return false, nil
}

// start decides the format from the first record: an envelope line (type
// and payload), or the legacy header of rollouts written before Codex
// wrapped each line (id and timestamp, no type).
func (p *parser) start(rec *record, n int) error {
	if len(rec.Payload) > 0 && len(rec.Type) > 0 {
		p.format = formatEnvelope
		return nil
	}
	if len(rec.Type) == 0 && len(rec.ID) > 0 && len(rec.Timestamp) > 0 {
		p.format = formatLegacy
		id := str(rec.ID)
		if err := checkID(id); err != nil {
			return p.errorf(n, "legacy session header: id %q %v", id, err)
		}
		t, err := parseTime(str(rec.Timestamp))
		if err != nil {
			return p.errorf(n, "legacy session header: %v", err)
		}
		p.session, p.legacyAt = id, t
		p.res.Skip(ReasonSessionMeta)
		return nil
	}
	return p.errorf(n, "not a Codex rollout: the first record is neither a {timestamp, type, payload} line nor a legacy {id, timestamp} session header")
}

// legacyLine handles a line after the legacy header: state snapshots and
// bare response items, which carry no time of their own.
func (p *parser) legacyLine(rec *record, raw []byte, n int) error {
	switch {
	case len(rec.RecordType) > 0:
		p.res.Skip(ReasonLegacyState)
		return nil
	case len(rec.Type) > 0:
		return p.item(raw, nil, n)
	}
	p.res.Skip(ReasonUnknownType)
	return nil
}

// sessionMeta names the session from the first session_meta. A later one
// belongs to history Codex copied into a forked rollout, with the parent's
// id; its lines stay in this file's session (see doc.go).
func (p *parser) sessionMeta(payload json.RawMessage, n int) error {
	p.res.Skip(ReasonSessionMeta)
	if p.session != "" {
		return nil
	}
	var meta struct {
		ID     json.RawMessage `json:"id"`
		Cwd    json.RawMessage `json:"cwd"`
		Source json.RawMessage `json:"source"`
	}
	if len(payload) == 0 || payload[0] != '{' || json.Unmarshal(payload, &meta) != nil {
		return p.errorf(n, "session_meta has no payload object")
	}
	id := str(meta.ID)
	if err := checkID(id); err != nil {
		return p.errorf(n, "session_meta: id %q %v", id, err)
	}
	p.session, p.cwd = id, str(meta.Cwd)
	// "cli", "vscode", "exec" and "mcp" are strings; a sub-agent's source
	// ({"subagent": …}) or an internal one is an object: nobody typed its
	// prompts.
	src := bytes.TrimSpace(meta.Source)
	p.synthetic = len(src) > 0 && src[0] == '{'
	return nil
}

// event reads the two events the turns need: user_message, which confirms
// a user item as a prompt, and thread_name_updated, the session's title.
func (p *parser) event(payload json.RawMessage) {
	p.res.Skip(ReasonEvent)
	var ev struct {
		Type       json.RawMessage `json:"type"`
		Message    json.RawMessage `json:"message"`
		ThreadName json.RawMessage `json:"thread_name"`
	}
	if json.Unmarshal(payload, &ev) != nil {
		return
	}
	switch str(ev.Type) {
	case "user_message":
		p.sawUserEvent = true
		if msg := str(ev.Message); msg != "" {
			p.confirm(msg)
		}
	case "thread_name_updated":
		p.title = str(ev.ThreadName)
	}
}

// confirm matches a user_message event with the earliest user item of the
// same text that awaits one. Codex writes an item and then its event, so
// items awaiting before the matched one will never be confirmed: they are
// dropped now, which keeps the window short. An event that comes first
// waits for its item.
func (p *parser) confirm(msg string) {
	for i, c := range p.window {
		if !c.awaiting || c.turn.Content != msg {
			continue
		}
		p.window[i].awaiting = false
		p.dropAwaiting(i)
		return
	}
	if len(p.waiting) == maxWaitingEvents {
		p.waiting = p.waiting[1:]
	}
	p.waiting = append(p.waiting, msg)
}

// dropAwaiting drops the items of the window before index end that still
// await their event, then moves the turns that no longer wait on anything
// to res, chained in file order.
func (p *parser) dropAwaiting(end int) {
	kept := p.window[:0]
	for i, c := range p.window {
		if i < end && c.awaiting {
			p.res.Skip(ReasonUnconfirmed)
			continue
		}
		kept = append(kept, c)
	}
	clear(p.window[len(kept):]) // no text lingers in the spare capacity
	p.window = kept
	for len(p.window) > 0 && !p.window[0].awaiting {
		p.emit(p.window[0].turn)
		p.window = p.window[1:]
	}
	if len(p.window) == 0 {
		p.window = nil
	}
}

// emit appends a turn to the result, hung from the previous one.
func (p *parser) emit(t transcript.Turn) {
	if n := len(p.res.Turns); n > 0 {
		t.Parent = p.res.Turns[n-1].ID
	}
	p.res.Turns = append(p.res.Turns, t)
}

// finish drops the user items still awaiting their event (or keeps them
// all in a rollout with no user_message event) and names every turn after
// the session.
func (p *parser) finish() transcript.Result {
	if !p.sawUserEvent {
		// Some Codex versions did not keep user_message events in the
		// rollout: with none at all, a user item that is not boilerplate
		// is a prompt, as in a legacy rollout.
		for i := range p.window {
			p.window[i].awaiting = false
		}
	}
	p.dropAwaiting(len(p.window))
	for i := range p.res.Turns {
		p.res.Turns[i].Title, p.res.Turns[i].Synthetic = p.title, p.synthetic
	}
	return p.res
}

// add takes a turn of line n at time rawTime (or the legacy header's
// time): to the result, or to the window when it awaits its event or comes
// after one that does.
func (p *parser) add(role, text string, rawTime json.RawMessage, n int, awaiting bool) error {
	if p.session == "" {
		return p.errorf(n, "%s message before the session_meta line that names the session", role)
	}
	t := p.legacyAt
	if p.format != formatLegacy {
		var err error
		if t, err = parseTime(str(rawTime)); err != nil {
			return p.errorf(n, "%s message: %v", role, err)
		}
	}
	turn := transcript.Turn{
		Provider: Provider, Session: p.session, ID: strconv.Itoa(n),
		Role: role, Content: text, Time: t, Tier: transcript.TierOwner, Project: p.cwd,
	}
	if !awaiting && len(p.window) == 0 {
		p.emit(turn)
		return nil
	}
	p.window = append(p.window, candidate{turn: turn, awaiting: awaiting})
	return nil
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

// checkID reports why id cannot be a session id: source ids are
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
