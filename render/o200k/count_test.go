package o200k

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func refCount(t *testing.T, s string) int {
	t.Helper()
	n, err := ref().Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func check(t *testing.T, s string) {
	t.Helper()
	got, ok := Count(s)
	if want := refCount(t, s); !ok || got != want {
		t.Fatalf("Count(%.80q…) = %d, %v; the codec counts %d", s, got, ok, want)
	}
}

// TestCount_AsTheCodec: every token alone and in pairs, long pieces (the
// heap merge), invalid UTF-8, and random mixtures of scripts, digits,
// symbols and whitespace count as tiktoken-go's codec counts them.
func TestCount_AsTheCodec(t *testing.T) {
	toks := vocabulary(t)
	for r, s := range toks {
		if s != "" {
			check(t, s)
			if r%9 == 1 && toks[r-1] != "" { // a sample of pairs: the codec is slow to ask
				check(t, toks[r-1]+s)
			}
		}
	}
	long := []string{
		strings.Repeat(" ", 500), strings.Repeat("\n", 97) + "x", strings.Repeat("ab", 300),
		strings.Repeat("中文课", 80), strings.Repeat("-=", 200) + "/\n\n", strings.Repeat("9", 400),
		"https://example.com/" + strings.Repeat("a/b?c=d&", 40), strings.Repeat("\xff\xfe", 70),
		strings.Repeat("Ünïcødé", 50), strings.Repeat("🙂", 60), "",
	}
	for _, s := range long {
		check(t, s)
	}
	alphabet := []string{"a", "e", "th", "ing", " ", "  ", "\n", "\r\n", "\t", "1", "42", "2024-07-16",
		".", ",", "'s", "'LL", "!", "?", "/", "#^", "[", "]", "(", ")", "-", "—", "é", "ß", "Σ", "ж",
		"中", "文", "课", "明天", "の", "한", "ا", "🙂", "\u200b", "\u00a0", "\xff", "\xc3", "`", "```", "*", "_"}
	rng := rand.New(rand.NewPCG(26, 2))
	for range 6000 {
		var b strings.Builder
		for range rng.IntN(60) {
			w := alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(8) == 0 {
				w = strings.Repeat(w, 2+rng.IntN(60))
			}
			b.WriteString(w)
		}
		check(t, b.String())
	}
}

// TestCount_Fixtures: the repository's Markdown and text fixtures, whole.
func TestCount_Fixtures(t *testing.T) {
	n := 0
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if ext := filepath.Ext(p); d.IsDir() || (ext != ".md" && ext != ".jsonl" && ext != ".txt") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		check(t, string(data))
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d fixture files counted", n)
	}
}
