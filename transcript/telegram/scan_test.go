package telegram

import (
	"encoding/json"
	"reflect"
	"testing"
)

// hostileMessages are messages scanMessage must either decode as
// encoding/json does or leave to it: folded and escaped keys, duplicates,
// nulls, wrong types, broken UTF-8 and surrogates, nested entities.
var hostileMessages = []string{
	`{"id": 1, "type": "message", "date_unixtime": "1700000000", "from": "Ann", "from_id": "user1", "text": "hi"}`,
	`{"id":1,"type":"message","text":["see ",{"type":"bold","text":"this"}," now"],"text_entities":[{"type":"plain","text":"x"}]}`,
	`{"id": 1, "Type": "message", "text": "folded key"}`,
	`{"id": 1, "TYPE": "service", "type": "message"}`,
	`{"id": 1, "t\u0079pe": "message"}`,
	"{\"id\": 1, \"stic\u212aer_emoji\": \"kelvin\", \"media_type\": \"sticker\", \"file\": \"x\"}",
	"{\"id\": 1, \"\u017fticker_emoji\": \"long s\"}",
	`{"id": 1, "type": "message", "type": null, "from": "a", "from": null}`,
	`{"id": 1, "type": "message", "from": null, "from": "b"}`,
	`{"id": 1, "type": 5}`,
	`{"id": 1, "from": 7}`,
	`{"id": 1, "from": ["a"]}`,
	`{"id": 1, "date": true}`,
	`{"id": "12", "type": "message", "text": "a\ud800b\udc00c\ud83d\ude00", "from": "\u00e9\ud83d"}`,
	"{\"id\": 1, \"type\": \"mes\xffsage\", \"text\": \"bad \xc3 utf8\"}",
	`{"id": 1, "text": [null, "a"]}`,
	`{"id": 1, "text": [{"type": "link", "href": "x"}]}`,
	`{"id": 1, "text": [{"text": null}]}`,
	`{"id": 1, "text": [{"TEXT": "folded"}]}`,
	`{"id": 1, "text": [{"text": "a", "text": "b"}, {"te\u0078t": "c"}]}`,
	`{"id": 1, "text": [{"text": 5}]}`,
	`{"id": 1, "text": {"text": "object"}}`,
	`{"id": 1, "text": [[["deep"]]]}`,
	`{"id": 1, "poll": {"question": "q", "answers": [{"text": "a"}]}}`,
	`{"id": 1, "contact_information": {"first_name": "A"}}`,
	`{"id": 1, "photo": null, "location_information": {"latitude": 1.5, "longitude": -2}, "reply_to_peer_id": null}`,
	`{"id": 1, "index": 5, "unknown": {"a": [1, {"b": null}]}, "w": 1e5}`,
	`{}`, `null`, `"message"`, `[1]`, `5`,
}

// FuzzScanMessage: whatever scanMessage decodes, encoding/json decodes the
// same, without error; the same for scanText.
func FuzzScanMessage(f *testing.F) {
	for _, s := range hostileMessages {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var fast, slow message
		ok := scanMessage(data, &fast)
		err := json.Unmarshal(data, &slow)
		if ok {
			if err != nil {
				t.Fatalf("scanned %s, encoding/json says %v", data, err)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("%s:\nscanned %+v\nencoding/json %+v", data, fast, slow)
			}
		}
		// The text rule on the message itself and on its text.
		for _, raw := range [][]byte{data, slow.Text} {
			if len(raw) == 0 {
				continue
			}
			s, ok := scanText(raw)
			want, err := textJSON(raw)
			if ok && (err != nil || s != want) {
				t.Fatalf("text %s: scanned %q, encoding/json %q, %v", raw, s, want, err)
			}
		}
	})
}

// TestMessageDecoder: a message decoded through the Decoder's hook is
// encoding/json's message, errors included.
func TestMessageDecoder(t *testing.T) {
	// The plain messages take the scan, not the fallback.
	for _, s := range hostileMessages[:2] {
		if !scanMessage([]byte(s), &message{}) {
			t.Errorf("%s: not scanned", s)
		}
	}
	for _, s := range hostileMessages {
		var got, want message
		gotErr := json.Unmarshal([]byte(s), &messageDecoder{&got})
		wantErr := json.Unmarshal([]byte(s), &want)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
			t.Errorf("%s:\n got %+v, %v\nwant %+v, %v", s, got, gotErr, want, wantErr)
		}
	}
}
