package chatgpt

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"scriptorium/transcript"
)

// Provider is the provider of every turn this package emits.
const Provider = "chatgpt"

// Skip reasons, the keys of Result.Skipped. Node reasons count mapping nodes
// that are not turns; part reasons count parts dropped from a message (a
// message whose parts are all dropped is counted by its parts only).
const (
	// Node reasons.
	ReasonNullMessage        = "null_message"         // a node without a message: the root
	ReasonSystem             = "system"               // author role system
	ReasonTool               = "tool"                 // author role tool: tool output, browsing, code results
	ReasonUnknownRole        = "unknown_role"         // any other author role
	ReasonHidden             = "hidden"               // metadata.is_visually_hidden_from_conversation
	ReasonToolUse            = "tool_use"             // an assistant message addressed to a tool (recipient not "all")
	ReasonCode               = "code"                 // content_type code addressed to the person
	ReasonThinking           = "thinking"             // content_type thoughts, reasoning_recap
	ReasonContext            = "context"              // user_editable_context, model_editable_context
	ReasonUnknownContentType = "unknown_content_type" // any other content_type
	ReasonNULCharacter       = "nul_character"        // text with U+0000, which the store refuses
	ReasonNoTime             = "no_time"              // no time on the message, its ancestors or the conversation
	// Part reasons.
	ReasonImage       = "image"         // image_asset_pointer
	ReasonNonTextPart = "non_text_part" // any other non-text part (audio, files, null)
	ReasonEmpty       = "empty"         // a message with no text at all
)

// Parse reads a ChatGPT conversations.json. name is used only in error
// messages. Malformed input (not an array, a conversation without an id, a
// parent that is not in the mapping, a cycle) is an *transcript.Error naming
// the conversation by its 0-based index in the array (as jq '.[N]' does) and
// its id; nothing of the file should then be imported.
func Parse(r io.Reader, name string) (transcript.Result, error) {
	var turns []transcript.Turn
	res, err := Stream(r, name, 0, func(chunk []transcript.Turn) error {
		turns = append(turns, chunk...)
		return nil
	})
	if err != nil {
		return transcript.Result{}, err
	}
	res.Turns = turns
	return res, nil
}

// DefaultChunkBytes is the turn text Stream holds before it hands the
// turns over: the memory an export of any size needs, besides one
// conversation.
const DefaultChunkBytes = 4 << 20

