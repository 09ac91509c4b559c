package telegram

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
)

// Provider is the provider of every turn this package emits.
const Provider = "telegram"

// Skip reasons, the keys of Result.Skipped. Message reasons count messages
// that are not turns; link reasons count replies whose target is not a turn
// of the same session (the turn is kept, without ReplyTo).
const (
	// Message reasons.
	ReasonJoin         = "join"          // service: invite_members, join_group_by_link, join_group_by_request
	ReasonLeave        = "leave"         // service: remove_members
	ReasonPin          = "pin"           // service: pin_message
	ReasonChatChange   = "chat_change"   // service: a chat's or forum topic's creation, title, photo, theme, migration
	ReasonCall         = "call"          // service: phone_call, group_call and its invitations and schedules
	ReasonService      = "service"       // any other service message (payments, gifts, boosts, screenshots, ...)
	ReasonUnsupported  = "unsupported"   // type "unsupported": a message this Telegram Desktop could not export
	ReasonUnknownType  = "unknown_type"  // a message type other than message, service, unsupported
	ReasonEmpty        = "empty"         // a message with no text and no media
	ReasonNULCharacter = "nul_character" // text with U+0000, which the store refuses
	ReasonDuplicateID  = "duplicate_id"  // a message id seen earlier in the same chat: the later one is kept
	// Link reasons: the turn is kept, with no ReplyTo.
	ReasonReplyUnresolved = "reply_unresolved" // the replied message is not a turn of this session in the export
	ReasonReplyOtherChat  = "reply_other_chat" // reply_to_peer_id: the replied message is in another chat
)

// Options tunes Parse. The zero value is ready to use.
type Options struct {
	// Location is the time zone of the zone-less "date" fields, used only for
	// messages of old exports (before Telegram Desktop wrote date_unixtime).
	// Nil means UTC.
	Location *time.Location
}

// maxIDDigits bounds a chat or message id: Telegram's are 64-bit integers
// (at most 20 characters with the sign); a longer one is not an export.
const maxIDDigits = 20

// Parse reads a Telegram Desktop JSON export: result.json of one chat (an
// object with name, type, id and messages) or of the whole account (chats
// and left_chats lists). name is used only in error messages. The file is
// read as a stream: one chat's messages are held at a time, besides the
// turns.
//
// Malformed input is a *transcript.Error naming the chat and message by
// their index in the file and their id; nothing of the file should then be
// imported.
func Parse(r io.Reader, name string, opts Options) (transcript.Result, error) {
	return Stream(r, name, opts, 0, nil)
}

// DefaultChunkBytes is what Stream hands over at a time when asked for 0
// (turn text and per-turn overhead): the other streamed formats' chunk.
const DefaultChunkBytes = chunks.DefaultBytes

// Stream reads an export as Parse does, but hands its turns to emit a
// chunk at a time, once the chunk holds about chunkBytes (0:
// DefaultChunkBytes) of turn text and per-turn overhead, so that an
// account export of any size is never held whole: memory is bounded by a
// chunk and the largest chat's messages (a chat is read whole, then sorted
// into sessions). A chunk may end inside a chat; a turn's parent is then
// in the same chunk or an earlier one, as a store that takes chunks in
// order needs. The turns, their order, the skips and the errors are
// Parse's; an error may come after chunks were emitted (nothing of the
// file should then be imported), and an error of emit ends the stream with
// it. With a nil emit every turn is kept in the returned Result, as Parse
// does; otherwise the Result holds only the skips.
func Stream(r io.Reader, name string, opts Options, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	p := &parser{name: name, loc: opts.Location, buf: chunks.Buffer{Emit: emit, Bytes: chunkBytes}}
	if p.loc == nil {
		p.loc = time.UTC
	}
	br := bufio.NewReaderSize(r, 64<<10)
	if b, _ := br.Peek(3); bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	p.dec = json.NewDecoder(newXEscapeReader(br))
	p.dec.UseNumber()
	if err := p.export(); err != nil {
		return transcript.Result{}, err
	}
	if err := p.buf.Flush(); err != nil {
		return transcript.Result{}, err
	}
	if emit == nil {
		p.res.Turns = p.buf.Turns
	}
	return p.res, nil
}

type parser struct {
	name  string
	loc   *time.Location
	dec   *json.Decoder
	res   transcript.Result
	chats int // chats read so far, for error messages

	buf chunks.Buffer // the turns not yet handed on (every turn, with no emit)
}

func (p *parser) fail(record, format string, args ...any) error {
	return &transcript.Error{File: p.name, Record: record, Message: fmt.Sprintf(format, args...)}
}

// export reads the top-level object.
func (p *parser) export() error {
	tok, err := p.dec.Token()
	if err != nil {
		return p.fail("", "not a Telegram Desktop JSON export: %s", jsonProblem(err))
	}
	if tok != json.Delim('{') {
		return p.fail("", "not a Telegram Desktop JSON export (result.json is one JSON object)")
	}
	// A one-chat export is itself a chat object; keys of the account export
	// sit beside them, so one pass over the keys handles both.
	single := &chat{index: -1}
	sawChats := false
	for p.dec.More() {
		key, err := p.key("")
		if err != nil {
			return err
		}
		switch key {
		case "chats", "left_chats":
			sawChats = true
			if err := p.chatList(key); err != nil {
				return err
			}
		case "name", "type", "id", "messages":
			if err := p.chatField(single, key, ""); err != nil {
				return err
			}
		default:
			if err := p.skipValue(key); err != nil {
				return err
			}
		}
	}
	if err := p.end(""); err != nil {
		return err
	}
	if single.sawMessages {
		return p.finishChat(single, "")
	}
	if !sawChats {
		return p.fail("", "no messages and no chats: not a Telegram Desktop chat export (export the chats as machine-readable JSON)")
	}
	return nil
}

