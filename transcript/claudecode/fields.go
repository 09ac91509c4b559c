package claudecode

import (
	"bytes"
	"encoding/json"
)

// fields are what the parser reads of a line, decoded.
type fields struct {
	typ, uuid, parent, logicalParent, session, timestamp, cwd string
	sidechain, meta, compactSummary, apiError                 bool
	// msg is the message when the line was decoded in one pass; else
	// msgRaw holds it, decoded only once the line is known to need it.
	msg    *message
	msgRaw json.RawMessage
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

// fastLine is a line whose fields all have the JSON types the parser
// expects, decoded in one pass: the lines Claude Code writes. The general
// path (envelope) decodes each field raw and then again, which scanned a
// message line's bytes six times (the profile in BENCHMARKS.md); a line
// this cannot decode (a field of another type, invalid JSON) takes it.
type fastLine struct {
	Type              *string  `json:"type"`
	UUID              *string  `json:"uuid"`
	ParentUUID        *string  `json:"parentUuid"`
	LogicalParentUUID *string  `json:"logicalParentUuid"`
	SessionID         *string  `json:"sessionId"`
	Timestamp         *string  `json:"timestamp"`
	Cwd               *string  `json:"cwd"`
	IsSidechain       *bool    `json:"isSidechain"`
	IsMeta            *bool    `json:"isMeta"`
	IsCompactSummary  *bool    `json:"isCompactSummary"`
	IsAPIErrorMessage *bool    `json:"isApiErrorMessage"`
	Message           *message `json:"message"`
}

// fastPath is off only in the test that compares both paths.
var fastPath = true

// decodeFast decodes a line in one pass; ok is false when the general
// path must read it.
func decodeFast(raw []byte) (fields, bool) {
	if !fastPath {
		return fields{}, false
	}
	if t := bytes.TrimLeft(raw, " \t\r"); len(t) == 0 || t[0] != '{' {
		return fields{}, false
	}
	var l fastLine
	if json.Unmarshal(raw, &l) != nil {
		return fields{}, false
	}
	s := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	b := func(p *bool) bool { return p != nil && *p }
	return fields{typ: s(l.Type), uuid: s(l.UUID), parent: s(l.ParentUUID), logicalParent: s(l.LogicalParentUUID),
		session: s(l.SessionID), timestamp: s(l.Timestamp), cwd: s(l.Cwd), sidechain: b(l.IsSidechain),
		meta: b(l.IsMeta), compactSummary: b(l.IsCompactSummary), apiError: b(l.IsAPIErrorMessage), msg: l.Message}, true
}
