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
// re-encoded file may put "messages" before "id" and "type"). Its messages
// are kept as compact records, not as decoded JSON.
type chat struct {
	index       int // in the account export's lists; -1 for a one-chat export
	name, typ   string
	id          string
	sawMessages bool
	recs        []rec
}

// rec is what finishChat needs of one message.
type rec struct {
	index   int    // in the chat's messages array, for error messages
	id      string // canonical
	typ     string // "message", "service", "unsupported", or another type
	action  string // a service message's action
	title   string // a topic_created message's title
	reply   string // reply_to_message_id, canonical, or ""
	other   bool   // reply_to_peer_id: the reply is to another chat
	content string // a message's turn text; "" when it is not a turn
	skip    string // why a message is not a turn
	time    time.Time
	fromID  string // "" when the export names no sender
	from    string
}

// where names a message for error messages.
func (c *chat) where(record string, index int, id string) string {
	at := fmt.Sprintf("messages[%d]", index)
	if id != "" {
		at += " (id " + id + ")"
	}
	if record != "" {
		at = record + " (id " + c.id + ") " + at
	}
	return at
}

// compact reads what finishChat needs of a decoded message, checking its
// ids, text and time now, so the decoded JSON can be dropped.
func (p *parser) compact(c *chat, m *message, record string) (rec, error) {
	r := rec{index: m.index, typ: m.Type}
	raw, _ := number(m.ID)
	at := func() string { return c.where(record, m.index, raw) }
	var err error
	if r.id, err = messageID(m.ID, "id"); err != nil {
		return r, p.fail(at(), "%v", err)
	}
	if r.id == "" {
		return r, p.fail(at(), "message has no id")
	}
	if r.reply, err = messageID(m.ReplyTo, "reply_to_message_id"); err != nil {
		return r, p.fail(at(), "%v", err)
	}
	r.other = present(m.ReplyToPeer) && string(bytes.TrimSpace(m.ReplyToPeer)) != "null"
	switch m.Type {
	case "service":
		r.action = m.Action
		if m.Action == "topic_created" {
			if r.title, err = optString(m.Title); err != nil {
				return r, p.fail(at(), "title: %v", err)
			}
		}
		return r, nil
	case "message":
	default:
		return r, nil
	}
	content, ok, err := m.content()
	switch {
	case err != nil:
		return r, p.fail(at(), "%v", err)
	case !ok:
		r.skip = ReasonEmpty
		return r, nil
	case strings.IndexByte(content, 0) >= 0:
		r.skip = ReasonNULCharacter
		return r, nil
	}
	if r.time, err = p.messageTime(m); err != nil {
		return r, p.fail(at(), "%v", err)
	}
	if r.fromID, err = fromID(m.FromID); err != nil {
		return r, p.fail(at(), "from_id: %v", err)
	}
	if m.From != nil {
		r.from = *m.From
	}
	r.content = content
	return r, nil
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

// finishChat turns the chat's messages into turns: each forum topic is its
// own session, each session chained in time order.
func (p *parser) finishChat(c *chat, record string) error {
	if c.id == "" {
		if len(c.recs) == 0 {
			return nil
		}
		return p.fail(strings.TrimSpace(record+" (name "+strconv.Quote(c.name)+")"), "chat has no id")
	}
	session := peerPrefix(c.typ) + c.id
	group := isGroup(c.typ)

	// The later of two messages with one id wins.
	last := make(map[string]int, len(c.recs))
	for i, r := range c.recs {
		if _, dup := last[r.id]; dup {
			p.res.Skip(ReasonDuplicateID)
		}
		last[r.id] = i
	}
	recs := c.recs[:0]
	for i, r := range c.recs {
		if last[r.id] == i {
			recs = append(recs, r)
		}
	}
	c.recs = nil

	// Forum topics: a topic_created service message is the topic's root; a
	// message in the topic replies to the root or to a message already in
	// it. The export keeps no other trace of topics. Ids rise in a chat, so
	// walking them in order resolves every reply target first.
	slices.SortFunc(recs, func(a, b rec) int { return cmpInt(a.id, b.id) })
	topicOf := map[string]string{} // message id -> root id; absent: the chat itself (General)
	topicTitle := map[string]string{}
	for _, r := range recs {
		if r.typ == "service" && r.action == "topic_created" {
			topicOf[r.id] = r.id
			topicTitle[r.id] = r.title
		} else if root, ok := topicOf[r.reply]; ok && r.reply != "" {
			topicOf[r.id] = root
		}
	}

	// What each message becomes.
	turns := recs[:0]
	for _, r := range recs {
		switch {
		case r.typ == "service":
			p.res.Skip(serviceReason(r.action))
		case r.typ == "unsupported":
			p.res.Skip(ReasonUnsupported)
		case r.typ != "message":
			p.res.Skip(ReasonUnknownType)
		case r.skip != "":
			p.res.Skip(r.skip)
		default:
			turns = append(turns, r)
		}
	}
	// Time order; ids break ties (and order history imported into Telegram
	// from another app, which keeps its old dates under new ids).
	slices.SortStableFunc(turns, func(a, b rec) int {
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
	for _, r := range turns {
		turnSession[r.id] = sessionOf(r.id)
	}
	if p.buf.Emit == nil {
		p.buf.Turns = slices.Grow(p.buf.Turns, len(turns))
	}
	prev := map[string]string{}
	for _, r := range turns {
		s := turnSession[r.id]
		title := c.name
		if root, ok := topicOf[r.id]; ok && topicTitle[root] != "" {
			title = strings.TrimSpace(c.name + " / " + topicTitle[root])
		}
		speakerID := r.fromID
		if speakerID == "" {
			// Telegram Desktop writes the chat itself as the sender of a
			// post without one (old exports of channels): so do we.
			speakerID = session
		}
		reply := ""
		if r.reply != "" && topicOf[r.reply] != r.reply {
			switch {
			case r.other:
				p.res.Skip(ReasonReplyOtherChat)
			case turnSession[r.reply] != s:
				p.res.Skip(ReasonReplyUnresolved)
			default:
				reply = r.reply
			}
		}
		if err := p.buf.Add(transcript.Turn{
			Provider: Provider, Session: s, ID: r.id, Parent: prev[s],
			Role: transcript.RoleUser, Content: r.content,
			SpeakerID: speakerID, SpeakerDisplay: r.from, Time: r.time,
			Group: group, ReplyTo: reply, Title: title,
		}); err != nil {
			return err
		}
		prev[s] = r.id
	}
	return nil
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
		if s, ok := scanString(raw); ok {
			return s, nil
		}
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
		if s, ok := scanString(raw); ok {
			return s, nil
		}
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
