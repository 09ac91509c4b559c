package claudecode

import (
	"strings"

	"scriptorium/transcript/internal/jsonscan"
)

// fields are what the parser reads of a line, decoded.
type fields struct {
	typ, uuid, parent, logicalParent, session, timestamp, cwd string
	sidechain, meta, compactSummary, apiError                 bool
	// msg is the message when the line was decoded in one pass, with its
	// content in content; else msgRaw holds it, decoded only once the
	// line is known to need it.
	msg     *message
	content *scannedContent
	msgRaw  []byte
}

// fields reads the envelope's raw values as the parser takes them: a
// string of another JSON type is "", a flag is set only by true.
func (env *envelope) fields() fields {
	return fields{typ: str(env.Type), uuid: str(env.UUID), parent: str(env.ParentUUID),
		logicalParent: str(env.LogicalParentUUID), session: str(env.SessionID),
		timestamp: str(env.Timestamp), cwd: str(env.Cwd), sidechain: isTrue(env.IsSidechain),
		meta: isTrue(env.IsMeta), compactSummary: isTrue(env.IsCompactSummary),
		apiError: isTrue(env.IsAPIErrorMessage), msgRaw: env.Message}
}

// fastPath is off only in the tests that compare both paths.
var fastPath = true

// scanner decodes the lines Claude Code writes in one pass over their
// bytes (jsonscan), validating the whole line and decoding only the
// fields the parser reads: a tool result's bytes are looked at once. The
// general path (envelope, then message, then content, each through
// encoding/json's validation and then its decoding) read a message line's
// bytes up to six times (the profile in BENCHMARKS.md). A line the
// scanner is not sure of (invalid JSON, a field of another type, a key
// that repeats or differs from a field's name only in case, which
// encoding/json would match) takes the general path, which decides and
// words the error: the scanner only ever accepts what it would.
type scanner struct {
	line    []byte
	msg     message
	content scannedContent
}

// scannedContent is message.content as the scanner found it: spans of the
// line, decoded only when the line is kept.
type scannedContent struct {
	line   []byte
	kind   byte // 0: absent or null; '"': a string (str); '[': a list (blocks)
	str    span
	blocks []scannedBlock
}

// span is a string token of the line, quotes included.
type span struct {
	start, end int
	escaped    bool
}

// scannedBlock is one element of a content list: its type, and its text
// when that is a string (a null text is the empty string, as
// encoding/json decodes it; hasText is false then).
type scannedBlock struct {
	typ     string
	text    span
	hasText bool
}

// Top-level fields, as bits of a set (a repeated field is left to the
// general path: encoding/json merges a repeated object).
const (
	fType = 1 << iota
	fUUID
	fParent
	fLogicalParent
	fSession
	fTimestamp
	fCwd
	fSidechain
	fMeta
	fCompactSummary
	fAPIError
	fMessage
)

var topNames = []string{"type", "uuid", "parentUuid", "logicalParentUuid", "sessionId", "timestamp",
	"cwd", "isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage", "message"}

// folds reports a key that encoding/json would take for one of names
// without being written as it: it matches a field case-insensitively
// (and Unicode-folded: "ſ" is "s"). An escaped key is treated the same.
func folds(key []byte, escaped bool, names []string) bool {
	if escaped {
		return true
	}
	for _, n := range names {
		if strings.EqualFold(string(key), n) {
			return true
		}
	}
	return false
}

// decode reads raw in one pass; ok is false when the general path must.
func (s *scanner) decode(raw []byte) (f fields, ok bool) {
	if !fastPath {
		return fields{}, false
	}
	s.line = raw
	i := jsonscan.Space(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return fields{}, false
	}
	var seen int
	end := jsonscan.Object(raw, i, func(key []byte, escaped bool, at int) int {
		bit, dst := 0, (*string)(nil)
		var flag *bool
		switch string(key) {
		case "type":
			bit, dst = fType, &f.typ
		case "uuid":
			bit, dst = fUUID, &f.uuid
		case "parentUuid":
			bit, dst = fParent, &f.parent
		case "logicalParentUuid":
			bit, dst = fLogicalParent, &f.logicalParent
		case "sessionId":
			bit, dst = fSession, &f.session
		case "timestamp":
			bit, dst = fTimestamp, &f.timestamp
		case "cwd":
			bit, dst = fCwd, &f.cwd
		case "isSidechain":
			bit, flag = fSidechain, &f.sidechain
		case "isMeta":
			bit, flag = fMeta, &f.meta
		case "isCompactSummary":
			bit, flag = fCompactSummary, &f.compactSummary
		case "isApiErrorMessage":
			bit, flag = fAPIError, &f.apiError
		case "message":
			if escaped || seen&fMessage != 0 {
				return -1
			}
			seen |= fMessage
			f.msg, f.content = &s.msg, &s.content
			return s.message(at)
		default:
			if folds(key, escaped, topNames) {
				return -1
			}
			return jsonscan.Value(raw, at)
		}
		if escaped || seen&bit != 0 {
			return -1
		}
		seen |= bit
		if dst != nil {
			return s.stringField(at, dst)
		}
		return s.flagField(at, flag)
	})
	if end < 0 || jsonscan.Space(raw, end) != len(raw) {
		return fields{}, false
	}
	return f, true
}

