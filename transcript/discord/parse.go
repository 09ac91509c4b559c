package discord

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
)

// Provider is the provider of every turn this package emits.
const Provider = "discord"

// Skip reasons, the keys of Result.Skipped. Message reasons count messages;
// ReasonOtherFile counts files of a folder that are not exports.
const (
	ReasonJoin          = "join"           // RecipientAdd, GuildMemberJoin
	ReasonLeave         = "leave"          // RecipientRemove
	ReasonCall          = "call"           // a call started in a DM
	ReasonChannelChange = "channel_change" // the channel's name or icon changed
	ReasonPin           = "pin"            // ChannelPinnedMessage
	ReasonThreadCreated = "thread_created" // "started a thread" in the parent channel
	ReasonThreadStarter = "thread_starter" // a thread's first message, pointing at its parent message
	ReasonSystem        = "system"         // boosts, follows, AutoMod, stage events, poll results…
	ReasonUnknownType   = "unknown_type"   // a type this package does not know
	ReasonNoAuthor      = "no_author"      // no author id to attribute it to
	ReasonEmpty         = "empty"          // no text, attachment, sticker or embed
	ReasonNULCharacter  = "nul_character"  // text with U+0000, which the store refuses
	ReasonDuplicate     = "duplicate"      // the older copy of a message two files carry
	ReasonOtherFile     = "other_file"     // a file of the folder that is not a JSON export
)

// Parse reads one DiscordChatExporter JSON export (a channel, a DM or a
// thread). name is used only in error messages. Malformed input is an
// *transcript.Error with the file and line; nothing of the file should then
// be imported. It is Stream keeping every turn.
func Parse(r io.Reader, name string) (transcript.Result, error) {
	return Stream(r, name, 0, nil)
}

// ParseFiles reads a folder of DiscordChatExporter exports: several
// channels, or several exports of one channel that overlap (a message two
// files carry is kept once, its latest edit). Files that are not JSON
// exports (the media DiscordChatExporter downloads beside them, HTML or CSV
// exports) are counted as other_file; a set with no JSON export at all is
// an error. name is the folder's display name, used only in messages.
func ParseFiles(files []transcript.File, name string) (transcript.Result, error) {
	var res transcript.Result
	var exports []*export
	// In name order: the file read later wins a tie between two copies of
	// a message, and that must not depend on how the caller walked.
	files = slices.Clone(files)
	slices.SortStableFunc(files, func(a, b transcript.File) int { return strings.Compare(a.Name, b.Name) })
	for i, f := range files {
		if !Sniff(f.Data[:min(len(f.Data), sniffBytes)]) {
			res.Skip(ReasonOtherFile)
			continue
		}
		display := f.Name
		if name != "" {
			display = name + "/" + f.Name
		}
		ex, err := readExport(newJSONFile(bytes.NewReader(f.Data), display), i)
		if err != nil {
			return transcript.Result{}, err
		}
		exports = append(exports, ex)
	}
	if len(exports) == 0 {
		return transcript.Result{}, &transcript.Error{File: name,
			Message: fmt.Sprintf("none of the %d files is a DiscordChatExporter JSON export", len(files))}
	}
	merge(exports, &res)
	return res, nil
}

// sniffBytes is how much of a file ParseFiles looks at to tell an export
// from a downloaded attachment, as Detect would.
const sniffBytes = 64 << 10

// copyOf is one file's copy of a message.
type copyOf struct {
	m  *message
	ex *export
}

// newer reports whether a should replace b: the later edit wins, then the
// later export, then the file read later.
func newer(a, b copyOf) bool {
	if c := a.m.edited.Compare(b.m.edited); c != 0 {
		return c > 0
	}
	if c := a.ex.exportedAt.Compare(b.ex.exportedAt); c != 0 {
		return c > 0
	}
	return a.ex.order > b.ex.order
}

// merge appends the turns of every channel the exports hold: channels in id
// order. A channel one export holds is chained in the file's order, as
// Stream does; one several exports hold is merged, each message kept once,
// and chained in time order.
func merge(exports []*export, res *transcript.Result) {
	type session struct {
		info    *export // the export whose channel name and type describe it: the latest
		exports []*export
	}
	sessions := map[string]*session{}
	for _, ex := range exports {
		s, ok := sessions[ex.channel.ID]
		if !ok {
			s = &session{info: ex}
			sessions[ex.channel.ID] = s
		}
		if ex.exportedAt.After(s.info.exportedAt) || ex.exportedAt.Equal(s.info.exportedAt) && ex.order > s.info.order {
			s.info = ex
		}
		s.exports = append(s.exports, ex)
	}
	ids := make([]string, 0, len(sessions))
	for id := range sessions {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, snowflakeCompare)
	for _, id := range ids {
		s := sessions[id]
		c := &chain{ch: s.info.channel, buf: &chunks.Buffer{}}
		if len(s.exports) == 1 {
			for _, m := range s.exports[0].messages {
				c.add(m) // no emit: cannot fail
			}
		} else {
			for _, m := range mergeCopies(s.exports, &c.res) {
				c.add(m)
			}
		}
		res.Turns = append(res.Turns, c.buf.Turns...)
		for k, n := range c.res.Skipped {
			if res.Skipped == nil {
				res.Skipped = map[string]int{}
			}
			res.Skipped[k] += n
		}
	}
}

// mergeCopies is the messages several exports of one channel hold, each
// once (the newer copy; the other is counted as a duplicate), in time
// order, then id order.
func mergeCopies(exports []*export, res *transcript.Result) []*message {
	copies := map[string]copyOf{}
	for _, ex := range exports {
		for _, m := range ex.messages {
			c := copyOf{m, ex}
			if prev, dup := copies[m.ID]; dup {
				res.Skip(ReasonDuplicate)
				if !newer(c, prev) {
					continue
				}
			}
			copies[m.ID] = c
		}
	}
	msgs := make([]*message, 0, len(copies))
	for _, c := range copies {
		msgs = append(msgs, c.m)
	}
	slices.SortFunc(msgs, func(a, b *message) int {
		if c := a.time.Compare(b.time); c != 0 {
			return c
		}
		return snowflakeCompare(a.ID, b.ID)
	})
	return msgs
}

// turn is the message as a turn of its channel's session, or the reason it
// is not one.
func (m *message) turn(ch channel) (transcript.Turn, string) {
	if reason := m.skipReason(); reason != "" {
		return transcript.Turn{}, reason
	}
	speakerID, display := m.speaker()
	if speakerID == "" {
		return transcript.Turn{}, ReasonNoAuthor
	}
	text := m.content()
	switch {
	case strings.TrimSpace(text) == "":
		return transcript.Turn{}, ReasonEmpty
	case strings.IndexByte(text, 0) >= 0:
		return transcript.Turn{}, ReasonNULCharacter
	}
	return transcript.Turn{
		Provider: Provider, Session: ch.ID, ID: m.ID, Role: transcript.RoleUser, Content: text,
		SpeakerID: speakerID, SpeakerDisplay: display, Time: m.time,
		Group: ch.Type != "DirectTextChat", ReplyTo: m.replyTo(ch.ID), Title: ch.Name,
	}, ""
}

// snowflakeCompare orders Discord ids numerically (a longer snowflake is a
// later one), and any other id as a string.
func snowflakeCompare(a, b string) int {
	if c := cmp.Compare(len(a), len(b)); c != 0 && digits(a) && digits(b) {
		return c
	}
	return strings.Compare(a, b)
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
