package telegram

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"scriptorium/transcript"
)

// chat is one chat object as read, processed once it is complete (a
// re-encoded file may put "messages" before "id" and "type").
type chat struct {
	index       int // in the account export's lists; -1 for a one-chat export
	name, typ   string
	id          string
	sawMessages bool
	messages    []*message
}

// peerPrefix is the kind of peer a dialog type is, as Telegram spells peer
// ids in from_id ("user123", "chat45", "channel678"). The prefix keeps a
// user and a channel that share a number apart in an account export, and
// it does not change when a supergroup gains or loses a public link.
func peerPrefix(typ string) string {
	switch typ {
	case "personal_chat", "bot_chat", "saved_messages", "replies", "verification_codes":
		return "user"
	case "private_group":
		return "chat"
	case "private_supergroup", "public_supergroup", "private_channel", "public_channel":
		return "channel"
	}
	return "" // a type this package does not know: the bare id
}

// isGroup: groups, supergroups and channels are read by many; personal,
// bot and saved-messages chats are not group chats.
func isGroup(typ string) bool {
	switch typ {
	case "private_group", "private_supergroup", "public_supergroup", "private_channel", "public_channel":
		return true
	}
	return false
}

// kept is a message that becomes a turn, before its session is linked.
type kept struct {
	m       *message
	id      string
	content string
	time    time.Time
}

// finishChat turns the chat's messages into turns: each forum topic is its
// own session, each session chained in time order.
func (p *parser) finishChat(c *chat, record string) error {
	if record == "" && c.index >= 0 {
		record = fmt.Sprintf("chat %d", c.index)
	}
	where := func(m *message) string {
		at := fmt.Sprintf("messages[%d]", m.index)
		if id, err := number(m.ID); err == nil && id != "" {
			at += " (id " + id + ")"
		}
		if record != "" {
			at = record + " (id " + c.id + ") " + at
		}
		return at
	}
	if c.id == "" {
		if len(c.messages) == 0 {
			return nil
		}
		return p.fail(strings.TrimSpace(record+" (name "+strconv.Quote(c.name)+")"), "chat has no id")
	}
	session := peerPrefix(c.typ) + c.id
	group := isGroup(c.typ)

	// Ids: canonical, and the later of two messages with one id wins.
	byID := make(map[string]*message, len(c.messages))
	ids := make(map[*message]string, len(c.messages))
	var msgs []*message
	for _, m := range c.messages {
		id, err := messageID(m.ID, "id")
		if err != nil {
			return p.fail(where(m), "%v", err)
		}
		if id == "" {
			return p.fail(where(m), "message has no id")
		}
		if old, dup := byID[id]; dup {
			p.res.Skip(ReasonDuplicateID)
			delete(ids, old)
		}
		byID[id] = m
		ids[m] = id
		msgs = append(msgs, m)
	}
	msgs = slices.DeleteFunc(msgs, func(m *message) bool { _, ok := ids[m]; return !ok })

	// Forum topics: a topic_created service message is the topic's root; a
	// message in the topic replies to the root or to a message already in
	// it. The export keeps no other trace of topics. Ids rise in a chat, so
	// walking them in order resolves every reply target first.
	slices.SortFunc(msgs, func(a, b *message) int { return cmpInt(ids[a], ids[b]) })
	topicOf := map[string]string{} // message id -> root id; absent: the chat itself (General)
	topicTitle := map[string]string{}
	for _, m := range msgs {
		id := ids[m]
		if m.Type == "service" && m.Action == "topic_created" {
			topicOf[id] = id
			t, err := optString(m.Title)
			if err != nil {
				return p.fail(where(m), "title: %v", err)
			}
			topicTitle[id] = t
			continue
		}
		target, err := replyTarget(m)
		if err != nil {
			return p.fail(where(m), "%v", err)
		}
		if root, ok := topicOf[target]; ok && target != "" {
			topicOf[id] = root
		}
	}

	// What each message becomes.
	var turns []kept
	for _, m := range msgs {
		id := ids[m]
		switch m.Type {
		case "message":
		case "service":
			p.res.Skip(serviceReason(m.Action))
			continue
		case "unsupported":
			p.res.Skip(ReasonUnsupported)
			continue
		default:
			p.res.Skip(ReasonUnknownType)
			continue
		}
		content, ok, err := m.content()
		switch {
		case err != nil:
			return p.fail(where(m), "%v", err)
		case !ok:
			p.res.Skip(ReasonEmpty)
			continue
		case strings.IndexByte(content, 0) >= 0:
			p.res.Skip(ReasonNULCharacter)
			continue
		}
		t, err := p.messageTime(m)
		if err != nil {
			return p.fail(where(m), "%v", err)
		}
		turns = append(turns, kept{m: m, id: id, content: content, time: t})
	}
	// Time order; ids break ties (and order history imported into Telegram
	// from another app, which keeps its old dates under new ids).
	slices.SortStableFunc(turns, func(a, b kept) int {
		if c := a.time.Compare(b.time); c != 0 {
			return c
		}
		return cmpInt(a.id, b.id)
	})

	sessionOf := func(id string) string {
		if root, ok := topicOf[id]; ok {
			return session + ".topic" + root
		}
		return session
	}
	turnSession := make(map[string]string, len(turns))
	for _, k := range turns {
		turnSession[k.id] = sessionOf(k.id)
	}
	p.res.Turns = slices.Grow(p.res.Turns, len(turns))
	last := map[string]string{}
	for _, k := range turns {
		s := turnSession[k.id]
		title := c.name
		if root, ok := topicOf[k.id]; ok && topicTitle[root] != "" {
			title = strings.TrimSpace(c.name + " / " + topicTitle[root])
		}
		speakerID, err := fromID(k.m.FromID)
		if err != nil {
			return p.fail(where(k.m), "from_id: %v", err)
		}
		if speakerID == "" {
			// Telegram Desktop writes the chat itself as the sender of a
			// post without one (old exports of channels): so do we.
			speakerID = session
		}
		display := ""
		if k.m.From != nil {
			display = *k.m.From
		}
		reply := ""
		if target, _ := replyTarget(k.m); target != "" && topicOf[target] != target {
			switch {
			case present(k.m.ReplyToPeer):
				p.res.Skip(ReasonReplyOtherChat)
			case turnSession[target] != s:
				p.res.Skip(ReasonReplyUnresolved)
			default:
				reply = target
			}
		}
		p.res.Turns = append(p.res.Turns, transcript.Turn{
			Provider: Provider, Session: s, ID: k.id, Parent: last[s],
			Role: transcript.RoleUser, Content: k.content,
			SpeakerID: speakerID, SpeakerDisplay: display, Time: k.time,
			Group: group, ReplyTo: reply, Title: title,
		})
		last[s] = k.id
	}
	return nil
}

