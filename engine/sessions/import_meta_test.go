package sessions

import (
	"encoding/json"
	"testing"
)

// TestImport_TitleAndProject: the JSONL turn's optional "title" (the
// chat's or conversation's name) and "project" (a coding session's
// working directory) are kept as the node's metadata, as the transcript
// importers keep them (MetaTitle, MetaProject), so the writer names the
// thread file by the title and files a coding session's facts under
// projects/<folder>.md; without them the metadata stays empty.
func TestImport_TitleAndProject(t *testing.T) {
	s := mustOpen(t)
	file := `{"session":"c1","provider":"chatgpt","id":"m1","role":"user","content":"hi","time":"2026-08-10T12:00:00Z","title":"Weeknight meal plan"}` + "\n" +
		`{"session":"k1","provider":"claude-code","id":"m2","role":"user","content":"run the tests","time":"2026-08-10T12:00:00Z","project":"/home/nadia/src/ledgerline"}` + "\n" +
		`{"session":"p1","id":"m3","role":"user","content":"plain","time":"2026-08-10T12:00:00Z","title":"","project":""}` + "\n"
	if n := mustImport(t, s, file); n != 3 {
		t.Fatalf("imported %d, want 3", n)
	}
	for _, c := range []struct {
		key  Key
		want map[string]string
	}{
		{Key{Provider: "chatgpt", Session: "c1", ID: "m1"}, map[string]string{MetaTitle: "Weeknight meal plan"}},
		{Key{Provider: "claude-code", Session: "k1", ID: "m2"}, map[string]string{MetaProject: "/home/nadia/src/ledgerline"}},
		{Key{Session: "p1", ID: "m3"}, map[string]string{}},
	} {
		n, err := s.Node(c.key)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]string
		if err := json.Unmarshal(n.Metadata, &got); err != nil {
			t.Fatalf("%v: metadata %s: %v", c.key, n.Metadata, err)
		}
		if len(got) != len(c.want) {
			t.Errorf("%v: metadata %s, want %v", c.key, n.Metadata, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%v: metadata %s, want %s=%q", c.key, n.Metadata, k, v)
			}
		}
	}
}
