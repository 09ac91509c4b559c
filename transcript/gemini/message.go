package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"scriptorium/transcript"
)

// message is a MessageRecord (chatRecordingTypes.ts). Fields stay raw so a
// shape this package does not know is counted, not a failure.
type message struct {
	ID             json.RawMessage `json:"id"`
	Timestamp      json.RawMessage `json:"timestamp"`
	Type           json.RawMessage `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent"`
	ToolCalls      json.RawMessage `json:"toolCalls"`
	Thoughts       json.RawMessage `json:"thoughts"`
}

// message handles one message record. Gemini writes a message again, whole,
// each time it updates it (tokens, tool results): the text of the last copy
// wins, and the message keeps its first place.
func (p *parser) message(m *message) error {
	id := str(m.ID)
	if err := checkID(id); err != nil {
		return fmt.Errorf("message id %q %v", id, err)
	}
	if i, seen := p.index[id]; seen {
		p.res.Skip(ReasonUpdate)
		return p.update(id, i, m)
	}
	up := p.tip
	p.above[id] = up
	p.index[id] = -1
	role, text, reasons, err := m.turnText()
	if err != nil {
		return fmt.Errorf("message %s: %v", id, err)
	}
	for _, r := range reasons {
		p.res.Skip(r)
	}
	if role == "" {
		if dir := m.contextDir(); dir != "" && p.contextDir == "" {
			p.contextDir = dir
		}
		return nil
	}
	t, err := parseTime(str(m.Timestamp))
	if err != nil {
		return fmt.Errorf("message %s: %v", id, err)
	}
	p.index[id] = len(p.res.Turns)
	p.tip = id
	p.res.Turns = append(p.res.Turns, transcript.Turn{
		Provider: Provider, ID: id, Parent: up, Role: role, Content: text, Time: t, Tier: transcript.TierOwner,
	})
	return nil
}

// update applies a later copy of message id (turn i, or -1): its text
// replaces the turn's (a copy that changes the speaker is ignored). A copy
// that first has text becomes a turn where the message was; the tip does
// not move.
func (p *parser) update(id string, i int, m *message) error {
	role, text, _, err := m.turnText()
	switch {
	case err != nil:
		return fmt.Errorf("message %s: %v", id, err)
	case role == "":
		return nil // an update never takes a turn back: the text was said
	case i >= 0:
		if p.res.Turns[i].Role == role {
			p.res.Turns[i].Content = text
		}
		return nil
	}
	t, err := parseTime(str(m.Timestamp))
	if err != nil {
		return fmt.Errorf("message %s: %v", id, err)
	}
	p.index[id] = len(p.res.Turns)
	p.res.Turns = append(p.res.Turns, transcript.Turn{
		Provider: Provider, ID: id, Parent: p.above[id], Role: role, Content: text, Time: t, Tier: transcript.TierOwner,
	})
	return nil
}

// turnText returns the role and text of a message that is a turn (role ""
// otherwise) and the reasons of what it dropped: one message reason, or
// one part reason per dropped part, tool call and thought.
func (m *message) turnText() (role, text string, reasons []string, err error) {
	switch typ := str(m.Type); typ {
	case "user":
		return m.userText()
	case "gemini":
		text, reasons, err := partsText(m.Content)
		if err != nil {
			return "", "", nil, err
		}
		if count(m.ToolCalls) > 0 {
			// The functionCall parts repeat the calls toolCalls records.
			reasons = slices.DeleteFunc(reasons, func(r string) bool { return r == ReasonToolCall })
		}
		for range count(m.ToolCalls) {
			reasons = append(reasons, ReasonToolCall)
		}
		for range count(m.Thoughts) {
			reasons = append(reasons, ReasonThought)
		}
		return keep(transcript.RoleAssistant, text, reasons)
	case "info":
		return "", "", []string{ReasonInfo}, nil
	case "error":
		return "", "", []string{ReasonError}, nil
	case "warning":
		return "", "", []string{ReasonWarning}, nil
	}
	return "", "", []string{ReasonUnknownType}, nil
}

// userText applies the CLI's own rule for what the person typed
// (isIgnoredUserContent, sessionUtils.ts) to the content sent to the
// model: not a tool's response, not empty, not a slash command or ? help,
// not an injected <session_context> or <hook_context> (or the setup
// message of older versions). The turn's text is
// what the person saw themselves type: displayContent when the CLI kept
// one (an @file reference expands in content), else the content.
func (m *message) userText() (string, string, []string, error) {
	if hasPart(m.Content, "functionResponse") {
		return "", "", []string{ReasonToolResult}, nil
	}
	text, reasons, err := partsText(m.Content)
	if err != nil {
		return "", "", nil, err
	}
	switch t := strings.TrimSpace(text); {
	case strings.HasPrefix(t, "/") || strings.HasPrefix(t, "?"):
		return "", "", []string{ReasonCommand}, nil
	case strings.HasPrefix(t, "<session_context>") || strings.HasPrefix(t, "<hook_context>") || strings.HasPrefix(t, setupContext):
		return "", "", []string{ReasonContext}, nil
	}
	if len(bytes.TrimSpace(m.DisplayContent)) > 0 && string(bytes.TrimSpace(m.DisplayContent)) != "null" {
		shown, _, err := partsText(m.DisplayContent)
		if err != nil {
			return "", "", nil, fmt.Errorf("displayContent: %v", err)
		}
		if strings.TrimSpace(shown) != "" {
			text = shown
		}
	}
	return keep(transcript.RoleUser, text, reasons)
}