// end consumes the closing delimiter of the current object or array and, at
// the top level, checks that nothing follows.
func (p *parser) end(record string) error {
	if _, err := p.dec.Token(); err != nil {
		return p.fail(record, "%s", jsonProblem(err))
	}
	if record != "" {
		return nil
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return p.fail("", "unexpected data after the export's JSON object")
	}
	return nil
}

func (p *parser) key(record string) (string, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return "", p.fail(record, "%s", jsonProblem(err))
	}
	k, ok := tok.(string)
	if !ok {
		return "", p.fail(record, "expected an object key")
	}
	return k, nil
}

// chatList reads {"about": ..., "list": [chat, ...]}.
func (p *parser) chatList(key string) error {
	if err := p.expect(json.Delim('{'), key, "an object"); err != nil {
		return err
	}
	for p.dec.More() {
		k, err := p.key(key)
		if err != nil {
			return err
		}
		if k != "list" {
			if err := p.skipValue(key + "." + k); err != nil {
				return err
			}
			continue
		}
		record := key + ".list"
		if err := p.expect(json.Delim('['), record, "an array of chats"); err != nil {
			return err
		}
		for i := 0; p.dec.More(); i++ {
			if err := p.chatObject(fmt.Sprintf("%s[%d]", record, i), p.chats); err != nil {
				return err
			}
			p.chats++
		}
		if err := p.end(record); err != nil {
			return err
		}
	}
	return p.end(key)
}

func (p *parser) expect(want json.Delim, record, what string) error {
	tok, err := p.dec.Token()
	if err != nil {
		return p.fail(record, "%s", jsonProblem(err))
	}
	if tok != want {
		return p.fail(record, "expected %s", what)
	}
	return nil
}

// chatObject reads one chat of a list.
func (p *parser) chatObject(record string, index int) error {
	if err := p.expect(json.Delim('{'), record, "a chat object"); err != nil {
		return err
	}
	c := &chat{index: index}
	for p.dec.More() {
		k, err := p.key(record)
		if err != nil {
			return err
		}
		if err := p.chatField(c, k, record); err != nil {
			return err
		}
	}
	if err := p.end(record); err != nil {
		return err
	}
	return p.finishChat(c, record)
}

// chatField reads one field of a chat object into c.
func (p *parser) chatField(c *chat, key, record string) error {
	at := strings.TrimPrefix(record+"."+key, ".")
	switch key {
	case "name":
		var s *string
		if err := p.dec.Decode(&s); err != nil {
			return p.fail(at, "%s", jsonProblem(err))
		}
		if s != nil {
			c.name = *s
		}
	case "type":
		if err := p.dec.Decode(&c.typ); err != nil {
			return p.fail(at, "%s", jsonProblem(err))
		}
	case "id":
		var n json.Number
		if err := p.dec.Decode(&n); err != nil {
			return p.fail(at, "%s", jsonProblem(err))
		}
		id, err := intID(n)
		if err != nil {
			return p.fail(at, "chat id %v", err)
		}
		c.id = id
	case "messages":
		c.sawMessages = true
		if err := p.expect(json.Delim('['), at, "an array of messages"); err != nil {
			return err
		}
		for i := 0; p.dec.More(); i++ {
			var m message
			if err := p.dec.Decode(&messageDecoder{&m}); err != nil {
				return p.fail(fmt.Sprintf("%s[%d]", at, i), "%s", jsonProblem(err))
			}
			m.index = i
			r, err := p.compact(c, &m, record)
			if err != nil {
				return err
			}
			c.recs = append(c.recs, r)
		}
		return p.end(at)
	default:
		return p.skipValue(at)
	}
	return nil
}

// skipValue consumes one JSON value without keeping it (profile pictures,
// contacts and sessions of an account export can be large).
func (p *parser) skipValue(record string) error {
	depth := 0
	for {
		tok, err := p.dec.Token()
		if err != nil {
			return p.fail(record, "%s", jsonProblem(err))
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("invalid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(err.Error(), "json: "))
	case errors.As(err, &typ):
		return fmt.Sprintf("field %s: JSON %s where Telegram writes a %s", typ.Field, typ.Value, typ.Type)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "unexpected end of file (the export is cut short)"
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// intID checks that n is an integer as Telegram writes ids and returns its
// canonical decimal spelling.
func intID(n json.Number) (string, error) {
	s := n.String()
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(s) > maxIDDigits {
		return "", fmt.Errorf("%q is not a Telegram id", s)
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return "", fmt.Errorf("%q is not an integer", s)
		}
	}
	if len(digits) > 1 && digits[0] == '0' || s == "-0" {
		return "", fmt.Errorf("%q is not a canonical integer", s)
	}
	return s, nil
}
