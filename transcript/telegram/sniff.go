package telegram

import (
	"bytes"
	"encoding/json"
)

// dialogTypes are the chat "type" values Telegram Desktop writes
// (JsonWriter::writeDialogStart).
var dialogTypes = map[string]bool{
	"saved_messages": true, "replies": true, "verification_codes": true,
	"personal_chat": true, "bot_chat": true, "private_group": true,
	"private_supergroup": true, "public_supergroup": true,
	"private_channel": true, "public_channel": true,
}

// accountKeys are top-level keys only an account export has.
var accountKeys = map[string]bool{
	"personal_information": true, "chats": true, "left_chats": true,
	"frequent_contacts": true, "profile_pictures": true,
}

// Sniff reports whether first, a prefix of a file (it may end mid-token),
// looks like a Telegram Desktop JSON export. It walks the top-level object:
// a chat "type" Telegram writes, a key only an account export has, or a
// first message with Telegram's date_unixtime (or date and a message or
// service type) says yes. Other JSON objects with "messages" (Discord,
// Gemini CLI) and JSON arrays or lines (ChatGPT, Claude Code, our JSONL)
// say no.
func Sniff(first []byte) bool {
	b := bytes.TrimPrefix(first, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(newXEscapeBytes(b)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		key, _ := tok.(string)
		switch {
		case accountKeys[key]:
			return true
		case key == "type":
			var typ string
			if dec.Decode(&typ) != nil {
				return false
			}
			if dialogTypes[typ] {
				return true
			}
		case key == "messages":
			return firstMessageLooksLikeTelegram(dec)
		default:
			if skip(dec) != nil {
				return false
			}
		}
	}
	return false
}

// firstMessageLooksLikeTelegram reads the keys of the first element of a
// messages array, as far as the prefix goes.
func firstMessageLooksLikeTelegram(dec *json.Decoder) bool {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return false
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	date, typed := false, false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok {
		case "date_unixtime":
			return true
		case "date":
			date = true
		case "type":
			var typ string
			if dec.Decode(&typ) != nil {
				return false
			}
			typed = typ == "message" || typ == "service"
			continue
		}
		if skip(dec) != nil {
			break
		}
	}
	return date && typed
}

// skip consumes one value.
func skip(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
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

// newXEscapeBytes applies xEscapeReader to a prefix.
func newXEscapeBytes(b []byte) []byte {
	var out bytes.Buffer
	out.ReadFrom(newXEscapeReader(bytes.NewReader(b)))
	return out.Bytes()
}
