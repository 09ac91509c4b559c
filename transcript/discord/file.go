package discord

import (
	"encoding/json"
	"time"
)

// export is one DiscordChatExporter JSON file: the channel it holds and its
// messages, in file order.
type export struct {
	channel    channel
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

// readExport decodes one file. Unknown top-level keys (guild, dateRange,
// messageCount, and whatever a later DiscordChatExporter adds) are skipped.
func readExport(jf jsonFile, order int) (*export, error) {
	ex := &export{order: order}
	var sawChannel, sawMessages bool
	err := jf.walk("a DiscordChatExporter export", func(dec *json.Decoder, key string) error {
		line := jf.lineAt(dec.InputOffset() + jf.bom())
		switch key {
		case "channel":
			sawChannel = true
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
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
			if err := dec.Decode(&raw); err != nil {
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
			return jf.elements(dec, "messages", func(raw json.RawMessage, line int) error {
				m := &message{line: line}
				if err := jf.decode(raw, line, m); err != nil {
					return err
				}
				if err := m.check(); err != nil {
					return jf.errorf(line, "%v", err)
				}
				ex.messages = append(ex.messages, m)
				return nil
			})
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return jf.problem(err, line, "")
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case !sawChannel:
		return nil, jf.errorf(0, `no "channel": not a DiscordChatExporter JSON export`)
	case !sawMessages:
		return nil, jf.errorf(0, `no "messages": not a DiscordChatExporter JSON export`)
	}
	return ex, nil
}