// replyTarget is the canonical id of the message m replies to, or "".
func replyTarget(m *message) (string, error) {
	return messageID(m.ReplyTo, "reply_to_message_id")
}

// messageID reads an id field written as a JSON number (or, leniently, a
// string of digits): "" when absent or null.
func messageID(raw json.RawMessage, field string) (string, error) {
	s, err := number(raw)
	if err != nil || s == "" {
		return "", err
	}
	id, err := intID(json.Number(s))
	if err != nil {
		return "", fmt.Errorf("%s %v", field, err)
	}
	return id, nil
}

// number returns the text of a JSON number or string field, "" when it is
// absent or null.
func number(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return "", nil
	case raw[0] == '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		return string(raw), nil
	}
	return "", fmt.Errorf("%s is not a number", raw)
}

// fromID reads from_id: "user123" as written, or a bare number (exports
// before Telegram Desktop 2.x), which was always a user.
func fromID(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	id, err := intID(json.Number(raw))
	if err != nil {
		return "", err
	}
	return "user" + id, nil
}

// maxUnix is 10000-01-01T00:00:00Z: the store keeps four-digit years.
const maxUnix = 253402300800

// messageTime prefers date_unixtime; older exports have only the zone-less
// date, read in the parser's location.
func (p *parser) messageTime(m *message) (time.Time, error) {
	unix, err := number(m.DateUnix)
	if err != nil {
		return time.Time{}, fmt.Errorf("date_unixtime: %v", err)
	}
	if unix != "" {
		n, err := strconv.ParseInt(unix, 10, 64)
		if err != nil || n <= 0 || n >= maxUnix {
			return time.Time{}, fmt.Errorf("date_unixtime %q is not a time", unix)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	if m.Date == "" {
		return time.Time{}, fmt.Errorf("message has no date")
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05", m.Date, p.loc)
	if err != nil || t.Year() < 1 {
		return time.Time{}, fmt.Errorf("date %q is not a time", m.Date)
	}
	t = t.UTC()
	if t.Unix() <= 0 || t.Unix() >= maxUnix {
		return time.Time{}, fmt.Errorf("date %q is out of range", m.Date)
	}
	return t, nil
}

// cmpInt compares canonical decimal integers of any length.
func cmpInt(a, b string) int {
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	switch {
	case na && !nb:
		return -1
	case !na && nb:
		return 1
	case na:
		return -cmpInt(a[1:], b[1:])
	}
	if c := cmp.Compare(len(a), len(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}
