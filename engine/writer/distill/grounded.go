package distill

import (
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"

	"scriptorium/engine/index/reldate"
)

// Evidence is one turn a text rests on: what was said and when (relative
// dates in it resolve against the time).
type Evidence struct {
	Text string
	Time time.Time
}

// Unsupported returns the content words of text that no evidence holds,
// once each, in order: nil means the text invents nothing. Words are
// compared after bleve's English analysis (possessives stripped, lower
// case, porter stems, so "prefers" matches "prefer"), and a verb the
// third-person rewrite conjugated ("goes") matches its base form. Aside
// are function words (bleve's English stop list, plus "will", "can",
// "also", "just" and the framing verbs "said" and "asked"), the words of
// names (the subject's, the speakers'), and dates: an ISO date, month or
// year in text counts when an evidence turn was said on it or resolves a
// relative or yearless date to it ("next month" said on 2025-03-08 is
// 2025-04).
func Unsupported(text string, evidence []Evidence, names ...string) []string {
	return indexEvidence(evidence, nil).unsupported(text, names, nil)
}

// evidenceIndex is what a set of turns holds, for Unsupported: the stems
// of their words and the dates they name or resolve to.
type evidenceIndex struct {
	stems map[string]bool
	dates map[string]bool
}

// indexEvidence reads evidence once; stems, when not nil, caches porter
// stems across calls.
func indexEvidence(evidence []Evidence, stems map[string]string) *evidenceIndex {
	a := analyzer()
	ix := &evidenceIndex{stems: map[string]bool{}, dates: map[string]bool{}}
	for _, ev := range evidence {
		for _, w := range a.words(ev.Text, stems) {
			ix.stems[w.stem] = true
		}
		if !ev.Time.IsZero() {
			day := ev.Time.UTC()
			ix.dates[day.Format(time.DateOnly)] = true
			ix.dates[day.Format("2006-01")] = true
			ix.dates[day.Format("2006")] = true
		}
		// A date is read in its sentence, as the distiller reads a fact's,
		// and in the whole text: a tense elsewhere in a turn ("Tiago has
		// decided it's going to be…") can move "on Friday" to the next one.
		texts := []string{ev.Text}
		if sents := split(ev.Text).sentences; len(sents) > 1 {
			for _, sn := range sents {
				texts = append(texts, sn.text)
			}
		}
		for _, text := range texts {
			for _, m := range reldate.FindAll(text, ev.Time) {
				ix.dates[m.Date()] = true
				ix.dates[m.Label()] = true
				for _, d := range m.Days {
					ix.dates[d.Format(time.DateOnly)] = true
				}
			}
		}
		for _, d := range isoLike.FindAllString(ev.Text, -1) {
			ix.dates[d] = true
		}
	}
	return ix
}

// union is an index of both indexes' evidence.
func (ix *evidenceIndex) union(o *evidenceIndex) *evidenceIndex {
	u := &evidenceIndex{stems: map[string]bool{}, dates: map[string]bool{}}
	for _, x := range []*evidenceIndex{ix, o} {
		for k := range x.stems {
			u.stems[k] = true
		}
		for k := range x.dates {
			u.dates[k] = true
		}
	}
	return u
}

// unsupported is Unsupported against the index.
func (ix *evidenceIndex) unsupported(text string, names []string, stems map[string]string) []string {
	a := analyzer()
	allowed := map[string]bool{}
	for _, n := range names {
		for _, w := range a.words(n, stems) {
			allowed[w.stem] = true
		}
	}
	var missing []string
	seen := map[string]bool{}
	miss := func(w string) {
		if !seen[w] {
			seen[w] = true
			missing = append(missing, w)
		}
	}
	// Resolved dates first, so their digits are not read as numbers.
	if strings.Contains(text, "-") || strings.Contains(text, "(") {
		text = isoLike.ReplaceAllStringFunc(text, func(d string) string {
			key := strings.Trim(strings.TrimPrefix(d, "week of "), "()")
			if !ix.dates[key] && !ix.dates[d] {
				miss(d)
			}
			return " "
		})
	}
	for _, w := range a.words(text, stems) {
		if ix.stems[w.stem] || allowed[w.stem] || a.conjugated(w.term, ix.stems, stems) {
			continue
		}
		miss(w.term)
	}
	return missing
}

