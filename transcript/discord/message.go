package discord

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"
)

// message is one element of "messages": the fields this package reads.
type message struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	Timestamp       string  `json:"timestamp"`
	TimestampEdited *string `json:"timestampEdited"`
	Content         string  `json:"content"`
	Author          struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Nickname string `json:"nickname"`
	} `json:"author"`
	Attachments []struct {
		FileName string `json:"fileName"`
	} `json:"attachments"`
	Embeds []struct {
		Title       string  `json:"title"`
		Description string  `json:"description"`
		URL         *string `json:"url"`
	} `json:"embeds"`
	Stickers []struct {
		Name string `json:"name"`
	} `json:"stickers"`
	Mentions []struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Nickname string `json:"nickname"`
	} `json:"mentions"`
	Reference *struct {
		Type      *string `json:"type"` // Default (a reply) or Forward; absent in older exports
		MessageID *string `json:"messageId"`
		ChannelID *string `json:"channelId"`
	} `json:"reference"`

	line   int       // where it starts in its file
	time   time.Time // Timestamp, parsed
	edited time.Time // TimestampEdited, parsed; zero if never edited
}

// lightMessage is what StreamFiles' first pass decodes of a message: what
// check validates and a merge orders by, not the text.
type lightMessage struct {
	ID              string  `json:"id"`
	Timestamp       string  `json:"timestamp"`
	TimestampEdited *string `json:"timestampEdited"`
}

// check validates what makes a message identifiable and placeable in time.
func (m *message) check() error {
	if p := idProblem(m.ID); p != "" {
		return fmt.Errorf("message id %q %s", m.ID, p)
	}
	t, err := parseTime(m.Timestamp)
	if err != nil {
		return fmt.Errorf("message %s: timestamp %v", m.ID, err)
	}
	m.time = t
	if m.TimestampEdited != nil && *m.TimestampEdited != "" {
		if m.edited, err = parseTime(*m.TimestampEdited); err != nil {
			return fmt.Errorf("message %s: timestampEdited %v", m.ID, err)
		}
	}
	return nil
}

// parseTime reads DiscordChatExporter's ISO 8601 times
// ("2024-03-04T10:00:00.123+01:00") as UTC.
func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	switch {
	case err != nil:
		return time.Time{}, fmt.Errorf("%q is not an ISO 8601 time with a zone", s)
	case t.Year() < 1970:
		return time.Time{}, errors.New(strconv.Quote(s) + " is before 1970")
	}
	return t.UTC(), nil
}

// kinds maps DiscordChatExporter's message types to a skip reason, "" for
// a message someone wrote. The exporter writes its enum's name
// (MessageKind.ToString()), or Discord's number for a type its enum does
// not name ("20" for a slash command's answer), so both spellings are here.
var kinds = map[string]string{
	"Default": "", "0": "",
	"Reply": "", "19": "",
	"ChatInputCommand": "", "20": "", // a bot's answer to a slash command
	"ContextMenuCommand": "", "23": "",
	"RecipientAdd": ReasonJoin, "1": ReasonJoin,
	"GuildMemberJoin": ReasonJoin, "UserJoin": ReasonJoin, "7": ReasonJoin,
	"RecipientRemove": ReasonLeave, "2": ReasonLeave,
	"Call": ReasonCall, "3": ReasonCall,
	"ChannelNameChange": ReasonChannelChange, "4": ReasonChannelChange,
	"ChannelIconChange": ReasonChannelChange, "5": ReasonChannelChange,
	"ChannelPinnedMessage": ReasonPin, "6": ReasonPin,
	"ThreadCreated": ReasonThreadCreated, "18": ReasonThreadCreated,
	"ThreadStarterMessage": ReasonThreadStarter, "21": ReasonThreadStarter,
	// Boosts, follows, discovery, invite reminders, AutoMod, subscriptions,
	// stage events, incident alerts, purchases, poll results.
	"8": ReasonSystem, "9": ReasonSystem, "10": ReasonSystem, "11": ReasonSystem, "12": ReasonSystem,
	"14": ReasonSystem, "15": ReasonSystem, "16": ReasonSystem, "17": ReasonSystem, "22": ReasonSystem,
	"24": ReasonSystem, "25": ReasonSystem, "26": ReasonSystem, "27": ReasonSystem, "28": ReasonSystem,
	"29": ReasonSystem, "31": ReasonSystem, "32": ReasonSystem, "36": ReasonSystem, "37": ReasonSystem,
	"38": ReasonSystem, "39": ReasonSystem, "44": ReasonSystem, "46": ReasonSystem,
	"GuildBoost": ReasonSystem, "GuildBoostTier1": ReasonSystem, "GuildBoostTier2": ReasonSystem,
	"GuildBoostTier3": ReasonSystem, "ChannelFollowAdd": ReasonSystem, "AutoModerationAction": ReasonSystem,
	"PollResult": ReasonSystem,
}

