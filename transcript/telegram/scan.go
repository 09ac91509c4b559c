package telegram

import (
	"encoding/json"
	"strings"

	"scriptorium/transcript/internal/jsonscan"
)

// A Telegram export is about 1,500 short messages a MiB, and decoding each
// through encoding/json's reflection (then each text again) was a third of
// an import's CPU. The decoder's Token stream already validated a message
// when it is handed over, so one jsonscan pass reads the fields; anything
// it does not handle simply (an escaped or case-folded key, a field of an
// unexpected type, the rarer nested objects) goes to encoding/json, so the
// message and its errors are encoding/json's. FuzzScanMessage checks both
// agree.

// messageDecoder decodes one message of the messages array into m.
type messageDecoder struct{ m *message }

// UnmarshalJSON gets the message's bytes from the Decoder's buffer, valid
// JSON; they are reused after the call, so m's raw fields are only good
// until the next message is decoded (compact copies what it keeps).
func (d messageDecoder) UnmarshalJSON(b []byte) error {
	if scanMessage(b, d.m) {
		return nil
	}
	*d.m = message{}
	return json.Unmarshal(b, d.m)
}

// scanMessage fills m from the object b, or reports false for the
// encoding/json path (m is then partly filled).
func scanMessage(b []byte, m *message) bool {
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	end := jsonscan.Object(b, 0, func(key []byte, escaped bool, at int) int {
		if escaped {
			return -1
		}
		end := jsonscan.Value(b, at)
		if end < 0 {
			return -1
		}
		v := b[at:end]
		var dst *string
		switch string(key) {
		case "id":
			m.ID = v
		case "date_unixtime":
			m.DateUnix = v
		case "from_id":
			m.FromID = v
		case "title":
			m.Title = v
		case "reply_to_message_id":
			m.ReplyTo = v
		case "reply_to_peer_id":
			m.ReplyToPeer = v
		case "text":
			m.Text = v
		case "photo":
			m.Photo = v
		case "file":
			m.File = v
		case "location_information":
			m.Location = v
		case "live_location_period_seconds":
			m.LivePeriod = v
		case "giveaway_information":
			m.Giveaway = v
		case "giveaway_results":
			m.GiveawayDone = v
		case "paid_stars_amount":
			m.PaidStars = v
		case "type":
			dst = &m.Type
		case "date":
			dst = &m.Date
		case "action":
			dst = &m.Action
		case "file_name":
			dst = &m.FileName
		case "media_type":
			dst = &m.MediaType
		case "sticker_emoji":
			dst = &m.StickerEmoji
		case "performer":
			dst = &m.Performer
		case "place_name":
			dst = &m.PlaceName
		case "address":
			dst = &m.Address
		case "game_title":
			dst = &m.GameTitle
		case "from":
			switch v[0] {
			case 'n':
				m.From = nil
			case '"':
				s, ok := scanString(v)
				if !ok {
					return -1
				}
				m.From = &s
			default:
				return -1
			}
		case "contact_information", "poll", "todo_list", "invoice_information":
			return -1 // nested objects, rare: encoding/json's
		default:
			if foldable(key) {
				return -1 // encoding/json matches keys case-insensitively
			}
		}
		if dst != nil {
			switch v[0] {
			case 'n': // null leaves a string as it was
			case '"':
				s, ok := scanString(v)
				if !ok {
					return -1
				}
				*dst = s
			default:
				return -1
			}
		}
		return end
	})
	return end == len(b)
}

// foldable says whether an unknown key might match a field's name under
// encoding/json's case folding: it holds an upper-case letter or a
// non-ASCII byte (the Kelvin sign folds to k, the long s to s).
func foldable(key []byte) bool {
	for _, c := range key {
		if c >= 'A' && c <= 'Z' || c >= 0x80 {
			return true
		}
	}
	return false
}

// scanString decodes raw, a value the Decoder validated, as a string
// (json.Unmarshal into a string) when it is one; ok false otherwise.
func scanString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	end, esc := jsonscan.String(raw, 0)
	if end != len(raw) {
		return "", false
	}
	return jsonscan.Unquote(raw, esc)
}

// scanText decodes a validated "text" field that is a string or a list of
// strings and {"text": string} entities; ok false leaves it to text's
// encoding/json path (and its errors).
func scanText(raw []byte) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		return scanString(raw)
	}
	if raw[0] != '[' {
		return "", false
	}
	var b strings.Builder
	end := jsonscan.Array(raw, 0, func(at int) int {
		end := jsonscan.Value(raw, at)
		if end < 0 {
			return -1
		}
		switch raw[at] {
		case '"':
			s, ok := scanString(raw[at:end])
			if !ok {
				return -1
			}
			b.WriteString(s)
		case '{':
			var text *string
			if jsonscan.Object(raw, at, func(key []byte, escaped bool, at int) int {
				end := jsonscan.Value(raw, at)
				switch {
				case end < 0 || escaped:
					return -1
				case string(key) == "text":
					if raw[at] == 'n' {
						text = nil
						return end
					}
					s, ok := scanString(raw[at:end])
					if !ok {
						return -1
					}
					text = &s
				case foldable(key):
					return -1
				}
				return end
			}) != end || text == nil {
				return -1 // an entity without text fails on the other path
			}
			b.WriteString(*text)
		default:
			return -1
		}
		return end
	})
	if end != len(raw) {
		return "", false
	}
	return b.String(), true
}
