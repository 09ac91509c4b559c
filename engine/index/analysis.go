package index

import (
	"fmt"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	regexpchar "github.com/blevesearch/bleve/v2/analysis/char/regexp"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/length"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Field names inside the bleve documents.
const (
	fieldText       = "text"    // analysed, scored: the document's own words
	fieldWho        = "who"     // analysed, scored: the trusted speaker's id and name (Doc.Who)
	fieldCtx        = "ctx"     // analysed, scored low: the turn answered, the sources cited (Doc.Context)
	fieldDate       = "date"    // keyword, scored: day terms of the time and of dates in the text (dates.go)
	fieldKind       = "kind"    // keyword, stored
	fieldPrefix     = "prefix"  // keyword, one term per ancestor directory plus the full path
	fieldSpeaker    = "speaker" // keyword, folded id, display and label (sources only)
	fieldTime       = "time"    // numeric unix seconds, stored, doc values for date sort
	fieldDay        = "day"     // numeric unix day, for day-aligned date filters
	fieldPath       = "path"    // stored only
	fieldAnchor     = "anchor"  // stored only
	fieldRef        = "ref"     // stored only
	fieldSpeakerID  = "sid"     // stored only
	fieldSpeakerDsp = "sdisp"   // stored only
	fieldSpeakerLbl = "slabel"  // stored only
	fieldTrusted    = "strust"  // stored only, "1" when the speaker is trusted
	fieldFrame      = "frame"   // stored only, "offset:length" of a v2 record's frame (Doc.Frame)
	fieldTokens     = "ntok"    // stored only: analysed token count of text, for the running totals
	fieldWhoTokens  = "nwho"    // stored only: the same for who
	fieldCtxTokens  = "nctx"    // stored only: the same for ctx
	fieldDateTokens = "ndate"   // stored only: the number of date terms
)

const (
	textAnalyzerName = "scriptorium_text"
	bigramFilterName = "scriptorium_cjk_bigram"
	lengthFilterName = "scriptorium_length"
	colonFilterName  = "scriptorium_colon"
	wideColonName    = "scriptorium_wide_colon"

	// maxTokenRunes drops pathological tokens (base64 blobs, minified code)
	// that would only bloat the term dictionary.
	maxTokenRunes = 256
)

// newMapping builds the index mapping. Any change here changes what is on
// disk: bump FormatVersion with it.
func newMapping() (*mapping.IndexMappingImpl, error) {
	im := mapping.NewIndexMapping()
	im.ScoringModel = bleveindex.BM25Scoring
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	im.DefaultField = fieldText

	// Conversations mix English and CJK: the unicode tokenizer splits words and
	// single ideographs, cjk_bigram pairs adjacent ideographs (keeping the
	// unigrams so one-character words still match), porter stems latin words
	// and leaves other scripts alone.
	if err := im.AddCustomTokenFilter(bigramFilterName, map[string]interface{}{
		"type":           cjk.BigramName,
		"output_unigram": true,
	}); err != nil {
		return nil, fmt.Errorf("bigram filter: %w", err)
	}
	if err := im.AddCustomTokenFilter(lengthFilterName, map[string]interface{}{
		"type": length.Name,
		"min":  1.0,
		"max":  float64(maxTokenRunes),
	}); err != nil {
		return nil, fmt.Errorf("length filter: %w", err)
	}
	// UAX#29 keeps "flask:budget" as one word (a colon is MidLetter); users
	// mean two. Replacements keep the byte length so token offsets still
	// point into the original text (MakeSnippet relies on that).
	if err := im.AddCustomCharFilter(colonFilterName, map[string]interface{}{
		"type": regexpchar.Name, "regexp": ":", "replace": " ",
	}); err != nil {
		return nil, fmt.Errorf("colon filter: %w", err)
	}
	if err := im.AddCustomCharFilter(wideColonName, map[string]interface{}{
		"type": regexpchar.Name, "regexp": "[：︓﹕]", "replace": "   ",
	}); err != nil {
		return nil, fmt.Errorf("colon filter: %w", err)
	}
	if err := im.AddCustomAnalyzer(textAnalyzerName, map[string]interface{}{
		"type":         custom.Name,
		"char_filters": []interface{}{colonFilterName, wideColonName},
		"tokenizer":    unicode.Name,
		"token_filters": []interface{}{
			cjk.WidthName,
			lowercase.Name,
			en.PossessiveName,
			en.StopName,
			lengthFilterName,
			bigramFilterName,
			porter.Name,
		},
	}); err != nil {
		return nil, fmt.Errorf("text analyzer: %w", err)
	}
	im.DefaultAnalyzer = textAnalyzerName

	dm := mapping.NewDocumentMapping()
	dm.Dynamic = false

	for _, name := range []string{fieldText, fieldWho, fieldCtx} {
		text := mapping.NewTextFieldMapping()
		text.Analyzer = textAnalyzerName
		text.Store = false
		text.IncludeTermVectors = false
		text.IncludeInAll = false
		text.DocValues = false
		dm.AddFieldMappingsAt(name, text)
	}

	for _, name := range []string{fieldKind, fieldPrefix, fieldSpeaker, fieldDate} {
		kw := mapping.NewKeywordFieldMapping()
		kw.Analyzer = keyword.Name
		kw.Store = name == fieldKind
		kw.IncludeTermVectors = false
		kw.IncludeInAll = false
		kw.DocValues = false
		// Only date is scored, and BM25 needs its length norm (bleve
		// scores a term of a norm-less field as zero).
		kw.SkipFreqNorm = name != fieldDate
		dm.AddFieldMappingsAt(name, kw)
	}

	tm := mapping.NewNumericFieldMapping()
	tm.Store = true
	tm.DocValues = true // date sort
	tm.IncludeInAll = false
	dm.AddFieldMappingsAt(fieldTime, tm)

	day := mapping.NewNumericFieldMapping()
	day.Store = false
	day.DocValues = false
	day.IncludeInAll = false
	dm.AddFieldMappingsAt(fieldDay, day)

	for _, name := range []string{fieldPath, fieldAnchor, fieldRef, fieldSpeakerID, fieldSpeakerDsp, fieldSpeakerLbl, fieldTrusted, fieldFrame} {
		so := mapping.NewKeywordFieldMapping()
		so.Analyzer = keyword.Name
		so.Index = false
		so.Store = true
		so.IncludeTermVectors = false
		so.IncludeInAll = false
		so.DocValues = false
		dm.AddFieldMappingsAt(name, so)
	}

	for _, name := range []string{fieldTokens, fieldWhoTokens, fieldCtxTokens, fieldDateTokens} {
		nt := mapping.NewNumericFieldMapping()
		nt.Index = false
		nt.Store = true
		nt.DocValues = false
		nt.IncludeInAll = false
		dm.AddFieldMappingsAt(name, nt)
	}

	im.DefaultMapping = dm
	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("validate mapping: %w", err)
	}
	return im, nil
}