// isoLike matches the dates the writer writes: 2025-03-04, "week of
// 2025-03-03", 2025-03, and a bare year after a date's opening parenthesis.
var isoLike = lazyRegexp(`(?:week of )?\b\d{4}-\d{2}-\d{2}\b|\b\d{4}-\d{2}\b|\(\d{4}\)`)

// word is one analysed token: its lower-case term and its stem.
type word struct{ term, stem string }

// textAnalyzer is bleve's English analysis, taken apart so the checker
// sees each token's term before stemming.
type textAnalyzer struct {
	tokenizer  analysis.Tokenizer
	possessive analysis.TokenFilter
	lower      analysis.TokenFilter
	stemmer    analysis.TokenFilter
	stop       analysis.TokenMap
}

var (
	analyzerOnce sync.Once
	theAnalyzer  *textAnalyzer
)

// extraFunctionWords are function words bleve's stop list lacks, and the
// framing verbs a quote needs ("said", and "asked" for an answer's
// question).
var extraFunctionWords = []string{"will", "can", "also", "just", "said", "asked", "lets", "let"}

func analyzer() *textAnalyzer {
	analyzerOnce.Do(func() {
		stop := analysis.NewTokenMap()
		if err := stop.LoadBytes(en.EnglishStopWords); err != nil {
			panic("distill: bleve's English stop words do not load: " + err.Error())
		}
		for _, w := range extraFunctionWords {
			stop.AddToken(w)
		}
		theAnalyzer = &textAnalyzer{tokenizer: unicode.NewUnicodeTokenizer(), possessive: en.NewPossessiveFilter(),
			lower: lowercase.NewLowerCaseFilter(), stemmer: porter.NewPorterStemmer(), stop: stop}
	})
	return theAnalyzer
}

// words returns the content words of s: stop words and punctuation
// dropped, possessives stripped, lower case, with their porter stems.
func (a *textAnalyzer) words(s string, stems map[string]string) []word {
	// Curly apostrophes become straight ones, so "I’m" is the stop word
	// "i'm"; invalid UTF-8 is read as U+FFFD, as Distil reads it.
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "’", "'")
	ts := a.lower.Filter(a.possessive.Filter(a.tokenizer.Tokenize([]byte(s))))
	out := make([]word, 0, len(ts))
	for _, t := range ts {
		term := string(t.Term)
		if a.stop[term] || a.stop[strings.TrimSuffix(term, "'s")] {
			continue
		}
		out = append(out, word{term: term, stem: a.cachedStem(term, stems)})
	}
	return out
}

// cachedStem is stem, remembered in cache when it is not nil.
func (a *textAnalyzer) cachedStem(term string, cache map[string]string) string {
	if cache == nil {
		return a.stem(term)
	}
	if s, ok := cache[term]; ok {
		return s
	}
	s := a.stem(term)
	cache[term] = s
	return s
}

func (a *textAnalyzer) stem(term string) string {
	ts := a.stemmer.Filter(analysis.TokenStream{&analysis.Token{Term: []byte(term)}})
	return string(ts[0].Term)
}

// irregular are third-person forms whose stem is not their base form's.
var irregular = map[string]string{"goes": "go", "does": "do", "has": "have", "is": "be", "was": "be"}

// conjugated reports whether term is a third-person form of a word whose
// stem is in have ("goes" for "go", "flies" for "fly").
func (a *textAnalyzer) conjugated(term string, have map[string]bool, cache map[string]string) bool {
	if base, ok := irregular[term]; ok && have[a.cachedStem(base, cache)] {
		return true
	}
	for _, cut := range []struct{ suffix, repl string }{{"ies", "y"}, {"es", ""}, {"s", ""}} {
		if base, ok := strings.CutSuffix(term, cut.suffix); ok && base != "" && have[a.cachedStem(base+cut.repl, cache)] {
			return true
		}
	}
	return false
}
