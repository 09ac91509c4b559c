package index

import (
	"fmt"
	"scriptorium/workspace/archive"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Search limits.
const (
	// MaxQueryRunes is the longest query text Search accepts.
	MaxQueryRunes = 1000
	// DefaultLimit is the number of hits when Query.Limit is zero or less.
	DefaultLimit = 10
	// MaxLimit caps Query.Limit.
	MaxLimit = 10000
)

// Sort orders.
const (
	SortScore = "score" // best score first, ties by ID
	SortDate  = "date"  // newest first, ties by score then ID; undated last
)

// Query is one search. Text is user text, never query syntax: it is analysed
// like the documents and its terms are OR-ed, so characters such as + - : ( )
// " * ~ ^ \ only separate words.
type Query struct {
	// Text is required and at most MaxQueryRunes runes.
	Text string
	// Speaker, if set, keeps only source records whose speaker id, display
	// name or full label equals it, ignoring case and white-space runs.
	// Topic blocks never match a speaker filter.
	Speaker string
	// PathPrefix, if set, keeps documents under that path. It matches whole
	// path segments: "sources/openprogram" matches
	// "sources/openprogram/_v2/x.md" and the file "sources/openprogram" but
	// not "sources/openprogram2/…"; a trailing "/" matches directories only.
	PathPrefix string
	// Since and Until bound the document time, both inclusive; zero leaves
	// that side open. With either set, undated documents are excluded. Use
	// ParseBound to turn CLI dates into bounds. Times are compared to the
	// second.
	Since, Until time.Time
	// Kinds, if not empty, keeps only those kinds (KindTopic, KindSource).
	Kinds []string
	// Sort is SortScore (the default when empty) or SortDate.
	Sort string
	// Limit is the maximum number of hits; DefaultLimit when ≤ 0, at most
	// MaxLimit.
	Limit int
	// Explain asks for each hit's Explanation.
	Explain bool
}

// Hit is one search result. It carries no text: fetch the block or record
// by Path and Anchor, and cut a snippet with MakeSnippet.
type Hit struct {
	ID     string
	Kind   string
	Path   string
	Anchor string
	Ref    string
	Score  float64
	// Time is zero for undated documents.
	Time time.Time
	// Speaker fields are empty for topic blocks.
	SpeakerID, SpeakerDisplay, SpeakerLabel string
	SpeakerTrusted                          bool
	// Frame is the stored Doc.Frame; zero when the index has none.
	Frame archive.Span
	// Explanation is set when Query.Explain asked for it.
	Explanation *Explanation
}

// storedFields are the fields Search loads for each hit.
var storedFields = []string{
	fieldKind, fieldPath, fieldAnchor, fieldRef, fieldTime,
	fieldSpeakerID, fieldSpeakerDsp, fieldSpeakerLbl, fieldTrusted, fieldFrame,
}

// Search runs q and returns the hits in order. Text that analyses to no
// terms (only punctuation) returns no hits and no error.
func (ix *Index) Search(q Query) ([]Hit, error) {
	if strings.TrimSpace(q.Text) == "" {
		return nil, ErrEmptyQuery
	}
	if utf8.RuneCountInString(q.Text) > MaxQueryRunes {
		return nil, ErrQueryTooLong
	}
	byDate, err := sortByDate(q.Sort)
	if err != nil {
		return nil, err
	}
	filter, err := filterFor(q)
	if err != nil {
		return nil, err
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.idx == nil {
		return nil, ErrClosed
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	req, err := ix.request(q, filter, limit)
	if err != nil {
		return nil, err
	}
	if req == nil {
		return []Hit{}, nil
	}

	var hits []Hit
	err = ix.guard("search", func() error {
		ms, err := ix.top(req, limit, byDate)
		if err != nil {
			// The query was checked above: a failure now is the index's
			// ("index read inconsistency detected", a short read).
			return ix.markBroken("search", err)
		}
		hits = make([]Hit, 0, len(ms))
		for _, m := range ms {
			h := decodeHit(m)
			if q.Explain {
				h.Explanation = explain(m.Expl)
			}
			hits = append(hits, h)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return hits, nil
}

// request builds the bleve request for q with the given filter (filterFor)
// and size: the scoring query, the stored fields and our corpus totals.
// The sort order is the caller's. It is nil when the text analyses to no
// terms. Called with mu held.
func (ix *Index) request(q Query, filter query.Query, size int) (*bleve.SearchRequest, error) {
	scoring, _, err := buildQuery(q.Text, ix.isSpeaker, ix.eventDay)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if scoring == nil {
		return nil, nil
	}
	bq := scoring
	if filter != nil {
		b := query.NewBooleanQuery([]query.Query{bq}, nil, nil)
		b.AddFilter(filter)
		bq = b
	}

	req := bleve.NewSearchRequestOptions(bq, size, 0, q.Explain)
	req.Fields = slices.Clone(storedFields)

	st := ix.stats.Load()
	if st.Docs > 0 && st.Tokens > 0 {
		// Our own corpus totals instead of bleve's per-segment estimate,
		// which moves with merges (see the package comment).
		// bleve wants a cardinality for every field a term searcher
		// touches, filters included, though filters are never scored; "*"
		// is the field of scorch's merged ("unadorned") filter searchers.
		fc := map[string]int{fieldText: int(st.Tokens), fieldWho: int(max(st.WhoTokens, 1)),
			fieldCtx: int(max(st.CtxTokens, 1)), fieldDate: int(max(st.DateTerms, 1))}
		for _, f := range []string{fieldKind, fieldPrefix, fieldSpeaker, fieldTime, fieldDay, "*"} {
			fc[f] = int(st.Docs)
		}
		req.PreSearchData = map[string]interface{}{
			search.BM25PreSearchDataKey: &search.BM25Stats{
				DocCount:         float64(st.Docs),
				FieldCardinality: fc,
			},
		}
	}
	return req, nil
}

// isSpeaker reports whether an analysed term is part of some document's
// who field (a speaker's name or id), with a count-only search. Called
// with mu held. A failing lookup says no: the search itself then reports
// the damage.
func (ix *Index) isSpeaker(term string) bool {
	req := bleve.NewSearchRequestOptions(termQuery(fieldWho, term, 1), 0, 0, false)
	req.Score = "none"
	found := false
	_ = ix.guard("search", func() error {
		res, err := ix.idx.Search(req)
		found = err == nil && res.Total > 0
		return nil
	})
	return found
}

// eventDay is the day of the best hit for an event's words ("the gym
// reopened"), or zero. Called with mu held.
func (ix *Index) eventDay(event string) time.Time {
	eq, _, err := buildQuery(event, ix.isSpeaker, nil)
	if err != nil || eq == nil {
		return time.Time{}
	}
	req := bleve.NewSearchRequestOptions(eq, 1, 0, false)
	req.Fields = []string{fieldTime}
	var t time.Time
	_ = ix.guard("search", func() error {
		ms, err := ix.top(req, 1, false)
		if err == nil && len(ms) > 0 {
			if sec, ok := ms[0].Fields[fieldTime].(float64); ok {
				t = time.Unix(int64(sec), 0).UTC()
			}
		}
		return nil
	})
	return t
}

// sortByDate reports whether Query.Sort asks for date order.
func sortByDate(s string) (bool, error) {
	switch s {
	case "", SortScore:
		return false, nil
	case SortDate:
		return true, nil
	}
	return false, fmt.Errorf("%w: sort %q (want %q or %q)", ErrInvalidQuery, s, SortScore, SortDate)
}

// filterFor builds the non-scoring conjunction of q's filters, or nil.
func filterFor(q Query) (query.Query, error) {
	var conj []query.Query
	term := func(field, value string) *query.TermQuery {
		t := query.NewTermQuery(value)
		t.SetField(field)
		return t
	}

	if len(q.Kinds) > 0 {
		var ks []query.Query
		for _, k := range q.Kinds {
			if k != KindTopic && k != KindSource {
				return nil, fmt.Errorf("%w: kind %q", ErrInvalidQuery, k)
			}
			ks = append(ks, term(fieldKind, k))
		}
		conj = append(conj, query.NewDisjunctionQuery(ks))
	}

	if strings.TrimSpace(q.Speaker) != "" {
		// Only source records carry speaker keys; the kind term says so
		// explicitly rather than relying on it.
		conj = append(conj, term(fieldKind, KindSource), term(fieldSpeaker, foldKey(q.Speaker)))
	}

	if p := cleanPath(q.PathPrefix); p != "" {
		if strings.HasSuffix(p, "/") {
			conj = append(conj, term(fieldPrefix, p))
		} else {
			conj = append(conj, query.NewDisjunctionQuery([]query.Query{
				term(fieldPrefix, p), term(fieldPrefix, p+"/"),
			}))
		}
	}

	if !q.Since.IsZero() || !q.Until.IsZero() {
		dq, err := dateFilter(q.Since, q.Until)
		if err != nil {
			return nil, err
		}
		conj = append(conj, dq)
	}

	switch len(conj) {
	case 0:
		return nil, nil
	case 1:
		return conj[0], nil
	}
	return query.NewConjunctionQuery(conj), nil
}

// dateFilter bounds the time field inclusively. Whole-day bounds use the
// coarser day field, which has far fewer terms to walk.
func dateFilter(since, until time.Time) (query.Query, error) {
	if !since.IsZero() && !until.IsZero() && since.After(until) {
		return nil, fmt.Errorf("%w: since %s is after until %s", ErrInvalidQuery,
			since.UTC().Format(time.RFC3339), until.UTC().Format(time.RFC3339))
	}
	incl := true
	sinceDay := since.IsZero() || dayStart(since)
	untilDay := until.IsZero() || dayStart(until.Add(time.Nanosecond))
	if sinceDay && untilDay {
		var lo, hi *float64
		if !since.IsZero() {
			v := float64(floorDiv(since.Unix(), secondsPerDay))
			lo = &v
		}
		if !until.IsZero() {
			v := float64(floorDiv(until.Unix(), secondsPerDay))
			hi = &v
		}
		nq := query.NewNumericRangeInclusiveQuery(lo, hi, &incl, &incl)
		nq.SetField(fieldDay)
		return nq, nil
	}
	// Documents are indexed to the second: a doc at second s is ≥ since
	// when s ≥ ceil(since), and ≤ until when s ≤ floor(until).
	var lo, hi *float64
	if !since.IsZero() {
		v := float64(since.Unix())
		if since.Nanosecond() > 0 {
			v++
		}
		lo = &v
	}
	if !until.IsZero() {
		v := float64(until.Unix())
		hi = &v
	}
	nq := query.NewNumericRangeInclusiveQuery(lo, hi, &incl, &incl)
	nq.SetField(fieldTime)
	return nq, nil
}

// decodeHit reads the stored fields of a bleve hit.
func decodeHit(m *search.DocumentMatch) Hit {
	str := func(name string) string {
		s, _ := m.Fields[name].(string)
		return s
	}
	h := Hit{
		ID:             m.ID,
		Score:          m.Score,
		Kind:           str(fieldKind),
		Path:           str(fieldPath),
		Anchor:         str(fieldAnchor),
		Ref:            str(fieldRef),
		SpeakerID:      str(fieldSpeakerID),
		SpeakerDisplay: str(fieldSpeakerDsp),
		SpeakerLabel:   str(fieldSpeakerLbl),
		SpeakerTrusted: str(fieldTrusted) == "1",
	}
	if sec, ok := m.Fields[fieldTime].(float64); ok {
		h.Time = time.Unix(int64(sec), 0).UTC()
	}
	if off, n, ok := strings.Cut(str(fieldFrame), ":"); ok {
		o, err1 := strconv.Atoi(off)
		l, err2 := strconv.Atoi(n)
		if err1 == nil && err2 == nil && o >= 0 && l > 0 {
			h.Frame = archive.Span{Off: o, Len: l}
		}
	}
	return h
}

// ParseBound parses a CLI date bound: "YYYY-MM-DD" is a whole UTC day (its
// first instant for since, its last for until, so both ends are inclusive);
// anything else must be RFC 3339 and is exact. An empty string is the zero
// time (open).
func ParseBound(s string, until bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		if until {
			return d.AddDate(0, 0, 1).Add(-time.Nanosecond), nil
		}
		return d, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: %q (want YYYY-MM-DD or RFC 3339)", ErrInvalidBound, s)
	}
	return t.UTC(), nil
}