// Stream reads a conversations.json as Parse does, but hands its turns to
// emit a chunk of whole conversations at a time (chunkBytes of text or
// more; 0 means DefaultChunkBytes), parents first, so that an export is
// never held in memory whole: a conversation's turns never span two
// chunks. emit may keep the slice; its error ends the parse and is
// returned. An error after some chunks were handed over means the file is
// bad: the caller must not keep what it got. The Result has the skip
// counts only.
func Stream(r io.Reader, name string, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	if chunkBytes <= 0 {
		chunkBytes = DefaultChunkBytes
	}
	br := bufio.NewReader(r)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	dec := json.NewDecoder(br)
	fail := func(record, format string, args ...any) (transcript.Result, error) {
		return transcript.Result{}, &transcript.Error{File: name, Record: record, Message: fmt.Sprintf(format, args...)}
	}
	tok, err := dec.Token()
	if err != nil {
		return fail("", "not a JSON array of conversations: %s", jsonProblem(err))
	}
	if tok != json.Delim('[') {
		return fail("", "not a JSON array of conversations (a ChatGPT export's conversations.json is one)")
	}
	var res transcript.Result
	held := 0
	flush := func() error {
		if len(res.Turns) == 0 {
			return nil
		}
		turns := res.Turns
		res.Turns, held = nil, 0
		return emit(turns)
	}
	for i := 0; dec.More(); i++ {
		var c conversation
		if err := dec.Decode(&c); err != nil {
			return fail(fmt.Sprint(i), "%s", jsonProblem(err))
		}
		from := len(res.Turns)
		if err := c.turns(&res); err != nil {
			return fail(fmt.Sprintf("%d (id %q)", i, c.session()), "%v", err)
		}
		for _, t := range res.Turns[from:] {
			held += len(t.Content)
		}
		if held >= chunkBytes {
			if err := flush(); err != nil {
				return transcript.Result{}, err
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing ]
		return fail("", "%s", jsonProblem(err))
	}
	if _, err := dec.Token(); err != io.EOF {
		return fail("", "unexpected data after the array of conversations")
	}
	if err := flush(); err != nil {
		return transcript.Result{}, err
	}
	return res, nil
}

func jsonProblem(err error) string {
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(err.Error(), "json: "))
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of file (the export is cut short)"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

type conversation struct {
	ID             string           `json:"id"`
	ConversationID string           `json:"conversation_id"`
	Title          json.RawMessage  `json:"title"`
	CreateTime     *float64         `json:"create_time"`
	UpdateTime     *float64         `json:"update_time"`
	Mapping        map[string]*node `json:"mapping"`
}

type node struct {
	ID       string   `json:"id"`
	Message  *message `json:"message"`
	Parent   *string  `json:"parent"`
	Children []string `json:"children"`
}

type message struct {
	Author struct {
		Role string `json:"role"`
	} `json:"author"`
	CreateTime *float64 `json:"create_time"`
	Content    struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
	} `json:"content"`
	Recipient string `json:"recipient"`
	Metadata  struct {
		Hidden bool `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
}

// title is the conversation's title, or "" when it is null, absent or not
// a string (ChatGPT leaves it null until it has named the conversation).
func (c *conversation) title() string {
	var s string
	if json.Unmarshal(c.Title, &s) != nil {
		return ""
	}
	return s
}

func (c *conversation) session() string {
	if c.ConversationID != "" {
		return c.ConversationID
	}
	return c.ID
}

// link is what a node passes on to its children: the nearest kept turn at or
// above it and that turn's time.
type link struct {
	kept string
	time time.Time
}

// turns appends the conversation's turns to res, parents first.
func (c *conversation) turns(res *transcript.Result) error {
	session := c.session()
	if session == "" {
		return errors.New("conversation has no id or conversation_id")
	}
	order, parentOf, err := c.order()
	if err != nil {
		return err
	}
	// The conversation's own times are the fallback for messages without one.
	var fallback time.Time
	for _, f := range []*float64{c.CreateTime, c.UpdateTime} {
		if t, ok, err := unixTime(f); err != nil {
			return fmt.Errorf("conversation %v", err)
		} else if ok {
			fallback = t
			break
		}
	}
	title := c.title()
	links := make(map[string]link, len(order))
	for _, id := range order {
		up := links[parentOf[id]] // the zero link for a root
		n := c.Mapping[id]
		text, ok, err := n.text(res)
		if err != nil {
			return fmt.Errorf("mapping node %q: %v", id, err)
		}
		var t time.Time
		if ok {
			if strings.IndexByte(text, 0) >= 0 {
				res.Skip(ReasonNULCharacter)
				ok = false
			} else if t, ok, err = turnTime(n, up, fallback); err != nil {
				return fmt.Errorf("mapping node %q: %v", id, err)
			} else if !ok {
				res.Skip(ReasonNoTime)
			}
		}
		if !ok {
			links[id] = up // transparent: children hang from what is above
			continue
		}
		links[id] = link{kept: id, time: t}
		res.Turns = append(res.Turns, transcript.Turn{
			Provider: Provider, Session: session, ID: id, Parent: up.kept,
			Role: n.Message.Author.Role, Content: text, Time: t, Tier: transcript.TierOwner,
			Title: title,
		})
	}
	return nil
}

// turnTime is the message's create_time, else the nearest kept ancestor's
// time, else the conversation's.
func turnTime(n *node, up link, fallback time.Time) (time.Time, bool, error) {
	t, ok, err := unixTime(n.Message.CreateTime)
	switch {
	case err != nil || ok:
		return t, ok, err
	case !up.time.IsZero():
		return up.time, true, nil
	case !fallback.IsZero():
		return fallback, true, nil
	}
	return time.Time{}, false, nil
}

// order checks the mapping's shape and returns its node ids parents first,
// with each node's parent id ("" for a root).
func (c *conversation) order() ([]string, map[string]string, error) {
	ids := make([]string, 0, len(c.Mapping))
	for id := range c.Mapping {
		ids = append(ids, id)
	}
	slices.Sort(ids) // so the first problem reported is always the same one
	parentOf := make(map[string]string, len(ids))
	children := map[string][]string{}
	var roots []string
	for _, id := range ids {
		n := c.Mapping[id]
		switch {
		case n == nil:
			return nil, nil, fmt.Errorf("mapping node %q is null", id)
		case n.ID != "" && n.ID != id:
			return nil, nil, fmt.Errorf("mapping key %q holds node id %q", id, n.ID)
		}
		p := ""
		if n.Parent != nil {
			p = *n.Parent
		}
		if p == "" {
			roots = append(roots, id)
			continue
		}
		if _, ok := c.Mapping[p]; !ok {
			return nil, nil, fmt.Errorf("mapping node %q: parent %q is not in the mapping", id, p)
		}
		parentOf[id] = p
		children[p] = append(children[p], id)
	}
	for p, kids := range children {
		c.sortSiblings(p, kids)
	}
	order := make([]string, 0, len(ids))
	// Depth first with an explicit stack: a long conversation is a deep chain.
	stack := slices.Clone(roots)
	slices.Reverse(stack)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, id)
		kids := children[id]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	if len(order) < len(ids) {
		// Every parent exists, so a node no root reaches sits on a cycle.
		reached := make(map[string]bool, len(order))
		for _, id := range order {
			reached[id] = true
		}
		for _, id := range ids {
			if !reached[id] {
				return nil, nil, fmt.Errorf("mapping node %q: the parent chain loops", id)
			}
		}
	}
	return order, parentOf, nil
}

// sortSiblings orders kids as their parent's children list does (ChatGPT
// appends an edit or a regeneration there), then unlisted ones by time and id.
func (c *conversation) sortSiblings(parent string, kids []string) {
	pos := map[string]int{}
	for i, k := range c.Mapping[parent].Children {
		if _, dup := pos[k]; !dup {
			pos[k] = i
		}
	}
	rank := func(id string) (int, float64) {
		i, ok := pos[id]
		if !ok {
			i = math.MaxInt
		}
		var t float64
		if m := c.Mapping[id].Message; m != nil && m.CreateTime != nil {
			t = *m.CreateTime
		}
		return i, t
	}
	slices.SortFunc(kids, func(a, b string) int {
		ia, ta := rank(a)
		ib, tb := rank(b)
		if c := cmp.Compare(ia, ib); c != 0 {
			return c
		}
		if c := cmp.Compare(ta, tb); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
}

// text returns the node's turn text, or ok false after counting in res why
// it is not a turn: one node reason, or one part reason per dropped part.
func (n *node) text(res *transcript.Result) (string, bool, error) {
	if reason := n.nodeReason(); reason != "" {
		res.Skip(reason)
		return "", false, nil
	}
	var pieces []string
	dropped := false
	for i, raw := range n.Message.Content.Parts {
		s, reason, err := partText(raw)
		if err != nil {
			return "", false, fmt.Errorf("content.parts[%d]: %v", i, err)
		}
		switch {
		case reason != "":
			res.Skip(reason)
			dropped = true
		case strings.TrimSpace(s) != "":
			// ChatGPT pads messages with "" parts; only real text counts.
			pieces = append(pieces, s)
		}
	}
	if len(pieces) == 0 {
		if !dropped {
			res.Skip(ReasonEmpty)
		}
		return "", false, nil
	}
	return strings.Join(pieces, "\n\n"), true, nil
}

// nodeReason says why a node is not a turn before its parts are looked at.
func (n *node) nodeReason() string {
	m := n.Message
	if m == nil {
		return ReasonNullMessage
	}
	switch m.Author.Role {
	case transcript.RoleUser, transcript.RoleAssistant:
	case "system":
		return ReasonSystem
	case "tool":
		return ReasonTool
	default:
		return ReasonUnknownRole
	}
	switch {
	case m.Metadata.Hidden:
		return ReasonHidden
	case m.Author.Role == transcript.RoleAssistant && m.Recipient != "" && m.Recipient != "all":
		return ReasonToolUse
	}
	switch m.Content.ContentType {
	case "text", "multimodal_text":
		return ""
	case "code":
		return ReasonCode
	case "thoughts", "reasoning_recap":
		return ReasonThinking
	case "user_editable_context", "model_editable_context":
		return ReasonContext
	}
	return ReasonUnknownContentType
}

// part is the shape of a non-string part: an asset pointer or, in voice
// mode, an audio transcription carrying the spoken text.
type part struct {
	ContentType string          `json:"content_type"`
	Text        json.RawMessage `json:"text"`
}

// partText returns a part's text, or the reason it is dropped.
func partText(raw json.RawMessage) (string, string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", ReasonNonTextPart, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", "", err
		}
		return s, "", nil
	case '{':
		var p part
		if err := json.Unmarshal(raw, &p); err != nil {
			return "", "", err
		}
		switch p.ContentType {
		case "audio_transcription":
			var s string
			if json.Unmarshal(p.Text, &s) == nil {
				return s, "", nil
			}
		case "image_asset_pointer":
			return "", ReasonImage, nil
		}
	}
	return "", ReasonNonTextPart, nil
}

// maxUnix is 10000-01-01T00:00:00Z: the store keeps four-digit years.
const maxUnix = 253402300800

// unixTime converts ChatGPT's float Unix seconds to UTC, rounded to the
// microsecond so float noise does not show up as nanoseconds. A null or zero
// time is absent (ok false); a negative or far-future one is an error.
func unixTime(f *float64) (time.Time, bool, error) {
	if f == nil || *f == 0 {
		return time.Time{}, false, nil
	}
	if !(*f > 0 && *f < maxUnix) {
		return time.Time{}, false, fmt.Errorf("time %v is out of range", *f)
	}
	sec, frac := math.Modf(*f)
	return time.Unix(int64(sec), int64(math.Round(frac*1e6))*1000).UTC(), true, nil
}
