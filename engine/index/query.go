package index

import (
	"fmt"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"scriptorium/lazyre"
)

// Ranking: each query term is looked up in the document's own words
// (text), in who said it (who) and, at a low weight, in the conversation
// around it (ctx: the turn a reply answers, the sources a block cites), so
// a reply is found by the question it answers; a date the question names
// is looked up in the date terms. A term's fields form one disjunction, so
// the outer coordination factor counts how many of the question's terms
// (and its date) a document matched, not how many fields; inside it, a
// term found in two fields counts twice over, which is what lifts "what
// did Alice say" to Alice's own turns. The weights were chosen on the
// longchat set (BENCHMARKS.md), and each part was kept only where it
// raised recall there.
var (
	boostWho  = 2.0
	boostCtx  = 0.3
	boostDate = 1.5
)

// framing are words that frame a question rather than name its subject
// ("what did Alice say about …"): stop words for the query only, since in
// a message they still carry meaning ("I said no"). Stemmed, as the
// analyser leaves them.
var framing = map[string]bool{
	"sai": true, "say": true, "said": true, "tell": true, "told": true, "think": true, "thought": true,
	"mention": true, "happen": true, "happened": true, "rememb": true, "rememb'": true,
}

// bareName keeps a lowercase run of letters that could be a name.
var bareName = lazyre.New(`^\p{L}+$`)

