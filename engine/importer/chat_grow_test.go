package importer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/sessions"
)

// edited is a chat export before and after it grew and a message was
// edited: what a second export of the same chat looks like.
type edited struct {
	name   string
	before string // the path imported first
	after  func(t *testing.T) string
	// editedID is the message whose text changed: the store keeps the
	// first text.
	editedID sessions.Key
	was      string
}

// jsonEdit decodes a JSON file, lets edit change it and writes it to dst.
func jsonEdit(t *testing.T, src, dst string, edit func(doc any) any) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(edit(doc), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return write(t, dst, out)
}

// TestImport_GrownAndEdited: a later export of each chat format, which
// adds messages and edits one, imports only the new messages; the edited
// message keeps the stored text and is counted as changed, never an error.
func TestImport_GrownAndEdited(t *testing.T) {
	td := func(parts ...string) string {
		return filepath.Join(append([]string{"..", "..", "transcript"}, parts...)...)
	}
	slackSrc := td("slack", "testdata", "acme")
	cases := []edited{
		{name: "telegram", before: td("telegram", "testdata", "forum.json"),
			after: func(t *testing.T) string {
				return jsonEdit(t, td("telegram", "testdata", "forum.json"), filepath.Join(t.TempDir(), "result.json"), func(doc any) any {
					msgs := doc.(map[string]any)["messages"].([]any)
					for _, m := range msgs {
						if m := m.(map[string]any); m["id"].(json.Number) == "8" {
							m["text"], m["text_entities"] = "Is there a date yet? Asking for a friend", []any{}
							m["edited"], m["edited_unixtime"] = "2024-02-02T08:30:00", "1706862600"
						}
					}
					msgs = append(msgs, map[string]any{"id": json.Number("9001"), "type": "message", "date": "2024-09-01T10:00:00",
						"date_unixtime": "1725184800", "from": "Rui", "from_id": "user6677889900", "text": "Slides are up", "text_entities": []any{}})
					doc.(map[string]any)["messages"] = msgs
					return doc
				})
			}},
		{name: "whatsapp", before: td("whatsapp", "testdata", "android-en-us.txt"),
			after: func(t *testing.T) string {
				data, err := os.ReadFile(td("whatsapp", "testdata", "android-en-us.txt"))
				if err != nil {
					t.Fatal(err)
				}
				s := strings.Replace(string(data), "Marcus Lee: Nice, who's driving?", "Marcus Lee: Nice, who is driving? <This message was edited>", 1)
				// The message that was still downloading arrived.
				s = strings.Replace(s, "Dana Whitfield: Waiting for this message. This may take a while.", "Dana Whitfield: Happy new year everyone!", 1)
				s += "1/6/24, 9:00 AM - Dana Whitfield: Photos are in the shared album\n"
				return write(t, filepath.Join(t.TempDir(), "WhatsApp Chat with Ski trip.txt"), []byte(s))
			}},
		{name: "slack", before: slackSrc,
			editedID: sessions.Key{Provider: "slack", Session: "C05GENERAL1", ID: "1709636000.001000"}, was: "Thanks for having us in here!",
			after: func(t *testing.T) string {
				dir := filepath.Join(t.TempDir(), "acme")
				copyTree(t, slackSrc, dir)
				day := filepath.Join(dir, "general", "2024-03-05.json")
				jsonEdit(t, day, day, func(doc any) any {
					msgs := doc.([]any)
					for _, m := range msgs {
						if m := m.(map[string]any); m["ts"] == "1709636000.001000" {
							m["text"] = "Thanks for having us!"
							m["edited"] = map[string]any{"user": "U07EXT5PART", "ts": "1709636100.000000"}
						}
					}
					return append(msgs, map[string]any{"type": "message", "ts": "1709640000.002000", "user": "U05ANA1LIMA", "text": "Welcome, Priya"})
				})
				return dir
			}},
		{name: "discord", before: td("discord", "testdata", "general.json"),
			editedID: sessions.Key{Provider: "discord", Session: "838021943394304002", ID: "1214135245209600000"},
			after: func(t *testing.T) string {
				return jsonEdit(t, td("discord", "testdata", "general.json"), filepath.Join(t.TempDir(), "general.json"), func(doc any) any {
					msgs := doc.(map[string]any)["messages"].([]any)
					var copied map[string]any
					for _, m := range msgs {
						if m := m.(map[string]any); m["id"] == "1214135245209600000" {
							m["content"] = "Booked the cutter for Friday instead"
							m["timestampEdited"] = "2024-03-05T19:00:00.000+01:00"
							copied = map[string]any{}
							for k, v := range m {
								copied[k] = v
							}
						}
					}
					copied["id"], copied["content"], copied["timestampEdited"] = "1214150000000000000", "See you there", nil
					copied["timestamp"] = "2024-03-06T10:00:00.000+01:00"
					doc.(map[string]any)["messages"] = append(msgs, copied)
					return doc
				})
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := t.TempDir()
			if _, err := importDir(t, state, c.before, Options{}); err != nil {
				t.Fatal(err)
			}
			if c.editedID.ID != "" {
				n, err := openStore(t, state).Node(c.editedID)
				if err != nil {
					t.Fatal(err)
				}
				c.was = n.Content
			}
			after := c.after(t)
			second, err := importDir(t, state, after, Options{})
			if err != nil {
				t.Fatalf("the grown export was refused: %v", err)
			}
			if second.Imported < 1 || second.Skipped[SkipChanged] < 1 {
				t.Errorf("grown export: %+v", second)
			}
			// Nothing stored twice: the second import's new turns and the
			// kept ones add up to a fresh import of the grown export.
			fresh, err := importDir(t, t.TempDir(), after, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if second.Skipped[SkipDuplicate]+second.Skipped[SkipChanged]+second.Imported != fresh.Imported {
				t.Errorf("duplicate %d + changed %d + new %d != %d turns of the grown export",
					second.Skipped[SkipDuplicate], second.Skipped[SkipChanged], second.Imported, fresh.Imported)
			}
			if c.editedID.ID != "" {
				n, _ := openStore(t, state).Node(c.editedID)
				if n.Content != c.was {
					t.Errorf("the edited message's stored text became %q, was %q", n.Content, c.was)
				}
			}
			third, err := importDir(t, state, after, Options{})
			if err != nil || third.Imported != 0 {
				t.Errorf("third import %+v, %v", third, err)
			}
		})
	}
}
