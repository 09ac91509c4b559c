package telegram

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// message holds the fields of one exported message that this package reads
// (export_output_json.cpp, SerializeMessage). Fields whose JSON type varies
// between Telegram Desktop versions stay raw.
type message struct {
	index int // position in the chat's messages array, for error messages

	ID       json.RawMessage `json:"id"`
	Type     string          `json:"type"`
	Date     string          `json:"date"`          // local wall-clock time, no zone
	DateUnix json.RawMessage `json:"date_unixtime"` // a string of digits since 2022
	From     *string         `json:"from"`
	FromID   json.RawMessage `json:"from_id"` // "user123", "channel456"; a number in old exports
	Action   string          `json:"action"`
	Title    json.RawMessage `json:"title"` // a forum topic's or a song's title

	ReplyTo     json.RawMessage `json:"reply_to_message_id"`
	ReplyToPeer json.RawMessage `json:"reply_to_peer_id"`

	Text json.RawMessage `json:"text"` // a string, or a list of strings and entity objects

	// Media.
	Photo        json.RawMessage `json:"photo"`
	File         json.RawMessage `json:"file"`
	FileName     string          `json:"file_name"`
	MediaType    string          `json:"media_type"`
	StickerEmoji string          `json:"sticker_emoji"`
	Performer    string          `json:"performer"`
	Contact      *struct {
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		Phone     string `json:"phone_number"`
	} `json:"contact_information"`
	Location     json.RawMessage         `json:"location_information"`
	LivePeriod   json.RawMessage         `json:"live_location_period_seconds"`
	PlaceName    string                  `json:"place_name"`
	Address      string                  `json:"address"`
	Poll         *list                   `json:"poll"`
	TodoList     *list                   `json:"todo_list"`
	GameTitle    string                  `json:"game_title"`
	Invoice      *struct{ Title string } `json:"invoice_information"`
	Giveaway     json.RawMessage         `json:"giveaway_information"`
	GiveawayDone json.RawMessage         `json:"giveaway_results"`
	PaidStars    json.RawMessage         `json:"paid_stars_amount"`
}

// list is a poll (question and answers) or a to-do list (title and items);
// each text is a string or, since 2024, a text-parts list.
type list struct {
	Question json.RawMessage `json:"question"`
	Title    json.RawMessage `json:"title"`
	Answers  []struct {
		Text json.RawMessage `json:"text"`
	} `json:"answers"`
}

// serviceReason maps a service message's action to its skip reason.
func serviceReason(action string) string {
	switch action {
	case "invite_members", "join_group_by_link", "join_group_by_request":
		return ReasonJoin
	case "remove_members":
		return ReasonLeave
	case "pin_message":
		return ReasonPin
	case "create_group", "create_channel", "edit_group_title", "edit_group_photo", "delete_group_photo",
		"migrate_to_supergroup", "migrate_from_group", "topic_created", "topic_edit",
		"edit_chat_theme", "set_chat_wallpaper", "set_same_chat_wallpaper", "set_messages_ttl":
		return ReasonChatChange
	case "phone_call", "conference_call", "group_call", "invite_to_group_call", "group_call_scheduled":
		return ReasonCall
	}
	return ReasonService
}

// text decodes a "text" field: a string, or a list whose items are strings
// or entity objects carrying their visible text (links keep their label,
// not their href: the content is what the sender's readers saw).
func text(raw json.RawMessage) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if s, ok := scanText(raw); ok {
		return s, nil
	}
	return textJSON(raw)
}