// textAnalyzer is built once: bleve analyzers are immutable and shared by
// its own indexing goroutines, so sharing one is safe.
var textAnalyzer = sync.OnceValues(func() (analysis.Analyzer, error) {
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	a := im.AnalyzerNamed(textAnalyzerName)
	if a == nil {
		return nil, fmt.Errorf("analyzer %q not found", textAnalyzerName)
	}
	return a, nil
})

// analyze runs the text analyzer over s.
func analyze(s string) (analysis.TokenStream, error) {
	a, err := textAnalyzer()
	if err != nil {
		return nil, fmt.Errorf("analyzer: %w", err)
	}
	return a.Analyze([]byte(s)), nil
}

// queryTerms returns the distinct analysed terms of s in first-seen order.
func queryTerms(s string) ([]string, error) {
	toks, err := analyze(s)
	if err != nil {
		return nil, err
	}
	seen := make(map[string]bool, len(toks))
	terms := make([]string, 0, len(toks))
	for _, t := range toks {
		term := string(t.Term)
		if !seen[term] {
			seen[term] = true
			terms = append(terms, term)
		}
	}
	return terms, nil
}

// Tokens returns the analysed terms of s, in order and with repeats, exactly
// as the index sees the text field. It lets a caller (or a test baseline)
// score with the same tokens as the index.
func Tokens(s string) ([]string, error) {
	toks, err := analyze(s)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = string(t.Term)
	}
	return out, nil
}

// foldKey is the form speaker values are indexed and queried in: NFC, white
// space runs collapsed to one space and trimmed, Unicode case folded. A
// cases.Caser is stateful, so each call makes its own.
func foldKey(s string) string {
	s = strings.Join(strings.Fields(norm.NFC.String(s)), " ")
	return cases.Fold().String(s)
}

// BaselineTokens is the analysis quality measurements give their textbook
// BM25 baseline (engine's longchat evaluation): the analyser of index
// format 1 (no stop words), kept fixed so the baseline does not move when
// ours changes.
func BaselineTokens(s string) ([]string, error) {
	a, err := baselineAnalyzer()
	if err != nil {
		return nil, err
	}
	toks := a.Analyze([]byte(s))
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = string(t.Term)
	}
	return out, nil
}

var baselineAnalyzer = sync.OnceValues(func() (analysis.Analyzer, error) {
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	if err := im.AddCustomAnalyzer("baseline_v1", map[string]interface{}{
		"type":          custom.Name,
		"char_filters":  []interface{}{colonFilterName, wideColonName},
		"tokenizer":     unicode.Name,
		"token_filters": []interface{}{cjk.WidthName, lowercase.Name, en.PossessiveName, lengthFilterName, bigramFilterName, porter.Name},
	}); err != nil {
		return nil, err
	}
	a := im.AnalyzerNamed("baseline_v1")
	if a == nil {
		return nil, fmt.Errorf("analyzer baseline_v1 not found")
	}
	return a, nil
})
