package slack

import (
	"strings"
)

// message is one element of a day file: the fields this package reads.
type message struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype"`
	TS          string `json:"ts"`
	ThreadTS    string `json:"thread_ts"`
	User        string `json:"user"`
	BotID       string `json:"bot_id"`
	Username    string `json:"username"` // a bot's or integration's name
	Text        string `json:"text"`
	UserProfile *struct {
		DisplayName string `json:"display_name"`
		RealName    string `json:"real_name"`
		Name        string `json:"name"`
	} `json:"user_profile"`
	BotProfile *struct {
		Name string `json:"name"`
	} `json:"bot_profile"`
	Files   []file `json:"files"`
	File    *file  `json:"file"` // older exports: one shared file
	Comment *struct {
		User    string `json:"user"`
		Comment string `json:"comment"`
	} `json:"comment"`
	Attachments []struct {
		Fallback string `json:"fallback"`
	} `json:"attachments"`
	Edited *struct {
		TS string `json:"ts"`
	} `json:"edited"`

	stamp stamp // parsed TS
}

// file is a shared file as a message carries it.
type file struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Mimetype string `json:"mimetype"`
	Filetype string `json:"filetype"`
	Mode     string `json:"mode"`
}

// subtypeReasons maps the subtypes that are events, not speech, to their
// skip reason. A subtype that is neither here nor in keptSubtypes is
// counted as unknown_subtype: an event Slack added later is not guessed at.
var subtypeReasons = map[string]string{
	"channel_join": ReasonJoin, "group_join": ReasonJoin,
	"channel_leave": ReasonLeave, "group_leave": ReasonLeave,
	"channel_topic": ReasonTopic, "group_topic": ReasonTopic, "channel_purpose": ReasonTopic, "group_purpose": ReasonTopic,
	"channel_name": ReasonChannelChange, "group_name": ReasonChannelChange,
	"channel_archive": ReasonChannelChange, "group_archive": ReasonChannelChange,
	"channel_unarchive": ReasonChannelChange, "group_unarchive": ReasonChannelChange,
	"channel_convert_to_private": ReasonChannelChange, "channel_convert_to_public": ReasonChannelChange,
	"channel_posting_permissions": ReasonChannelChange,
	"pinned_item":                 ReasonPin, "unpinned_item": ReasonPin,
	"tombstone": ReasonDeleted, "message_deleted": ReasonDeleted,
	"huddle_thread": ReasonHuddle, "sh_room_created": ReasonHuddle, "sh_room_shared": ReasonHuddle,
	"channel_canvas_updated": ReasonCanvas, "tabbed_canvas_updated": ReasonCanvas, "channel_tab_added": ReasonCanvas,
	"bot_add": ReasonSystem, "bot_remove": ReasonSystem, "bot_enable": ReasonSystem, "bot_disable": ReasonSystem,
	"app_conversation_join": ReasonSystem, "reminder_add": ReasonSystem, "joiner_notification": ReasonSystem,
	"ekm_access_denied": ReasonSystem, "retention_threshold": ReasonSystem,
	"automatic_ai_huddle_notes_enabled": ReasonHuddle,
}

// keptSubtypes are the subtypes that are someone speaking.
var keptSubtypes = map[string]bool{
	"":                  true,
	"thread_broadcast":  true, // a thread reply also shown in the channel
	"reply_broadcast":   true, // its older name
	"file_share":        true,
	"file_mention":      true,
	"file_comment":      true, // older exports: a comment on a file, by its commenter
	"me_message":        true, // /me
	"bot_message":       true,
	"slackbot_response": true,
}

// skipReason says why the message is not a turn, or "" when it may be one.
func (m *message) skipReason() string {
	if m.Type != "" && m.Type != "message" {
		return ReasonNotAMessage
	}
	if r, ok := subtypeReasons[m.Subtype]; ok {
		return r
	}
	if !keptSubtypes[m.Subtype] {
		return ReasonUnknownSubtype
	}
	return ""
}

// speaker is the sender's stable id and display name: the commenter of a
// file comment, the user, else the bot.
func (m *message) speaker(users map[string]user) (id, display string) {
	if m.Subtype == "file_comment" {
		if m.Comment == nil {
			return "", ""
		}
		return m.Comment.User, users[m.Comment.User].display()
	}
	if m.User != "" {
		display = users[m.User].display()
		if display == "" && m.UserProfile != nil {
			display = firstNonBlank(m.UserProfile.DisplayName, m.UserProfile.RealName, m.UserProfile.Name)
		}
		if display == "" && m.BotID != "" {
			display = m.botName()
		}
		return m.User, display
	}
	if m.BotID != "" {
		return m.BotID, m.botName()
	}
	return "", ""
}

func (m *message) botName() string {
	name := m.Username
	if name == "" && m.BotProfile != nil {
		name = m.BotProfile.Name
	}
	return name
}

// content is the turn's text: the message text with its markup rendered,
// then one placeholder line per shared file. Attachments' fallback text
// stands in when a bot posted only attachments. Files that are canvases,
// lists, huddle transcripts or deleted are counted in skip instead.
func (m *message) content(r renderer, skip func(string)) string {
	if m.Subtype == "file_comment" {
		if m.Comment == nil {
			return ""
		}
		return blankToEmpty(r.render(m.Comment.Comment))
	}
	var parts []string
	if text := blankToEmpty(r.render(m.Text)); text != "" {
		parts = append(parts, text)
	}
	files := m.Files
	if len(files) == 0 && m.File != nil {
		files = []file{*m.File}
	}
	for _, f := range files {
		if p, reason := f.placeholder(); reason != "" {
			skip(reason)
		} else {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		for _, a := range m.Attachments {
			if text := blankToEmpty(r.render(a.Fallback)); text != "" {
				parts = append(parts, text)
			}
		}
	}
	return strings.Join(parts, "\n")
}

// placeholder is the line that stands for a shared file, or the reason the
// file is not content.
func (f file) placeholder() (string, string) {
	mime := strings.ToLower(f.Mimetype)
	switch {
	case f.Mode == "tombstone":
		return "", ReasonDeletedFile
	case f.Mode == "hidden_by_limit":
		return "", ReasonHiddenFile
	case f.Filetype == "quip" || f.Filetype == "canvas" || mime == "application/vnd.slack-docs":
		return "", ReasonCanvas
	case f.Filetype == "list" || mime == "application/vnd.slack-list":
		return "", ReasonList
	case f.Filetype == "huddle_transcript" || mime == "application/vnd.slack-huddle-transcript":
		return "", ReasonHuddle
	}
	kind := "file"
	switch {
	case strings.HasPrefix(mime, "image/"):
		kind = "image"
	case strings.HasPrefix(mime, "video/"):
		kind = "video"
	case strings.HasPrefix(mime, "audio/"):
		kind = "audio"
	}
	name := firstNonBlank(f.Name, f.Title)
	if name == "" {
		return "[" + kind + "]", ""
	}
	return "[" + kind + ": " + name + "]", ""
}

func firstNonBlank(ss ...string) string {
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// blankToEmpty maps whitespace-only text to "": it says nothing.
func blankToEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}