// textJSON is text through encoding/json, for what scanText leaves.
func textJSON(raw json.RawMessage) (string, error) {
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var b strings.Builder
		for i, part := range parts {
			part = bytes.TrimSpace(part)
			var s string
			if len(part) > 0 && part[0] == '{' {
				var e struct {
					Text *string `json:"text"`
				}
				if err := json.Unmarshal(part, &e); err != nil {
					return "", fmt.Errorf("text[%d]: %v", i, err)
				}
				if e.Text == nil {
					return "", fmt.Errorf("text[%d]: entity without text", i)
				}
				s = *e.Text
			} else if err := json.Unmarshal(part, &s); err != nil {
				return "", fmt.Errorf("text[%d]: %v", i, err)
			}
			b.WriteString(s)
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("text is neither a string nor a list")
}

// content returns the turn text of a non-service message: its text, or a
// media placeholder "[kind detail]" with the caption as "[kind detail: caption]".
// ok is false when there is neither text nor media.
func (m *message) content() (string, bool, error) {
	caption, err := text(m.Text)
	if err != nil {
		return "", false, err
	}
	if m.Poll != nil || m.TodoList != nil {
		return m.listText()
	}
	label, err := m.mediaLabel()
	if err != nil {
		return "", false, err
	}
	switch {
	case label == "":
		return caption, caption != "", nil
	case caption == "":
		return "[" + label + "]", true, nil
	}
	return "[" + label + ": " + caption + "]", true, nil
}

// mediaLabel names the message's media ("photo", "file report.pdf",
// "sticker 😀"), or "" for a text message. Only fields that stay the same
// when the chat is exported again are used: never the file path, which
// depends on the export's media settings.
func (m *message) mediaLabel() (string, error) {
	join := func(parts ...string) string {
		var kept []string
		for _, s := range parts {
			if s = strings.TrimSpace(s); s != "" {
				kept = append(kept, s)
			}
		}
		return strings.Join(kept, " ")
	}
	switch {
	case present(m.Photo):
		return "photo", nil
	case present(m.File) || m.MediaType != "":
		title, err := optString(m.Title)
		if err != nil {
			return "", fmt.Errorf("title: %v", err)
		}
		switch m.MediaType {
		case "sticker":
			return join("sticker", m.StickerEmoji), nil
		case "video_message":
			return "video message", nil
		case "voice_message":
			return "voice message", nil
		case "animation":
			return "animation", nil
		case "video_file":
			return join("video", m.FileName), nil
		case "audio_file":
			if m.Performer != "" && title != "" {
				return join("audio", m.Performer, "–", title), nil
			}
			return join("audio", m.Performer, title, m.FileName), nil
		}
		return join("file", m.FileName), nil
	case m.Contact != nil:
		return join("contact", m.Contact.FirstName, m.Contact.LastName, m.Contact.Phone), nil
	case m.PlaceName != "":
		return join("venue", m.PlaceName+","+" "+m.Address), nil
	case present(m.LivePeriod):
		// A live location's coordinates move until it ends: a re-export
		// would change the content, so the position is not kept.
		return "live location", nil
	case present(m.Location):
		var loc *struct{ Latitude, Longitude json.Number }
		if err := json.Unmarshal(m.Location, &loc); err != nil {
			return "", fmt.Errorf("location_information: %v", err)
		}
		if loc == nil {
			return "location", nil
		}
		return "location " + loc.Latitude.String() + ", " + loc.Longitude.String(), nil
	case m.GameTitle != "":
		return join("game", m.GameTitle), nil
	case m.Invoice != nil:
		return join("invoice", m.Invoice.Title), nil
	case present(m.Giveaway):
		return "giveaway", nil
	case present(m.GiveawayDone):
		return "giveaway results", nil
	case present(m.PaidStars):
		return "paid media", nil
	}
	return "", nil
}

// listText renders a poll or a to-do list as text: "[poll] question" or
// "[todo list] title", then one "- answer" line per answer. Vote counts are
// left out: they change with every export.
func (m *message) listText() (string, bool, error) {
	l, kind, head := m.Poll, "poll", json.RawMessage(nil)
	if l != nil {
		head = l.Question
	} else {
		l, kind, head = m.TodoList, "todo list", m.TodoList.Title
	}
	h, err := text(head)
	if err != nil {
		return "", false, fmt.Errorf("%s: %v", kind, err)
	}
	var b strings.Builder
	b.WriteString("[" + kind + "]")
	if h != "" {
		b.WriteString(" " + h)
	}
	for i, a := range l.Answers {
		s, err := text(a.Text)
		if err != nil {
			return "", false, fmt.Errorf("%s answer %d: %v", kind, i, err)
		}
		b.WriteString("\n- " + s)
	}
	return b.String(), true, nil
}

// present says whether an optional field was in the object (null included:
// a location Telegram could not resolve is written as null).
func present(raw json.RawMessage) bool {
	return len(raw) > 0
}

func optString(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if s, ok := scanString(raw); ok {
		return s, nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}
