package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"scriptorium/transcript"
)

// Provider is the provider of every turn this package emits.
const Provider = "claude-code"

// Skip reasons, the keys of Result.Skipped. Line reasons count whole lines;
// block reasons count content blocks dropped from a message line (a line
// whose blocks are all dropped is counted by its blocks only).
const (
	// Line reasons.
	ReasonSummary           = "summary"             // type "summary": a branch title
	ReasonSystem            = "system"              // type "system": compact boundaries, notices, API errors
	ReasonNonMessage        = "non_message"         // file-history-snapshot, queue-operation, progress
	ReasonUnknownType       = "unknown_type"        // any other or missing type
	ReasonMeta              = "meta"                // isMeta: caveats and expanded commands the CLI injected
	ReasonCompactSummary    = "compact_summary"     // isCompactSummary: the digest written after /compact
	ReasonAPIError          = "api_error"           // isApiErrorMessage: an error shown as an assistant line
	ReasonSyntheticMessage  = "synthetic_message"   // model "<synthetic>": e.g. "No response requested."
	ReasonDuplicate         = "duplicate"           // a uuid seen earlier in the file
	ReasonNULCharacter      = "nul_character"       // content with U+0000, which the store refuses
	ReasonTruncatedLastLine = "truncated_last_line" // an invalid last line: still being written
	// Block reasons (a string content counts as one text block).
	ReasonThinking       = "thinking"        // thinking, redacted_thinking
	ReasonToolUse        = "tool_use"        // tool_use, server_tool_use, mcp_tool_use
	ReasonToolResult     = "tool_result"     // tool_result and *_tool_result
	ReasonImage          = "image"           // image
	ReasonDocument       = "document"        // document (an attached PDF or file)
	ReasonUnknownBlock   = "unknown_block"   // any other block type
	ReasonCommand        = "command"         // slash-command and ! bash wrappers and their output
	ReasonSystemReminder = "system_reminder" // <system-reminder> text the CLI added
	ReasonInterrupted    = "interrupted"     // "[Request interrupted by user…]"
	ReasonEmpty          = "empty"           // blank text, "(no content)", or no content at all
	// Link reasons: the turn is kept, as a root.
	ReasonParentNotInFile    = "parent_not_in_file"
	ReasonParentOtherSession = "parent_other_session"
)

// maxLineBytes bounds one line. Lines carry pasted images as base64, so the
// bound is generous; it exists so a corrupt file cannot exhaust memory.
const maxLineBytes = 64 << 20

// Parse reads one Claude Code transcript. name is used only in error
// messages. An invalid line followed by another line is an *transcript.Error
// with its line number; the same on the last line is tolerated.
func Parse(r io.Reader, name string) (transcript.Result, error) {
	var turns []transcript.Turn
	res, _, err := Stream(r, name, StreamOptions{}, func(chunk []transcript.Turn) error {
		turns = append(turns, chunk...)
		return nil
	})
	if err != nil {
		return transcript.Result{}, err
	}
	res.Turns = turns
	return res, nil
}

// link is what a line passes on to its children: the nearest kept turn at or
// above it (its own uuid if kept) and that turn's session. detached means the
// chain above was cut (a parent not in the file), so a kept child reports it.
type link struct {
	kept, session string
	detached      bool
}

type parser struct {
	name string
	res  transcript.Result
	seen map[string]link // uuid -> link, for every line with a uuid so far
	// held is the content bytes of res.Turns, towards the next chunk.
	held int
	scan scanner
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return &transcript.Error{File: p.name, Line: line, Message: fmt.Sprintf(format, args...)}
}

// envelope holds the fields read from every line. They stay raw so that a
// record type this package does not know, which may use the same names with
// other JSON types, is skipped instead of failing the file.
type envelope struct {
	Type              json.RawMessage `json:"type"`
	UUID              json.RawMessage `json:"uuid"`
	ParentUUID        json.RawMessage `json:"parentUuid"`
	LogicalParentUUID json.RawMessage `json:"logicalParentUuid"`
	SessionID         json.RawMessage `json:"sessionId"`
	Timestamp         json.RawMessage `json:"timestamp"`
	Cwd               json.RawMessage `json:"cwd"`
	IsSidechain       json.RawMessage `json:"isSidechain"`
	IsMeta            json.RawMessage `json:"isMeta"`
	IsCompactSummary  json.RawMessage `json:"isCompactSummary"`
	IsAPIErrorMessage json.RawMessage `json:"isApiErrorMessage"`
	Message           json.RawMessage `json:"message"`
}

