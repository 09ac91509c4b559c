package gemini

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"scriptorium/transcript"
)

// document reads the JSON form, a ConversationRecord {sessionId,
// projectHash, startTime, lastUpdated, messages, summary?, directories?,
// kind?}, one message at a time.
func (p *parser) document(r io.Reader) error {
	dec := json.NewDecoder(r)
	fail := func(record, format string, args ...any) error {
		return &transcript.Error{File: p.name, Record: record, Message: fmt.Sprintf(format, args...)}
	}
	if tok, err := dec.Token(); err != nil {
		return fail("", "%s (%s)", notSession, jsonProblem(err))
	} else if tok != json.Delim('{') {
		return fail("", "%s", notSession)
	}
	top := map[string]json.RawMessage{}
	sawMessages := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fail("", "%s", jsonProblem(err))
		}
		key, _ := tok.(string)
		if key != "messages" {
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return fail("", "%s: %s", key, jsonProblem(err))
			}
			top[key] = v
			continue
		}
		sawMessages = true
		if err := p.messages(dec); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // the closing }
		return fail("", "%s", jsonProblem(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail("", "unexpected data after the session object")
	}
	if !sawMessages || !isString(top["sessionId"]) {
		return fail("", "%s", notSession)
	}
	meta, _ := json.Marshal(top)
	p.metadata(meta)
	p.res.Skip(ReasonMetadata)
	return nil
}

// messages reads the messages list, naming a bad message by its index (as
// jq '.messages[N]' does) and id.
func (p *parser) messages(dec *json.Decoder) error {
	fail := func(record, format string, args ...any) error {
		return &transcript.Error{File: p.name, Record: record, Message: fmt.Sprintf(format, args...)}
	}
	if tok, err := dec.Token(); err != nil {
		return fail("messages", "%s", jsonProblem(err))
	} else if tok != json.Delim('[') {
		return fail("messages", "messages is not a list")
	}
	for i := 0; dec.More(); i++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fail(fmt.Sprintf("messages[%d]", i), "%s", jsonProblem(err))
		}
		var m message
		if !isObject(raw) || json.Unmarshal(raw, &m) != nil {
			return fail(fmt.Sprintf("messages[%d]", i), "message is not an object")
		}
		if err := p.message(&m); err != nil {
			return fail(fmt.Sprintf("messages[%d] (id %q)", i, str(m.ID)), "%v", err)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ]
		return fail("messages", "%s", jsonProblem(err))
	}
	return nil
}

func jsonProblem(err error) string {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(err.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of file (the session is cut short)"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
