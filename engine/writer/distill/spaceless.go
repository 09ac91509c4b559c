package distill

import (
	"strings"
	"unicode"
	"unicode/utf8"

	useg "github.com/blevesearch/segment"
)

// Scripts written without spaces between words: Japanese (kanji and
// kana), Chinese, Thai, Lao, Khmer, Burmese. The rules count words,
// clip sentences to a number of words and weigh a statement by its
// words; split at spaces, a whole sentence of these scripts is one
// "word". Their words are counted and cut with Unicode word
// segmentation (UAX #29, the segmenter bleve's tokenizer and the index
// use): it parts a run of such a script from the Latin words and the
// numbers around it, and within the run stops at every character, since
// finding the words of Japanese or Thai needs a dictionary. A run is
// counted as a word per spacelessRunes characters, about the length of
// a word in these scripts (two for Chinese and Japanese, whose words are
// mostly of one to three characters), so that "at least four words" and
// "at most sixty" mean about as much text as they do in English.

// spacelessRunes is how many characters of a spaceless run count as a word.
const spacelessRunes = 2

// spacelessRune reports whether r belongs to a script written without
// spaces between words.
func spacelessRune(r rune) bool {
	if r < 0x0E00 {
		return false
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao,
		unicode.Khmer, unicode.Myanmar) || r == 'ー' || r == '々'
}

// hasSpaceless reports whether s holds a letter of a spaceless script.
func hasSpaceless(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ContainsFunc(s[i:], spacelessRune)
		}
	}
	return false
}

// hasKana reports whether s holds hiragana or katakana: Japanese, which
// the Chinese rules (我, 工作…) do not read.
func hasKana(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool {
		return r >= 0x3040 && r <= 0x30FF && r != '・' && r != 'ー'
	})
}

// countWords counts text's words: its fields, and in a spaceless run a
// word per spacelessRunes characters.
func countWords(text string) int {
	if !hasSpaceless(text) {
		return len(strings.Fields(text))
	}
	n := 0
	for _, p := range wordPieces(text) {
		n += p.words
	}
	return n
}

// piece is a run of text that counts words words: a field, a segment's
// word or a run of a spaceless script. end is its end in the text.
type piece struct {
	end, words int
	spaceless  bool
}

// wordPieces cuts text into the pieces countWords counts, in order.
func wordPieces(text string) []piece {
	var out []piece
	seg := useg.NewWordSegmenterDirect([]byte(text))
	pos, run, inField := 0, 0, false
	flushRun := func() {
		if run > 0 {
			out = append(out, piece{end: pos, words: (run + spacelessRunes - 1) / spacelessRunes, spaceless: true})
			run = 0
		}
	}
	for seg.Segment() {
		tok := seg.Bytes()
		r, _ := utf8.DecodeRune(tok)
		switch {
		case spacelessRune(r):
			inField = false
			run += utf8.RuneCount(tok)
		case unicode.IsSpace(r):
			flushRun()
			inField = false
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushRun()
			if !inField {
				out = append(out, piece{end: pos + len(tok), words: 1})
			} else {
				out[len(out)-1].end = pos + len(tok)
			}
			inField = true // "ANA", "128,000": one word however it is glued
		default:
			flushRun() // punctuation parts a run: "、", "。"
		}
		pos += len(tok)
	}
	flushRun()
	return out
}

// clipSpaceless cuts text of a spaceless script to about n words, at a
// character (the grounded check reads such a script a character at a
// time, so a cut inside a run invents nothing); ok is false when text
// has no spaceless run, for clipWords to cut at spaces.
func clipSpaceless(text string, n int) (string, bool) {
	if !hasSpaceless(text) {
		return "", false
	}
	pieces := wordPieces(text)
	words, start := 0, 0
	for _, p := range pieces {
		if words+p.words <= n {
			words += p.words
			start = p.end
			continue
		}
		cut := start // a field that does not fit is left out whole
		if p.spaceless {
			// Keep the run's first (n-words) words' characters.
			keep := (n - words) * spacelessRunes
			runes := 0
			for i, r := range text[start:p.end] {
				if spacelessRune(r) {
					runes++
				}
				if runes > keep {
					cut = start + i
					break
				}
			}
		}
		return strings.TrimRight(strings.TrimSpace(text[:cut]), ",;:、，") + "…", true
	}
	return text, true
}

// foldWidth writes full-width ASCII forms ("１２３，０００", "２０２６／０７／１４")
// as ASCII, for the shapes, which read ASCII digits and marks.
func foldWidth(s string) string {
	if !strings.ContainsFunc(s, fullWidth) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if fullWidth(r) {
			return r - 0xFEE0
		}
		if r == '\u3000' {
			return ' ' // the ideographic space
		}
		return r
	}, s)
}

// fullWidth reports whether r is a full-width form of an ASCII character.
func fullWidth(r rune) bool { return r >= 0xFF01 && r <= 0xFF5E }

// spacedFields are text's fields with every spaceless run apart from the
// numbers and Latin words glued to it, and CJK punctuation read as a
// space: "家賃は128,000円、高い" is "家賃は 128,000 円 高い", so that the
// shapes see the number as a word of its own.
func spacedFields(text string) []string {
	if !hasSpaceless(text) {
		return strings.Fields(text)
	}
	var b strings.Builder
	prev := 0 // 0 start or space, 1 spaceless, 2 other
	for _, r := range text {
		cur := 2
		switch {
		case spacelessRune(r):
			cur = 1
		case unicode.IsSpace(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF01 && r <= 0xFF0F && r != '，' || r >= 0xFF1A && r <= 0xFF20 || r == '〜':
			b.WriteByte(' ') // "、", "。", "「", "」", "！", "（": a word's end
			prev = 0
			continue
		}
		if prev != 0 && prev != cur {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = cur
	}
	return strings.Fields(b.String())
}
