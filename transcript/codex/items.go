package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"scriptorium/transcript"
)

// item handles one response item: the payload of a response_item line, or
// a bare line of a legacy rollout (rawTime nil).
func (p *parser) item(raw, rawTime json.RawMessage, n int) error {
	var it struct {
		Type    json.RawMessage `json:"type"`
		Role    json.RawMessage `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &it) != nil {
		return p.errorf(n, "response_item has no payload object")
	}
	switch typ := str(it.Type); {
	case typ == "message":
	case typ == "reasoning":
		p.res.Skip(ReasonReasoning)
		return nil
	case strings.HasSuffix(typ, "_call"):
		p.res.Skip(ReasonToolCall)
		return nil
	case strings.HasSuffix(typ, "_output"):
		p.res.Skip(ReasonToolOutput)
		return nil
	case typ == "compaction" || typ == "compaction_summary":
		p.res.Skip(ReasonCompaction)
		return nil
	default:
		p.res.Skip(ReasonOtherItem)
		return nil
	}
	role := str(it.Role)
	switch role {
	case transcript.RoleUser, transcript.RoleAssistant:
	case "developer", "system":
		p.res.Skip(ReasonDeveloper)
		return nil
	default:
		p.res.Skip(ReasonUnknownRole)
		return nil
	}
	pieces, dropped, err := contentPieces(it.Content)
	if err != nil {
		return p.errorf(n, "%s message: %v", role, err)
	}
	if role == transcript.RoleUser && boilerplate(pieces) {
		if cwd := contextCwd(pieces); cwd != "" {
			p.cwd = cwd
		}
		p.res.Skip(ReasonBoilerplate)
		return nil
	}
	for _, r := range dropped {
		p.res.Skip(r)
	}
	// Codex flattens a prompt's text pieces with nothing between them (its
	// user_message event does the same); an answer's pieces are paragraphs.
	sep := "\n\n"
	if role == transcript.RoleUser {
		sep = ""
	}
	text := strings.Join(pieces, sep)
	switch {
	case strings.TrimSpace(text) == "":
		if len(dropped) == 0 {
			p.res.Skip(ReasonEmpty)
		}
		return nil
	case strings.IndexByte(text, 0) >= 0:
		p.res.Skip(ReasonNULCharacter)
		return nil
	case role == transcript.RoleAssistant || p.format == formatLegacy:
		// A legacy rollout has no user_message events: every user item
		// that is not boilerplate is a prompt.
		return p.add(role, text, rawTime, n, false)
	}
	for i, msg := range p.waiting {
		if msg == text { // its event came first
			p.waiting = append(p.waiting[:i], p.waiting[i+1:]...)
			return p.add(role, text, rawTime, n, false)
		}
	}
	return p.add(role, text, rawTime, n, true)
}

type contentItem struct {
	Type json.RawMessage `json:"type"`
	Text json.RawMessage `json:"text"`
}

// contentPieces returns the text pieces of a message's content list and the
// reasons of what it dropped, one per dropped item. The <image> tags Codex
// writes around a pasted image, and its note for an image it could not
// read, go with the image: they are not in the user_message event.
func contentPieces(raw json.RawMessage) ([]string, []string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	var items []contentItem
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		return nil, nil, errors.New("content must be a list of content items")
	}
	var pieces, dropped []string
	for i, c := range items {
		switch str(c.Type) {
		case "input_text", "output_text":
			var s string
			if err := json.Unmarshal(c.Text, &s); err != nil {
				return nil, nil, fmt.Errorf("content[%d]: text item without a string text", i)
			}
			if !imageNote(s) {
				pieces = append(pieces, s)
			}
		case "input_image":
			dropped = append(dropped, ReasonImage)
		default:
			dropped = append(dropped, ReasonUnknownContent)
		}
	}
	return pieces, dropped, nil
}

// imageNote reports the text pieces Codex adds around or instead of a
// pasted image (models.rs: image_open_tag_text, local_image_open_tag_text,
// image_close_tag_text, local_image_error_placeholder).
func imageNote(s string) bool {
	return s == "<image>" || s == "</image>" ||
		strings.HasPrefix(s, "<image name=") && strings.HasSuffix(s, ">") && !strings.Contains(s, "\n") ||
		strings.HasPrefix(s, "Codex could not read the local image at `")
}

// boilerplatePrefixes open the user items Codex writes itself, compared
// case-insensitively after leading white space as Codex does: environment
// context, user instructions and AGENTS.md, a ! shell command and its
// output, an aborted turn's note, a sub-agent's status, a skill's text, a
// review's result, the sandbox's instructions.
var boilerplatePrefixes = []string{
	"<environment_context>", "<user_instructions>", "# agents.md instructions",
	"<user_shell_command>", "<turn_aborted>", "<subagent_notification>", "<skill>",
	"<user_action>", "<permissions instructions>",
}

// boilerplate reports a user item with any such piece: Codex itself does
// not take it for a message from the user (event_mapping.rs).
func boilerplate(pieces []string) bool {
	for _, s := range pieces {
		s = strings.TrimLeft(s, " \t\r\n")
		for _, pre := range boilerplatePrefixes {
			if len(s) >= len(pre) && strings.EqualFold(s[:len(pre)], pre) {
				return true
			}
		}
	}
	return false
}

// contextCwd is the <cwd> of an <environment_context> item: the working
// directory Codex told the model about. A legacy rollout names its
// directory nowhere else.
func contextCwd(pieces []string) string {
	for _, s := range pieces {
		if !strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "<environment_context>") {
			continue
		}
		_, rest, ok := strings.Cut(s, "<cwd>")
		if !ok {
			continue
		}
		if cwd, _, ok := strings.Cut(rest, "</cwd>"); ok && !strings.Contains(cwd, "\n") {
			return cwd
		}
	}
	return ""
}