// stringField decodes a string or null (""); another type fails.
func (s *scanner) stringField(at int, dst *string) int {
	if at < len(s.line) && s.line[at] == 'n' {
		*dst = ""
		return jsonscan.Value(s.line, at)
	}
	if at >= len(s.line) || s.line[at] != '"' {
		return -1
	}
	end, esc := jsonscan.String(s.line, at)
	if end < 0 {
		return -1
	}
	v, ok := jsonscan.Unquote(s.line[at:end], esc)
	if !ok {
		return -1
	}
	*dst = v
	return end
}

// flagField decodes true, false or null (false); another type fails.
func (s *scanner) flagField(at int, dst *bool) int {
	if at >= len(s.line) {
		return -1
	}
	switch s.line[at] {
	case 't', 'f', 'n':
		end := jsonscan.Value(s.line, at)
		*dst = end >= 0 && s.line[at] == 't'
		return end
	}
	return -1
}

var messageNames = []string{"role", "model", "content"}

// message reads the message object at s.line[at]: role and model must be
// strings or null, content a string, a list of objects, or null.
func (s *scanner) message(at int) int {
	line := s.line
	if at >= len(line) || line[at] != '{' {
		return -1
	}
	s.msg = message{}
	c := &s.content
	c.line, c.kind, c.blocks = line, 0, c.blocks[:0]
	var seen int
	return jsonscan.Object(line, at, func(key []byte, escaped bool, at int) int {
		bit := 0
		switch string(key) {
		case "role":
			bit = 1
		case "model":
			bit = 2
		case "content":
			bit = 4
		default:
			if folds(key, escaped, messageNames) {
				return -1
			}
			return jsonscan.Value(line, at)
		}
		if escaped || seen&bit != 0 {
			return -1
		}
		seen |= bit
		switch bit {
		case 1:
			return s.stringField(at, &s.msg.Role)
		case 2:
			return s.stringField(at, &s.msg.Model)
		}
		if at >= len(line) {
			return -1
		}
		switch line[at] {
		case 'n':
			return jsonscan.Value(line, at)
		case '"':
			end, esc := jsonscan.String(line, at)
			c.kind, c.str = '"', span{at, end, esc}
			return end
		case '[':
			c.kind = '['
			return jsonscan.Array(line, at, s.block)
		}
		return -1
	})
}

var blockNames = []string{"type", "text"}

// block reads one element of a content list, which must be an object
// whose type is a string or null, and whose text, if its type is "text",
// is a string or null.
func (s *scanner) block(at int) int {
	line := s.line
	if at >= len(line) || line[at] != '{' {
		return -1
	}
	var b scannedBlock
	var seen int
	textNull := false
	end := jsonscan.Object(line, at, func(key []byte, escaped bool, at int) int {
		bit := 0
		switch string(key) {
		case "type":
			bit = 1
		case "text":
			bit = 2
		default:
			if folds(key, escaped, blockNames) {
				return -1
			}
			return jsonscan.Value(line, at)
		}
		if escaped || seen&bit != 0 {
			return -1
		}
		seen |= bit
		if bit == 1 {
			return s.stringField(at, &b.typ)
		}
		if at < len(line) && line[at] == '"' {
			end, esc := jsonscan.String(line, at)
			b.text, b.hasText = span{at, end, esc}, end >= 0
			return end
		}
		end := jsonscan.Value(line, at)
		textNull = end >= 0 && line[at] == 'n'
		return end
	})
	if end < 0 || b.typ == "text" && !b.hasText && !textNull {
		return -1 // a text block without a string text: the general path words it
	}
	s.content.blocks = append(s.content.blocks, b)
	return end
}

// text returns the kept text and the dropped reasons of scanned content,
// as contentText does for the raw content.
func (c *scannedContent) text(role string) (string, []string) {
	var k kept
	switch c.kind {
	case '"':
		s, _ := jsonscan.Unquote(c.line[c.str.start:c.str.end], c.str.escaped)
		k.keep(s, role)
	case '[':
		for _, b := range c.blocks {
			if b.typ != "text" {
				k.dropped = append(k.dropped, blockReason(b.typ))
				continue
			}
			s := ""
			if b.hasText {
				s, _ = jsonscan.Unquote(c.line[b.text.start:b.text.end], b.text.escaped)
			}
			k.keep(s, role)
		}
	}
	return k.text(), k.dropped
}
