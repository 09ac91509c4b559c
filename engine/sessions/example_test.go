package sessions_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"scriptorium/engine/sessions"
)

// A conversation forks after its first exchange. Once the shared prefix is
// written, each branch owes only its own suffix.
func ExampleStore_PendingTurns() {
	dir, err := os.MkdirTemp("", "sessions-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	store, err := sessions.Open(filepath.Join(dir, "sessions.db"), nil)
	if err != nil {
		panic(err)
	}
	defer store.Close()

	const file = `{"session":"chat","id":"m1","role":"user","content":"I'm building a budget tracker","time":"2026-08-10T12:00:00Z"}
{"session":"chat","id":"m2","parent":"m1","role":"assistant","content":"In which framework?","time":"2026-08-10T12:00:05Z"}
{"session":"chat","id":"m3","parent":"m2","role":"user","content":"Flask","time":"2026-08-10T12:01:00Z"}
{"session":"chat","id":"m3b","parent":"m2","role":"user","content":"Django, actually","time":"2026-08-10T12:02:00Z"}
`
	res, err := store.Import(strings.NewReader(file))
	fmt.Printf("imported %d node(s) in %d session(s), %v\n", res.Imported, res.Sessions, err)
	chat := sessions.SessionKey{Provider: sessions.DefaultProvider, Session: "chat"}
	if err := store.MarkWritten([]sessions.Key{chat.Node("m1"), chat.Node("m2")}, "ws-1"); err != nil {
		panic(err)
	}
	branches, _ := store.Branches(chat)
	for _, b := range branches {
		turns, _ := store.PendingTurns(b.Tip, "ws-1")
		for _, t := range turns {
			fmt.Printf("%s owes %s: %s\n", b.Tip.ID, t.ID, t.Content)
		}
	}
	// Output:
	// imported 4 node(s) in 1 session(s), <nil>
	// m3b owes m3b: Django, actually
	// m3 owes m3: Flask
}
