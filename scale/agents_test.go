package scale

import (
	"bytes"
	"io"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/codex"
	"scriptorium/transcript/formats"
	"scriptorium/transcript/gemini"
	"scriptorium/transcript/whatsapp"
)

// TestImportExports: the WhatsApp chat, the Codex rollout and the Gemini
// session are deterministic, at least the size asked, detected as their
// format and read into the turns the generator counted, with a title.
func TestImportExports(t *testing.T) {
	for _, c := range []struct {
		gen    func(io.Writer, int64, uint64) (int64, int, error)
		seed   uint64
		format transcript.Format
		parse  func([]byte) (transcript.Result, error)
	}{
		{WhatsAppExport, WhatsAppSeed, transcript.FormatWhatsApp, func(b []byte) (transcript.Result, error) {
			return whatsapp.Parse(bytes.NewReader(b), "chat.txt", whatsapp.Options{})
		}},
		{CodexRollout, CodexSeed, transcript.FormatCodex, func(b []byte) (transcript.Result, error) {
			return codex.Parse(bytes.NewReader(b), "rollout.jsonl")
		}},
		{GeminiSession, GeminiSeed, transcript.FormatGemini, func(b []byte) (transcript.Result, error) {
			return gemini.Parse(bytes.NewReader(b), "session.jsonl")
		}},
	} {
		var a, b bytes.Buffer
		n, turns, err := c.gen(&a, 1<<20, c.seed)
		if err != nil || n != int64(a.Len()) || n < 1<<20 {
			t.Fatalf("%s: wrote %d (%d in the buffer), %v", c.format, n, a.Len(), err)
		}
		if _, _, err := c.gen(&b, 1<<20, c.seed); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("%s: two calls gave different bytes (%v)", c.format, err)
		}
		if got := formats.Detect(a.Bytes()[:8192]); got != c.format {
			t.Fatalf("%s: detected as %q", c.format, got)
		}
		res, err := c.parse(a.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Turns) != turns || turns < 100 || res.Turns[0].Title == "" {
			t.Errorf("%s: %d turns, the generator counted %d; skipped %v", c.format, len(res.Turns), turns, res.Skipped)
		}
	}
}
