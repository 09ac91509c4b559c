package telegram

import (
	"bytes"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// FuzzParse: Parse never panics, and whatever it accepts is a DAG the store
// can take, with safe ids, and encodes. Sniff never panics either.
func FuzzParse(f *testing.F) {
	for _, data := range fixtures(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"chats": {"list": [{"id": 1, "type": "public_supergroup", "messages": [{"id": 3, "type": "service", "action": "topic_created"}, {"id": 4, "type": "message", "date_unixtime": "1", "reply_to_message_id": 3, "text": ["a", {"text": "b"}]}, {"id": 5, "type": "message", "date": "2020-01-01T00:00:00", "reply_to_message_id": 4, "photo": null, "text": "c"}]}]}}`))
	f.Add([]byte(`{"id": -5, "messages": [{"id": 1, "type": "message", "date_unixtime": 9, "location_information": null, "poll": {"answers": [{}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		Sniff(data)
		res, err := Parse(bytes.NewReader(data), "fuzz.json", Options{})
		if err != nil {
			return
		}
		transcripttest.CheckDAG(t, res)
		transcripttest.CheckIDs(t, res)
		if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
			t.Fatal(err)
		}
	})
}
