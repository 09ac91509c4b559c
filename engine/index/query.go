package index

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
)

// Ranking: each query term is looked up in the document's own words
// (text) and in who said it (who); a date the question names is looked up
// in the date terms. A term's fields form one disjunction, so bleve's
// coordination factor counts how many of the question's terms (and its
// date) a document matched, not how many fields; inside it, a term found
// in both fields counts twice over, which is what lifts "what did Alice
// say" to Alice's own turns. The conversation around a document (ctx)
// only adds to a document that matched: a result always shows why it is
// one. The weights were chosen on the longchat set (BENCHMARKS.md), and
// each part was kept only where it raised recall there.
var (
	boostWho  = 1.0
	boostCtx  = 0.2
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
var bareName = regexp.MustCompile(`^\p{L}+$`)

// buildQuery returns the scoring query for text and the terms it used.
func buildQuery(text string) (query.Query, []string, error) {
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
		if boostWho > 0 && bareName.MatchString(t) {
			fields = append(fields, termQuery(fieldWho, t, boostWho))
		}
		clauses = append(clauses, fieldsOf(fields))
		if boostCtx > 0 {
			context = append(context, termQuery(fieldCtx, t, boostCtx))
		}
	}
	if boostDate > 0 {
		var dates []query.Query
		for _, d := range QueryDateTerms(text) {
			dates = append(dates, termQuery(fieldDate, d, boostDate))
		}
		if len(dates) > 0 {
			clauses = append(clauses, fieldsOf(dates))
		}
	}
	if len(clauses) == 0 {
		return nil, nil, nil
	}
	main := query.NewDisjunctionQuery(clauses)
	if len(context) == 0 {
		return main, kept, nil
	}
	// Context only lifts a document that matched on its own (its words, its
	// speaker, its date): a result always shows why it is one.
	return query.NewBooleanQuery([]query.Query{main}, context, nil), kept, nil
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
	// Tree is bleve's explanation as it came.
	Tree *search.Explanation `json:"tree,omitempty"`
}

// Match is one field and term that scored.
type Match struct {
	Field string  `json:"field"` // text, who, ctx or date
	Term  string  `json:"term"`
	Boost float64 `json:"boost"`
	Score float64 `json:"score"` // its share before coordination
}

var weightMsg = regexp.MustCompile(`^weight\(([^:]+):(.*)\^([0-9.e+-]+) in `)

// explain condenses bleve's explanation tree.
func explain(e *search.Explanation) *Explanation {
	if e == nil {
		return nil
	}
	out := &Explanation{Score: e.Value, Tree: e, Matches: []Match{}}
	var walk func(x *search.Explanation, top bool)
	walk = func(x *search.Explanation, top bool) {
		if m := weightMsg.FindStringSubmatch(x.Message); m != nil {
			var boost float64
			fmt.Sscanf(m[3], "%g", &boost)
			out.Matches = append(out.Matches, Match{Field: m[1], Term: m[2], Boost: boost, Score: x.Value})
			return
		}
		if top && strings.HasPrefix(x.Message, "coord(") {
			out.Coord = strings.TrimSuffix(strings.TrimPrefix(x.Message, "coord("), ")")
		}
		for _, c := range x.Children {
			walk(c, top && x.Message == "product of:")
		}
	}
	walk(e, true)
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
	parts := make([]string, len(e.Matches))
	for i, m := range e.Matches {
		b := ""
		if m.Boost != 1 {
			b = fmt.Sprintf(" ×%g", m.Boost)
		}
		parts[i] = fmt.Sprintf("%s:%s%s %.3f", m.Field, m.Term, b, m.Score)
	}
	s := strings.Join(parts, " + ")
	if e.Coord != "" {
		s = "(" + s + ") × coord " + e.Coord
	}
	return fmt.Sprintf("%s = %.3f", s, e.Score)
}