// keep returns the turn, or why there is none: the dropped parts, else
// empty or NUL.
func keep(role, text string, reasons []string) (string, string, []string, error) {
	switch {
	case strings.TrimSpace(text) == "":
		if len(reasons) == 0 {
			reasons = []string{ReasonEmpty}
		}
		return "", "", reasons, nil
	case strings.IndexByte(text, 0) >= 0:
		return "", "", append(reasons, ReasonNULCharacter), nil
	}
	return role, text, reasons, nil
}

// part is a @google/genai Part: text (thought: true marks reasoning), or
// one of the data fields.
type part struct {
	Text             json.RawMessage `json:"text"`
	Thought          json.RawMessage `json:"thought"`
	FunctionCall     json.RawMessage `json:"functionCall"`
	FunctionResponse json.RawMessage `json:"functionResponse"`
	InlineData       json.RawMessage `json:"inlineData"`
	FileData         json.RawMessage `json:"fileData"`
}

// parts decodes a PartListUnion: a string, a Part, or a list of strings and
// Parts. Absent and null are no parts.
func parts(raw json.RawMessage) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, nil
	case raw[0] == '"' || raw[0] == '{':
		return []json.RawMessage{raw}, nil
	case raw[0] == '[':
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
		return list, nil
	}
	return nil, errors.New("content must be a string, a part or a list of parts")
}

// partsText joins the text of the parts with nothing between them, as the
// CLI does (partListUnionToString), and returns a reason per other part.
func partsText(raw json.RawMessage) (string, []string, error) {
	list, err := parts(raw)
	if err != nil {
		return "", nil, err
	}
	var b strings.Builder
	var reasons []string
	for i, el := range list {
		el = bytes.TrimSpace(el)
		if len(el) > 0 && el[0] == '"' {
			var s string
			if err := json.Unmarshal(el, &s); err != nil {
				return "", nil, fmt.Errorf("content[%d]: %v", i, err)
			}
			b.WriteString(s)
			continue
		}
		var pt part
		if len(el) == 0 || el[0] != '{' || json.Unmarshal(el, &pt) != nil {
			reasons = append(reasons, ReasonUnknownPart)
			continue
		}
		switch {
		case len(pt.Text) > 0 && string(pt.Thought) == "true":
			reasons = append(reasons, ReasonThought)
		case len(pt.Text) > 0:
			var s string
			if err := json.Unmarshal(pt.Text, &s); err != nil {
				return "", nil, fmt.Errorf("content[%d]: text part without a string text", i)
			}
			b.WriteString(s)
		case len(pt.FunctionCall) > 0:
			reasons = append(reasons, ReasonToolCall)
		case len(pt.InlineData) > 0 || len(pt.FileData) > 0:
			reasons = append(reasons, ReasonAttachment)
		default:
			reasons = append(reasons, ReasonUnknownPart)
		}
	}
	return b.String(), reasons, nil
}

// hasPart reports a part with the key among the parts of raw.
func hasPart(raw json.RawMessage, key string) bool {
	list, err := parts(raw)
	if err != nil {
		return false
	}
	for _, el := range list {
		var keys map[string]json.RawMessage
		if json.Unmarshal(el, &keys) == nil {
			if _, ok := keys[key]; ok {
				return true
			}
		}
	}
	return false
}

// count is the length of a JSON list, 0 for anything else.
func count(raw json.RawMessage) int {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return 0
	}
	return len(list)
}

// setupContext opens the context message of versions before
// <session_context>, should one be recorded as a user message.
const setupContext = "This is the Gemini CLI. We are setting up the context for our chat."

// workingDirLine opens the line of the CLI's session context (and of the
// setup message of older versions) that names the working directory.
const workingDirLine = "I'm currently working in the directory: "

// contextDir is the working directory a user message injected by the CLI
// names, or "".
func (m *message) contextDir() string {
	if str(m.Type) != "user" {
		return ""
	}
	text, _, err := partsText(m.Content)
	if err != nil {
		return ""
	}
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "<session_context>") && !strings.HasPrefix(t, setupContext) {
		return ""
	}
	for line := range strings.Lines(t) {
		if dir, ok := strings.CutPrefix(strings.TrimSpace(line), workingDirLine); ok {
			return strings.TrimSpace(dir)
		}
	}
	return ""
}
