package index

import (
	"fmt"
	"strings"
	"time"
)

// secondsPerDay converts unix seconds to unix days.
const secondsPerDay = 86400

// encode turns d into the field map bleve indexes, and returns the number of
// analysed tokens of its scored fields (what bleve counts as field lengths).
func encode(d *Doc) (map[string]interface{}, fieldCounts, error) {
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
	for _, f := range []struct {
		name, count, text string
		n                 *int64
	}{{fieldText, fieldTokens, d.Text, &n.text}, {fieldWho, fieldWhoTokens, d.Who, &n.who}, {fieldCtx, fieldCtxTokens, d.Context, &n.ctx}} {
		toks, err := analyze(f.text)
		if err != nil {
			return nil, n, err
		}
		*f.n = int64(len(toks))
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
