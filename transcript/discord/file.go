package discord

import (
	"encoding/json"
	"time"
)

// export is one DiscordChatExporter JSON file: the channel it holds and its
// messages, in file order.
type export struct {
	channel    channel
	hasChannel bool      // the "channel" key was read
	exportedAt time.Time // zero when the file does not say
	messages   []*message
	order      int // the file's position among the files read
}

type channel struct {
	ID       string `json:"id"`
	Type     string `json:"type"`     // GuildTextChat, DirectTextChat, GuildPublicThread…
	Category string `json:"category"` // for a thread: the channel it belongs to
	Name     string `json:"name"`
}

// readExport decodes one file, keeping its messages.
func readExport(jf *jsonFile, order int) (*export, error) {
	ex := &export{order: order}
	err := read(jf, ex, func(m *message) error {
		ex.messages = append(ex.messages, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return ex, nil
}

// read walks one file as it is read, noting its channel and export time in
// ex and handing each message to msg in file order (the channel may not be
// known yet: the exporter writes it first, a re-encoding may not). Unknown
// top-level keys (guild, dateRange, messageCount, and whatever a later
// DiscordChatExporter adds) are skipped.
func read(jf *jsonFile, ex *export, msg func(*message) error) error {
	var sawMessages bool
	err := jf.walk("a DiscordChatExporter export", func(key string) error {
		line := jf.here()
		switch key {
		case "channel":
			if ex.hasChannel {
				// Its messages may be turns already, under the first.
				return jf.errorf(line, `a second "channel": not a DiscordChatExporter JSON export`)
			}
			ex.hasChannel = true
			var raw json.RawMessage
			if err := jf.dec.Decode(&raw); err != nil {
				return jf.problem(err, line, "")
			}
			if err := jf.decode(raw, line, &ex.channel); err != nil {
				return err
			}
			if p := idProblem(ex.channel.ID); p != "" {
				return jf.errorf(line, "channel id %q %s", ex.channel.ID, p)
			}
		case "exportedAt":
			var raw json.RawMessage
			if err := jf.dec.Decode(&raw); err != nil {
				return jf.problem(err, line, "")
			}
			var s *string
			if err := jf.decode(raw, line, &s); err != nil {
				return err
			}
			if s != nil && *s != "" {
				t, err := time.Parse(time.RFC3339Nano, *s)
				if err != nil {
					return jf.errorf(line, "exportedAt %q is not an RFC 3339 time", *s)
				}
				ex.exportedAt = t
			}
		case "messages":
			sawMessages = true
			return jf.elements("messages", func(line int) error {
				m := &message{line: line}
				if jf.light {
					var l lightMessage
					if err := jf.next(line, &l); err != nil {
						return err
					}
					m.ID, m.Timestamp, m.TimestampEdited = l.ID, l.Timestamp, l.TimestampEdited
				} else if err := jf.next(line, m); err != nil {
					return err
				}
				if err := m.check(); err != nil {
					return jf.errorf(line, "%v", err)
				}
				return msg(m)
			})
		default:
			return jf.skip()
		}
		return nil
	})
	switch {
	case err != nil:
		return err
	case !ex.hasChannel:
		return jf.errorf(0, `no "channel": not a DiscordChatExporter JSON export`)
	case !sawMessages:
		return jf.errorf(0, `no "messages": not a DiscordChatExporter JSON export`)
	}
	return nil
}