// skipReason says why the message is not a turn, or "" when it may be one.
func (m *message) skipReason() string {
	reason, known := kinds[m.Type]
	if !known {
		return ReasonUnknownType
	}
	return reason
}

// speaker is the author's id and the name shown for them: the server
// nickname (DiscordChatExporter writes the display name there), else the
// user name.
func (m *message) speaker() (id, display string) {
	display = m.Author.Nickname
	if strings.TrimSpace(display) == "" {
		display = m.Author.Name
	}
	return m.Author.ID, display
}

// content is the turn's text: the message's content with raw user mentions
// (<@123>, present when the export kept Discord's markdown) named, then one
// placeholder line per attachment and sticker. A message with none of
// these (a bot's embed) is its embeds' titles and descriptions.
func (m *message) content() string {
	var parts []string
	if text := m.text(); strings.TrimSpace(text) != "" {
		parts = append(parts, text)
	}
	for _, a := range m.Attachments {
		parts = append(parts, placeholder(a.FileName))
	}
	for _, s := range m.Stickers {
		parts = append(parts, bracket("sticker", s.Name))
	}
	if len(parts) == 0 {
		for _, e := range m.Embeds {
			title := e.Title
			if strings.TrimSpace(title) == "" && e.URL != nil {
				title = *e.URL
			}
			p := bracket("embed", title)
			if strings.TrimSpace(e.Description) != "" {
				p += "\n" + e.Description
			}
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "\n")
}

// text is the content with <@id> and <@!id> replaced by @name for the users
// the message mentions.
func (m *message) text() string {
	s := m.Content
	if len(m.Mentions) == 0 || !strings.Contains(s, "<@") {
		return s
	}
	for _, u := range m.Mentions {
		if u.ID == "" {
			continue
		}
		name := u.Nickname
		if strings.TrimSpace(name) == "" {
			name = u.Name
		}
		if name == "" {
			continue
		}
		s = strings.ReplaceAll(s, "<@"+u.ID+">", "@"+name)
		s = strings.ReplaceAll(s, "<@!"+u.ID+">", "@"+name)
	}
	return s
}

// replyTo is the id of the message this one replies to, when that message
// is in the same channel: a reply's reference. Forwards and cross-channel
// references (a thread's starter, a crosspost) are not replies here.
func (m *message) replyTo(channelID string) string {
	r := m.Reference
	switch {
	case r == nil || r.MessageID == nil || *r.MessageID == m.ID:
		return ""
	case r.Type != nil && *r.Type != "" && *r.Type != "Default":
		return ""
	case r.ChannelID != nil && *r.ChannelID != "" && *r.ChannelID != channelID:
		return ""
	case idProblem(*r.MessageID) != "":
		return ""
	}
	return *r.MessageID
}

// placeholder is the line standing for an attachment, by its extension.
func placeholder(fileName string) string {
	kind := "file"
	switch strings.ToLower(path.Ext(fileName)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".gifv", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif", ".avif", ".svg":
		kind = "image"
	case ".mp4", ".webm", ".mov", ".mkv", ".avi", ".wmv", ".m4v":
		kind = "video"
	case ".mp3", ".ogg", ".oga", ".opus", ".wav", ".flac", ".m4a", ".aac", ".wma":
		kind = "audio"
	}
	return bracket(kind, fileName)
}

// bracket is "[kind: name]", or "[kind]" without a name.
func bracket(kind, name string) string {
	if strings.TrimSpace(name) == "" {
		return "[" + kind + "]"
	}
	return "[" + kind + ": " + name + "]"
}