// buildQuery returns the scoring query for text and the terms it used.
// isSpeaker says whether a term names a speaker: only those terms are
// looked up in the who field too. (bleve multiplies a disjunction's score
// by the share of its clauses that matched, so a who lookup beside every
// term would halve every match that is not the speaker's.)
//
// A question about the days next to an event ("what did Diego do the week
// after the gym reopened") is asked in two steps: eventDay finds the day of
// the event (the best hit for its words), and the days around it join the
// question's date terms.
func buildQuery(text string, isSpeaker func(term string) bool, eventDay func(event string) time.Time) (query.Query, []string, error) {
	// The days next to the event, and the question without the event's
	// words: the answer happened then, it is not the event again.
	var window []string
	if event, days, ok := relativeWindow(text); ok && eventDay != nil {
		if t := eventDay(event); !t.IsZero() {
			for _, d := range days(t) {
				window = append(window, dayTerm+d.Format(time.DateOnly))
			}
			if rest := strings.TrimSpace(text[:strings.LastIndex(text, event)]); rest != "" {
				text = rest
			}
		}
	}
	terms, err := queryTerms(text)
	if err != nil {
		return nil, nil, err
	}
	kept := terms[:0:0]
	for _, t := range terms {
		if !framing[t] {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		kept = terms // a question of framing words only still asks something
	}
	var clauses, context []query.Query
	for _, t := range kept {
		fields := []query.Query{termQuery(fieldText, t, 1)}
		if boostWho > 0 && bareName.MatchString(t) && isSpeaker(t) {
			fields = append(fields, termQuery(fieldWho, t, boostWho))
		}
		clauses = append(clauses, fieldsOf(fields))
		if boostCtx > 0 {
			context = append(context, termQuery(fieldCtx, t, boostCtx))
		}
	}
	if len(context) > 0 {
		// All context lookups are one clause: a document found only by
		// the turn before it counts as matching one part of the question,
		// and a reply never outranks the turn it repeats.
		clauses = append(clauses, fieldsOf(context))
	}
	if boostDate > 0 {
		var dates []query.Query
		for _, d := range QueryDateTerms(text) {
			dates = append(dates, termQuery(fieldDate, d, boostDate))
		}
		for _, d := range window {
			dates = append(dates, termQuery(fieldDate, d, boostDate))
		}
		if len(dates) > 0 {
			clauses = append(clauses, fieldsOf(dates))
		}
	}
	if len(clauses) == 0 {
		return nil, nil, nil
	}
	return query.NewDisjunctionQuery(clauses), kept, nil
}

func termQuery(field, term string, boost float64) *query.TermQuery {
	q := query.NewTermQuery(term)
	q.SetField(field)
	if boost != 1 {
		q.SetBoost(boost)
	}
	return q
}

// fieldsOf ORs one term's field lookups.
func fieldsOf(fields []query.Query) query.Query {
	if len(fields) == 1 {
		return fields[0]
	}
	return query.NewDisjunctionQuery(fields)
}

// Explanation is how one hit got its score, from bleve's explanation of
// the query: one line per matched field and term, the coordination factor,
// and bleve's whole tree for anyone who wants every factor.
type Explanation struct {
	Score float64 `json:"score"`
	// Matches are the field lookups that scored, best first.
	Matches []Match `json:"matches"`
	// Coord is "matched/total" query clauses (terms, and a date if the
	// question names one); the sum of matches is multiplied by it.
	Coord string `json:"coord"`
	// Tree is bleve's explanation as it came: {value, message, children}.
	// It is an any so that schema generators (MCP) need not follow its
	// recursion.
	Tree any `json:"tree,omitempty"`
	// Fusion is set for a hybrid ranking: where the hit ranked in each
	// list and the fused score.
	Fusion *Fusion `json:"fusion,omitempty"`
}

// Fusion is one hit's part in a reciprocal rank fusion of the BM25 and the
// vector rankings: score = Σ 1/(K + rank) over the lists it is in.
type Fusion struct {
	K          int     `json:"k"`
	BM25Rank   int     `json:"bm25_rank"`   // 1-based; 0 when not in the BM25 list
	VectorRank int     `json:"vector_rank"` // 1-based; 0 when not in the vector list
	Similarity float64 `json:"similarity"`  // cosine similarity to the question
	Score      float64 `json:"score"`
}

// Match is one field and term that scored.
type Match struct {
	Field string  `json:"field"` // text, who, ctx or date
	Term  string  `json:"term"`
	Boost float64 `json:"boost"`
	Score float64 `json:"score"` // its share before coordination
}

var weightMsg = lazyre.New(`^weight\(([^:]+):(.*)\^([0-9.e+-]+) in `)

// explain condenses bleve's explanation tree.
func explain(e *search.Explanation) *Explanation {
	if e == nil {
		return nil
	}
	out := &Explanation{Score: e.Value, Tree: e, Matches: []Match{}}
	// The question's coordination factor is the coord(m/n) over the most
	// clauses, the outermost of those: deeper ones belong to one term's
	// fields.
	bestN, bestDepth := 0, 0
	var coord func(x *search.Explanation, depth int)
	coord = func(x *search.Explanation, depth int) {
		var m, n int
		if _, err := fmt.Sscanf(x.Message, "coord(%d/%d)", &m, &n); err == nil {
			if n > bestN || (n == bestN && depth < bestDepth) {
				bestN, bestDepth, out.Coord = n, depth, fmt.Sprintf("%d/%d", m, n)
			}
		}
		for _, c := range x.Children {
			coord(c, depth+1)
		}
	}
	coord(e, 0)
	var walk func(x *search.Explanation)
	walk = func(x *search.Explanation) {
		if m := weightMsg.FindStringSubmatch(x.Message); m != nil {
			var boost float64
			fmt.Sscanf(m[3], "%g", &boost)
			out.Matches = append(out.Matches, Match{Field: m[1], Term: m[2], Boost: boost, Score: x.Value})
			return
		}
		for _, c := range x.Children {
			walk(c)
		}
	}
	walk(e)
	for i := 1; i < len(out.Matches); i++ {
		for j := i; j > 0 && out.Matches[j].Score > out.Matches[j-1].Score; j-- {
			out.Matches[j], out.Matches[j-1] = out.Matches[j-1], out.Matches[j]
		}
	}
	return out
}

// String is the explanation in one readable line.
func (e *Explanation) String() string {
	if e == nil {
		return ""
	}
	var parts []string
	for _, m := range e.Matches {
		b := ""
		if m.Boost != 1 {
			b = fmt.Sprintf(" ×%g", m.Boost)
		}
		parts = append(parts, fmt.Sprintf("%s:%s%s %.3f", m.Field, m.Term, b, m.Score))
	}
	s := strings.Join(parts, " + ")
	if e.Coord != "" {
		s = "(" + s + ") × coord " + e.Coord
	}

	out := ""
	if len(parts) > 0 {
		out = fmt.Sprintf("bm25 %s = %.3f", s, e.Score)
	}
	if f := e.Fusion; f != nil {
		rank := func(r int) string {
			if r == 0 {
				return "—"
			}
			return fmt.Sprint(r)
		}
		fused := fmt.Sprintf("rrf(k=%d): bm25 rank %s, vector rank %s (cosine %.3f) = %.4f",
			f.K, rank(f.BM25Rank), rank(f.VectorRank), f.Similarity, f.Score)
		if out == "" {
			return fused
		}
		out += "; " + fused
	}
	return out
}
