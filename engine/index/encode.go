package index

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
)

// secondsPerDay converts unix seconds to unix days.
const secondsPerDay = 86400

// scoredFields are the analysed, scored fields, in the order fieldMap
// fills its token streams.
var scoredFields = [3]string{fieldText, fieldWho, fieldCtx}

// encode makes d's bleve document and counts the analysed tokens of its
// scored fields (what bleve counts as field lengths). The index mapping m
// lays the document out exactly as Batch.Index would; only the scored text
// fields differ: they carry the tokens fieldMap analysed for the counts, so
// bleve does not analyse the same text a second time (see tokensOf).
func encode(m mapping.IndexMapping, d *Doc) (*document.Document, fieldCounts, error) {
	var toks [len(scoredFields)]analysis.TokenStream
	fields, n, err := fieldMap(d, &toks)
	if err != nil {
		return nil, n, err
	}
	doc := document.NewDocument(d.ID)
	if err := m.MapDocument(doc, fields); err != nil {
		return nil, n, err
	}
	for i, f := range doc.Fields {
		tf, ok := f.(*document.TextField)
		if !ok {
			continue
		}
		if k := slices.Index(scoredFields[:], tf.Name()); k >= 0 {
			doc.Fields[i] = document.NewTextFieldCustom(tf.Name(), tf.ArrayPositions(), tf.Value(), tf.Options(), tokensOf(toks[k]))
		}
	}
	return doc, n, nil
}

// tokensOf is an analyzer that returns a token stream analysed before:
// bleve calls a field's analyzer once, in its indexing workers, whatever
// the bytes.
type tokensOf analysis.TokenStream

// Analyze returns the stored tokens.
func (t tokensOf) Analyze([]byte) analysis.TokenStream { return analysis.TokenStream(t) }

// fieldMap turns d into the field map bleve's mapping indexes, analysing
// the scored fields into toks (in scoredFields order) for their counts.
func fieldMap(d *Doc, toks *[len(scoredFields)]analysis.TokenStream) (map[string]interface{}, fieldCounts, error) {
	var n fieldCounts
	if d.Kind != KindTopic && d.Kind != KindSource {
		return nil, n, fmt.Errorf("unknown kind %q", d.Kind)
	}
	m := map[string]interface{}{
		fieldText:   d.Text,
		fieldKind:   d.Kind,
		fieldPrefix: pathPrefixes(d.Path),
		fieldPath:   d.Path,
		fieldAnchor: d.Anchor,
		fieldRef:    d.Ref,
	}
	for k, f := range []struct {
		name, count, text string
		n                 *int64
	}{{fieldText, fieldTokens, d.Text, &n.text}, {fieldWho, fieldWhoTokens, d.Who, &n.who}, {fieldCtx, fieldCtxTokens, d.Context, &n.ctx}} {
		ts, err := analyze(f.text)
		if err != nil {
			return nil, n, err
		}
		toks[k] = ts
		*f.n = int64(len(ts))
		if f.name == fieldText || *f.n > 0 {
			m[f.name] = f.text
			m[f.count] = float64(*f.n)
		}
	}
	if dates := docDateTerms(d.Text, d.Time); len(dates) > 0 {
		m[fieldDate] = dates
		m[fieldDateTokens] = float64(len(dates))
		n.date = int64(len(dates))
	}
	if !d.Time.IsZero() {
		sec := d.Time.Unix()
		m[fieldTime] = float64(sec)
		m[fieldDay] = float64(floorDiv(sec, secondsPerDay))
	}
	if d.Kind == KindSource {
		m[fieldSpeakerID] = d.SpeakerID
		m[fieldSpeakerDsp] = d.SpeakerDisplay
		m[fieldSpeakerLbl] = d.SpeakerLabel
		if d.SpeakerTrusted {
			m[fieldTrusted] = "1"
		}
		if d.Frame.Len > 0 {
			m[fieldFrame] = strconv.Itoa(d.Frame.Off) + ":" + strconv.Itoa(d.Frame.Len)
		}
		if keys := speakerKeys(d); len(keys) > 0 {
			m[fieldSpeaker] = keys
		}
	}
	return m, n, nil
}

// speakerKeys are the folded, distinct, non-empty speaker values of d.
func speakerKeys(d *Doc) []string {
	var keys []string
	for _, v := range []string{d.SpeakerID, d.SpeakerDisplay, d.SpeakerLabel} {
		k := foldKey(v)
		if k == "" {
			continue
		}
		dup := false
		for _, have := range keys {
			dup = dup || have == k
		}
		if !dup {
			keys = append(keys, k)
		}
	}
	return keys
}

// pathPrefixes returns one term per ancestor directory of p, each ending in
// "/", plus p itself: "sources/", "sources/op/", "sources/op/t.md". A
// prefix filter is then a single term lookup.
func pathPrefixes(p string) []string {
	p = cleanPath(p)
	if p == "" {
		return nil
	}
	var out []string
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			out = append(out, p[:i+1])
		}
	}
	if !strings.HasSuffix(p, "/") {
		out = append(out, p)
	}
	return out
}

// cleanPath drops a leading "./" or "/" so "./sources/x" and "sources/x"
// agree; the rest is taken literally (paths are workspace-relative already).
func cleanPath(p string) string {
	for {
		switch {
		case strings.HasPrefix(p, "./"):
			p = p[2:]
		case strings.HasPrefix(p, "/"):
			p = p[1:]
		default:
			return p
		}
	}
}

// floorDiv divides rounding toward negative infinity, so times before 1970
// land on the right day.
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// dayStart reports whether t is exactly midnight UTC.
func dayStart(t time.Time) bool {
	return t.Equal(t.UTC().Truncate(24 * time.Hour))
}
