package importer

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine/sessions"
	"scriptorium/transcript"
	"scriptorium/workspace"
)

// store opens the sessions.db of state for a check.
func openStore(t *testing.T, state string) *sessions.Store {
	t.Helper()
	st, err := sessions.Open(workspace.SessionsDB(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// copyTree copies the folder src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dst, rel), data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// zipTree writes the folder src as a zip at dst, its entries under
// prefix.
func zipTree(t *testing.T, src, dst, prefix string) {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		w, err := zw.Create(prefix + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	})
	if err != nil || zw.Close() != nil {
		t.Fatal(err)
	}
	write(t, dst, buf.Bytes())
}

// TestImport_EveryFormat: each parser's fixture imports through the
// service by content (renamed, so the name cannot help), as many turns as
// its parser gives, and a second import adds nothing.
func TestImport_EveryFormat(t *testing.T) {
	cases := []struct {
		src      []string
		imported int
		sessions int
	}{
		{[]string{"transcript", "telegram", "testdata", "family-group.json"}, 24, 1},
		{[]string{"transcript", "telegram", "testdata", "account.json"}, 11, 5},
		{[]string{"transcript", "whatsapp", "testdata", "android-en-us.txt"}, 0, 1},
		{[]string{"transcript", "discord", "testdata", "general.json"}, 12, 1},
		{[]string{"transcript", "codex", "testdata", "session.jsonl"}, 10, 1},
		{[]string{"transcript", "gemini", "testdata", "session.jsonl"}, 6, 1},
		{[]string{"transcript", "gemini", "testdata", "legacy.json"}, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.src[len(c.src)-1], func(t *testing.T) {
			path := write(t, filepath.Join(t.TempDir(), "renamed.dat"), fixture(t, c.src...))
			state := t.TempDir()
			res, err := importDir(t, state, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.imported > 0 && res.Imported != c.imported || res.Imported == 0 || res.Sessions != c.sessions {
				t.Errorf("imported %d turns in %d sessions, want %d in %d", res.Imported, res.Sessions, c.imported, c.sessions)
			}
			again, err := importDir(t, state, path, Options{})
			if err != nil || again.Imported != 0 || again.Skipped[SkipDuplicate] != res.Imported || again.Skipped[SkipChanged] != 0 {
				t.Errorf("second import %+v, %v", again, err)
			}
		})
	}
}

// TestImport_TelegramReplies: a reply's target is in the node's metadata.
func TestImport_TelegramReplies(t *testing.T) {
	state := t.TempDir()
	path := write(t, filepath.Join(t.TempDir(), "result.json"), fixture(t, "transcript", "telegram", "testdata", "family-group.json"))
	if _, err := importDir(t, state, path, Options{}); err != nil {
		t.Fatal(err)
	}
	n, err := openStore(t, state).Node(sessions.Key{Provider: "telegram", Session: "channel1987654321", ID: "-999998769"})
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]string
	_ = json.Unmarshal(n.Metadata, &meta)
	if meta[sessions.MetaReplyTo] != "-999998770" || meta[sessions.MetaTitle] != "Ferreira family 🏡" || !n.Group || n.Tier != sessions.TierUnpaired {
		t.Errorf("node %+v, metadata %v", n, meta)
	}
}

// TestImport_SlackFolderAndZip: a Slack export is one input as a folder,
// as a zip of the folder and as a zip that wraps it in a folder; the three
// give the same turns.
func TestImport_SlackFolderAndZip(t *testing.T) {
	src := filepath.Join("..", "..", "transcript", "slack", "testdata", "acme")
	root := t.TempDir()
	folder := filepath.Join(root, "exports", "acme")
	copyTree(t, src, folder)
	write(t, filepath.Join(root, "exports", "notes.txt"), []byte("my notes\n"))
	zipTree(t, src, filepath.Join(root, "flat.zip"), "")
	zipTree(t, src, filepath.Join(root, "wrapped.zip"), "Acme Slack export Mar 4 2024/")
	var counts []int
	for _, p := range []string{filepath.Join(root, "exports"), filepath.Join(root, "flat.zip"), filepath.Join(root, "wrapped.zip")} {
		in, err := List(p, transcript.FormatUnknown)
		if err != nil {
			t.Fatal(err)
		}
		if len(in.Items) != 1 || in.Items[0].Format != transcript.FormatSlack {
			t.Fatalf("%s: inputs %+v", p, in.Items)
		}
		res, err := Import(t.Context(), t.TempDir(), in, Options{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		counts = append(counts, res.Imported)
		if res.Sessions != 9 {
			t.Errorf("%s: %d sessions", p, res.Sessions)
		}
	}
	if counts[0] == 0 || counts[0] != counts[1] || counts[1] != counts[2] {
		t.Errorf("turns from folder, flat zip, wrapped zip: %v", counts)
	}
	in, _ := List(filepath.Join(root, "exports"), transcript.FormatUnknown)
	if len(in.Unrecognised) != 1 || !strings.Contains(in.Unrecognised[0].LooksLike, "plain text, first line “my notes”") {
		t.Errorf("unrecognised %+v", in.Unrecognised)
	}
	// --format slack on the folder reads it whole too.
	in, err := List(folder, transcript.FormatSlack)
	if err != nil || len(in.Items) != 1 || len(in.Items[0].Members) < 10 {
		t.Errorf("--format slack: %+v, %v", in, err)
	}
}

// TestImport_WhatsAppNames: the chat's name comes from the export's file
// name (Android) or its zip's (iOS, whose file is _chat.txt); the media
// beside it are listed as no transcript.
func TestImport_WhatsAppNames(t *testing.T) {
	chat := fixture(t, "transcript", "whatsapp", "testdata", "ios-en-1to1.txt")
	root := t.TempDir()
	android := write(t, filepath.Join(root, "WhatsApp Chat with Sam Carter.txt"), chat)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, data := range map[string][]byte{"_chat.txt": chat, "00000012-PHOTO-2024-01-02.jpg": []byte("\xff\xd8\xff\xe0JFIF")} {
		w, _ := zw.Create(name)
		w.Write(data)
	}
	zw.Close()
	ios := write(t, filepath.Join(t.TempDir(), "WhatsApp Chat - Sam Carter.zip"), buf.Bytes())
	for _, p := range []string{android, ios} {
		state := t.TempDir()
		in, err := List(p, transcript.FormatUnknown)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Import(t.Context(), state, in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Chats) != 1 || res.Chats[0].Title != "Sam Carter" || res.Chats[0].Group {
			t.Errorf("%s: chats %+v", p, res.Chats)
		}
		if p == ios && (len(res.Unrecognised) != 1 || res.Unrecognised[0].LooksLike != "a JPEG image") {
			t.Errorf("zip: unrecognised %+v", res.Unrecognised)
		}
	}
}

// TestImport_UnknownFile: a file no format recognises, named on its own,
// is refused with what it looks like; JSON lines are read as our own
// format, so their bad lines are reported.
func TestImport_UnknownFile(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct {
		data, want string
	}{
		"notes.md":    {"# Shopping\n- milk\n", "looks like plain text, first line “# Shopping”"},
		"config.json": {`{"theme":"dark","fontSize":12,"plugins":[]}`, "looks like a JSON object with top-level keys theme, fontSize, plugins"},
		"rows.jsonl":  {`{"a":1}` + "\n" + `{"b":2}` + "\n", "looks like JSON lines; the first has keys a"},
		"turns.jsonl": {`{"session":"s","content":"hi"}` + "\n", "turns.jsonl:1: missing id"},
	} {
		p := write(t, filepath.Join(dir, name), []byte(c.data))
		_, err := importDir(t, t.TempDir(), p, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestLooksLike(t *testing.T) {
	cases := []struct{ head, want string }{
		{"", "an empty file"},
		{"PK\x03\x04rest", "a zip archive"},
		{"%PDF-1.7", "a PDF document"},
		{"\x00\x01\x02garbage", "binary data (first bytes 00 01 02 67 61 72 62 61)"},
		{"\n\n  hello world\nsecond", "plain text, first line “hello world”"},
		{`{"about":"x","chats":{"list":[`, "a JSON object with top-level keys about, chats"},
		{`[{"id":1,"name":"x"},{"id":2}]`, "a JSON array of objects with keys id, name"},
		{`[]`, "an empty JSON array"},
		{`[1,2]`, "a JSON array of float64 values"},
		{"{\"a\":1}\n{\"b\":2}\n", "JSON lines; the first has keys a"},
		{"<!DOCTYPE html>\n<html>", "an HTML page, first line “<!DOCTYPE html>”"},
		{strings.Repeat("é", 70), "plain text, first line “" + strings.Repeat("é", 60) + "…”"},
	}
	for _, c := range cases {
		if got := looksLike([]byte(c.head), int64(len(c.head))); got != c.want {
			t.Errorf("looksLike(%q) = %q, want %q", c.head, got, c.want)
		}
	}
}