type message struct {
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
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

func isTrue(raw json.RawMessage) bool { return string(raw) == "true" }

// line handles one non-blank line. truncatable reports an error that is
// forgiven on the last line: invalid JSON, as a half-written line is.
func (p *parser) line(raw []byte, n int) (truncatable bool, err error) {
	f, ok := p.scan.decode(raw)
	if !ok {
		var env envelope
		if e := json.Unmarshal(raw, &env); e != nil {
			var syn *json.SyntaxError
			if errors.As(e, &syn) {
				return true, p.errorf(n, "invalid JSON: %s", strings.TrimPrefix(e.Error(), "json: "))
			}
			return false, p.errorf(n, "line is not a JSON object")
		}
		if bytes.TrimSpace(raw)[0] != '{' { // null decodes into a struct without error
			return false, p.errorf(n, "line is not a JSON object")
		}
		f = env.fields()
	}
	typ, uuid := f.typ, f.uuid
	switch typ {
	case "user", "assistant":
		return false, p.message(&f, typ, uuid, n)
	case "summary":
		p.res.Skip(ReasonSummary)
	case "system":
		p.res.Skip(ReasonSystem)
	case "file-history-snapshot", "queue-operation", "progress":
		p.res.Skip(ReasonNonMessage)
	default:
		p.res.Skip(ReasonUnknownType)
	}
	// A skipped line with a uuid is still a link in the chain.
	if _, dup := p.seen[uuid]; uuid != "" && !dup {
		p.seen[uuid] = p.above(&f)
	}
	return false, nil
}

// above resolves what a line hangs from: its parentUuid, or for a compact
// boundary (parentUuid null) its logicalParentUuid.
func (p *parser) above(f *fields) link {
	ref := f.parent
	if ref == "" {
		ref = f.logicalParent
	}
	if ref == "" {
		return link{}
	}
	l, ok := p.seen[ref]
	if !ok {
		return link{detached: true}
	}
	return l
}

// message handles a user or assistant line.
func (p *parser) message(f *fields, role, uuid string, n int) error {
	if uuid == "" {
		return p.errorf(n, "%s line has no uuid", role)
	}
	session := f.session
	if session == "" {
		return p.errorf(n, "%s line %s has no sessionId", role, uuid)
	}
	if _, dup := p.seen[uuid]; dup {
		p.res.Skip(ReasonDuplicate)
		return nil
	}
	up := p.above(f)
	skip := func(reason string) error {
		p.res.Skip(reason)
		p.seen[uuid] = up
		return nil
	}
	switch {
	case f.meta:
		return skip(ReasonMeta)
	case f.compactSummary:
		return skip(ReasonCompactSummary)
	case role == transcript.RoleAssistant && f.apiError:
		return skip(ReasonAPIError)
	}
	msg := f.msg
	if msg == nil {
		if len(f.msgRaw) == 0 || f.msgRaw[0] != '{' {
			return p.errorf(n, "%s line %s has no message object", role, uuid)
		}
		msg = new(message)
		if err := json.Unmarshal(f.msgRaw, msg); err != nil {
			return p.errorf(n, "%s line %s: message: %s", role, uuid, strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	if role == transcript.RoleAssistant && msg.Model == "<synthetic>" {
		return skip(ReasonSyntheticMessage)
	}
	var text string
	var dropped []string
	var err error
	if f.content != nil {
		text, dropped = f.content.text(role)
	} else if text, dropped, err = contentText(msg.Content, role); err != nil {
		return p.errorf(n, "%s line %s: %v", role, uuid, err)
	}
	for _, r := range dropped {
		p.res.Skip(r)
	}
	if text == "" {
		if len(dropped) == 0 {
			p.res.Skip(ReasonEmpty)
		}
		p.seen[uuid] = up
		return nil
	}
	if strings.IndexByte(text, 0) >= 0 {
		return skip(ReasonNULCharacter)
	}
	ts := f.timestamp
	t, err := time.Parse(time.RFC3339Nano, ts)
	t = t.UTC()
	// Years 0 and 10000 can appear in UTC even when the written year is in
	// range; the store refuses them, and the zero time means "no time".
	if err != nil || t.IsZero() || t.Year() < 1 || t.Year() > 9999 {
		return p.errorf(n, "%s line %s: bad timestamp %q: want RFC 3339", role, uuid, ts)
	}

	parent := up.kept
	switch {
	case up.detached:
		p.res.Skip(ReasonParentNotInFile)
	case parent != "" && up.session != session:
		p.res.Skip(ReasonParentOtherSession)
		parent = ""
	}
	p.seen[uuid] = link{kept: uuid, session: session}
	p.held += len(text)
	p.res.Turns = append(p.res.Turns, transcript.Turn{
		Provider: Provider, Session: session, ID: uuid, Parent: parent,
		Role: role, Content: text, Time: t, Tier: transcript.TierOwner,
		Synthetic: f.sidechain, Project: f.cwd,
	})
	return nil
}

// block is one element of a content list. Text stays raw so that an unknown
// block type with a non-string "text" is skipped, not an error.
type block struct {
	Type string          `json:"type"`
	Text json.RawMessage `json:"text"`
}

// contentText returns the kept text of message.content (a string or a list
// of blocks) and the reasons of what it dropped, one per dropped block.
func contentText(raw json.RawMessage, role string) (string, []string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil, nil
	}
	var k kept
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", nil, fmt.Errorf("message.content: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		k.keep(s, role)
	case '[':
		var blocks []block
		if err := json.Unmarshal(raw, &blocks); err != nil {
			return "", nil, fmt.Errorf("message.content: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
		for i, b := range blocks {
			if b.Type != "text" {
				k.dropped = append(k.dropped, blockReason(b.Type))
				continue
			}
			var s string
			if err := json.Unmarshal(b.Text, &s); err != nil {
				return "", nil, fmt.Errorf("message.content[%d]: text block without a string text", i)
			}
			k.keep(s, role)
		}
	default:
		return "", nil, errors.New("message.content must be a string or a list of content blocks")
	}
	return k.text(), k.dropped, nil
}

// kept gathers a message's text blocks and the reasons of those dropped.
type kept struct {
	pieces, dropped []string
}

func (k *kept) keep(s, role string) {
	if r := textReason(s, role); r != "" {
		k.dropped = append(k.dropped, r)
	} else {
		k.pieces = append(k.pieces, s)
	}
}

// text joins the kept blocks, a blank line between two.
func (k *kept) text() string { return strings.Join(k.pieces, "\n\n") }

func blockReason(typ string) string {
	switch {
	case typ == "thinking" || typ == "redacted_thinking":
		return ReasonThinking
	case typ == "tool_use" || typ == "server_tool_use" || typ == "mcp_tool_use":
		return ReasonToolUse
	case typ == "tool_result" || strings.HasSuffix(typ, "_tool_result"):
		return ReasonToolResult
	case typ == "image":
		return ReasonImage
	case typ == "document":
		return ReasonDocument
	}
	return ReasonUnknownBlock
}

// commandPrefixes open the user lines Claude Code writes for slash commands,
// ! bash mode and their output: mechanics, not something said to the agent.
var commandPrefixes = []string{
	"<command-name>", "<command-message>", "<command-args>",
	"<local-command-stdout>", "<local-command-stderr>", "<local-command-caveat>",
	"<bash-input>", "<bash-stdout>", "<bash-stderr>",
}

// textReason returns why a text block is not a turn's text, or "".
func textReason(s, role string) string {
	t := strings.TrimSpace(s)
	if t == "" || t == "(no content)" { // the CLI's placeholder for an empty block
		return ReasonEmpty
	}
	if role != transcript.RoleUser {
		return ""
	}
	for _, p := range commandPrefixes {
		if strings.HasPrefix(t, p) {
			return ReasonCommand
		}
	}
	switch {
	case strings.HasPrefix(t, "<system-reminder>"):
		return ReasonSystemReminder
	case strings.HasPrefix(t, "[Request interrupted by user"):
		return ReasonInterrupted
	}
	return ""
}
