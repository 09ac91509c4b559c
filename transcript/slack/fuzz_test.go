package slack

import (
	"bytes"
	"testing"

	"scriptorium/transcript"
)

// FuzzParse: ParseFiles never panics, and whatever it accepts is a DAG the
// store can take, with ids it can file, and encodes; Stream gives its
// turns, skips and error in chunks of any size. The fuzzer varies the
// users, the channel list and two day files of the channel "general".
func FuzzParse(f *testing.F) {
	acme := map[string][]byte{}
	for _, file := range exports(f)["acme"] {
		acme[file.Name] = file.Data
	}
	f.Add(acme["users.json"], acme["channels.json"], acme["general/2024-03-04.json"], acme["general/2024-03-05.json"])
	f.Add([]byte(`[]`), []byte(`[{"id":"C1","name":"general"}]`),
		[]byte(`[{"type":"message","user":"U1","ts":"1.5","thread_ts":"1.5"},{"user":"U1","ts":"2.0","thread_ts":"1.5","text":"<@U1|x> &amp;"}]`),
		[]byte(`[{"type":"message","user":"U1","ts":"1.5","text":"dup","edited":{"ts":"x"}}]`))
	f.Add([]byte(`[{"id":"U1","profile":{"display_name":"<@U1>"}}]`), []byte(`[{"id":"C1","name":"general"},{"id":"D1","members":["U1"]}]`),
		[]byte("\xef\xbb\xbf[{\"subtype\":\"file_comment\",\"ts\":\"3.0\",\"comment\":{\"user\":\"U1\",\"comment\":\"a\\u0000b\"}}]"),
		[]byte(`[{"ts":"4.0","bot_id":"B1","files":[{"mode":"tombstone"},{"mimetype":"image/png","name":"a\nb"}]}]`))
	f.Fuzz(func(t *testing.T, users, channels, day1, day2 []byte) {
		files := []transcript.File{
			{Name: "users.json", Data: users},
			{Name: "channels.json", Data: channels},
			{Name: "general/2024-01-01.json", Data: day1},
			{Name: "general/2024-01-02.json", Data: day2},
		}
		sameAsParse(t, files)
		res, err := ParseFiles(files, "fuzz.zip")
		if err != nil {
			return
		}
		check(t, res)
		if err := transcript.WriteJSONL(&bytes.Buffer{}, res.Turns); err != nil {
			t.Fatal(err)
		}
	})
}
