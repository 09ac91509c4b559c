package formats

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/transcript"
)

// Every fixture of every parser is recognised as its own format, and never
// as another: a file --format auto takes for the wrong parser is a file
// imported wrong (or refused with a confusing error).
func TestDetect_EveryFixture(t *testing.T) {
	dirs := map[string]transcript.Format{
		"claudecode": transcript.FormatClaudeCode,
		"chatgpt":    transcript.FormatChatGPT,
		"codex":      transcript.FormatCodex,
		"gemini":     transcript.FormatGemini,
		"telegram":   transcript.FormatTelegram,
		"whatsapp":   transcript.FormatWhatsApp,
		"discord":    transcript.FormatDiscord,
	}
	checked := 0
	for dir, want := range dirs {
		files, err := filepath.Glob(filepath.Join("..", dir, "testdata", "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, ".golden") || strings.HasSuffix(f, ".md") || strings.HasPrefix(filepath.Base(f), ".") {
				continue
			}
			fi, err := os.Stat(f)
			if err != nil || fi.IsDir() {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(filepath.Base(f), "bad") || strings.Contains(filepath.Base(f), "trunc") {
				continue // broken on purpose: its parser's own tests cover it
			}
			if len(data) > 64<<10 {
				data = data[:64<<10]
			}
			if got := Detect(data); got != want {
				t.Errorf("%s: Detect = %q, want %q", f, got, want)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d fixtures checked", checked)
	}
}

func TestDetect_OurJSONL(t *testing.T) {
	line := `{"session":"s","provider":"openprogram","id":"1","role":"user","content":"hi","time":"2026-01-01T00:00:00Z"}` + "\n"
	if got := Detect([]byte(line)); got != transcript.FormatJSONL {
		t.Fatalf("Detect = %q, want jsonl", got)
	}
	if got := Detect([]byte("hello, world\n")); got != transcript.FormatUnknown {
		t.Fatalf("Detect(plain text) = %q, want unknown", got)
	}
}

func TestDetectFiles_SlackFolders(t *testing.T) {
	for _, dir := range []string{"acme", "grid"} {
		root := filepath.Join("..", "slack", "testdata", dir)
		var names []string
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				names = append(names, filepath.ToSlash(rel))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		first := func(name string) []byte {
			b, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
			return b
		}
		if got := DetectFiles(names, first); got != transcript.FormatSlack {
			t.Errorf("%s: DetectFiles = %q, want slack", dir, got)
		}
	}
	if got := DetectFiles([]string{"notes.txt", "a/b.json"}, func(string) []byte { return []byte("{}") }); got != transcript.FormatUnknown {
		t.Errorf("DetectFiles(unrelated) = %q", got)
	}
}
