// Package vectors is the embeddings search beside the index: the vectors
// of a workspace's trusted search documents (config.toml [embeddings]),
// cached in .scriptorium/embeddings.db, ranked by cosine similarity and
// fused with BM25 by reciprocal rank fusion. It is handed the documents
// the index holds, so pending content is never embedded: what is pending
// never leaves the machine, here as everywhere else.
package vectors

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"scriptorium/engine/config"
	"scriptorium/engine/index"
	"scriptorium/engine/model"
	"scriptorium/errcode"
)

// Search methods.
const (
	MethodBM25      = "bm25"
	MethodHybrid    = "hybrid"
	MethodEmbedding = "embedding"
)

// rrfK is the reciprocal rank fusion constant: score = Σ 1/(k + rank).
// 60 is the value of the original paper and of most systems since; a
// large k keeps one list's top hit from drowning the other's.
const rrfK = 60

// fusionDepth is how deep each list is read before fusing: a hit ranked
// below it in both lists cannot reach the top of the fused list.
const fusionDepth = 100

// embedRetries is how many times a failed embeddings request is tried.
const embedRetries = 3

// Searcher is an engine's embeddings search state: the progress callback,
// and the documents and vectors of the last workspace state searched, so a
// long-lived engine (the TUI, a host) reads the vector cache once per
// change, not once per question. The zero value is ready.
type Searcher struct {
	progress atomic.Pointer[func(done, total int)]

	mu   sync.Mutex
	key  string // model name and workspace fingerprint
	docs []Doc
	vecs [][]float32
}

// SetProgress sets what is told how far the embedding of documents has
// got (done of total texts) while a search fills the vector cache; nil
// turns it off.
func (s *Searcher) SetProgress(f func(done, total int)) {
	if f == nil {
		s.progress.Store(nil)
		return
	}
	s.progress.Store(&f)
}

// Request is one hybrid or embedding search.
type Request struct {
	Embedder model.Embedder
	// CachePath is the vector cache (workspace.EmbeddingsName); BatchSize
	// how many texts go in one embeddings request.
	CachePath string
	BatchSize int
	// State names the workspace state the documents come from (its
	// fingerprint): the vectors in memory are reused while it holds.
	State string
	// Docs lists the documents to rank, called only when State moved.
	Docs func() []Doc
	// BM25 runs the index's ranking: one list of the fusion, and the
	// answer when the embedder fails.
	BM25 func(index.Query) ([]index.Hit, error)
	// Query is the search; EmbeddingOnly ranks by similarity alone.
	Query         index.Query
	EmbeddingOnly bool
}

// Search runs a hybrid or embedding search. When the embedder fails, the
// answer is BM25's, with the method saying so and fallback saying why.
func (s *Searcher) Search(ctx context.Context, r Request) (hits []index.Hit, used, fallback string, err error) {
	iq := r.Query
	limit := iq.Limit
	if limit <= 0 {
		limit = index.DefaultLimit
	}
	// Both lists are read by relevance; a date order is applied to what
	// relevance chose.
	deep := iq
	deep.Limit = max(fusionDepth, limit)
	deep.Sort = index.SortScore
	vec, verr := s.hits(ctx, r, deep)
	if verr != nil {
		hits, err := r.BM25(iq)
		return hits, MethodBM25, embedFailure(verr), err
	}
	if r.EmbeddingOnly {
		if iq.Sort == index.SortDate {
			sortByDate(vec)
		}
		vec = vec[:min(limit, len(vec))]
		if iq.Explain {
			for i := range vec {
				vec[i].Explanation = &index.Explanation{Score: vec[i].Score, Matches: []index.Match{},
					Fusion: &index.Fusion{VectorRank: i + 1, Similarity: vec[i].Score, Score: vec[i].Score}}
			}
		}
		return vec, MethodEmbedding, "", nil
	}
	bm, err := r.BM25(deep)
	if err != nil {
		return nil, "", "", err
	}
	fused := Fuse(len(bm)+len(vec), iq.Explain, bm, vec)
	if iq.Sort == index.SortDate {
		sortByDate(fused)
	}
	return fused[:min(limit, len(fused))], MethodHybrid, "", nil
}

// sortByDate orders hits newest first, undated last, ties by score then
// id, as the index's date sort does.
func sortByDate(hits []index.Hit) {
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.Time.IsZero() != b.Time.IsZero() {
			return !a.Time.IsZero()
		}
		if !a.Time.Equal(b.Time) {
			return a.Time.After(b.Time)
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.ID < b.ID
	})
}

// embedFailure is the fallback note for a failed embedder.
func embedFailure(err error) string {
	var me *model.Error
	if errors.As(err, &me) && me.Code == model.CodeUnavailable {
		return "embeddings provider unreachable: " + me.Message
	}
	return "embeddings failed: " + err.Error()
}

// NewEmbedder returns the configured embedder, or nil when none is.
func NewEmbedder(c config.Embeddings, getenv func(string) string) (model.Embedder, error) {
	if !c.Configured() {
		return nil, nil
	}
	emb, err := model.NewEmbedder(model.EmbedConfig{BaseURL: c.BaseURL, Model: c.Model, APIKeyEnv: c.APIKeyEnv,
		Timeout: time.Duration(c.TimeoutSeconds) * time.Second}, getenv, nil)
	if err != nil {
		return nil, errcode.Wrap(errcode.ModelConfig, err, "embeddings")
	}
	return emb, nil
}

// Doc is one trusted document as the embedder sees it.
type Doc struct {
	Hit  index.Hit
	Text string
}

// Docs lists the search documents the index holds with the text that is
// embedded (a trusted speaker's name before what they said), in id order.
// They are the index's documents, so pending content is never among them.
func Docs(docs map[string]index.Doc) []Doc {
	out := make([]Doc, 0, len(docs))
	for _, d := range docs {
		text := d.Text
		if d.Kind == index.KindSource && d.SpeakerTrusted && d.SpeakerDisplay != "" {
			text = d.SpeakerDisplay + ": " + text
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		out = append(out, Doc{Text: text, Hit: index.Hit{ID: d.ID, Kind: d.Kind, Path: d.Path, Anchor: d.Anchor,
			Ref: d.Ref, Time: d.Time, SpeakerID: d.SpeakerID, SpeakerDisplay: d.SpeakerDisplay,
			SpeakerLabel: d.SpeakerLabel, SpeakerTrusted: d.SpeakerTrusted}})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Hit.ID < out[j].Hit.ID })
	return out
}

// hits ranks the documents that iq admits by cosine similarity to the
// query, best first, at most iq.Limit.
func (s *Searcher) hits(ctx context.Context, r Request, iq index.Query) ([]index.Hit, error) {
	docs, vecs, err := s.docVectors(ctx, r)
	if err != nil {
		return nil, err
	}
	qv, err := embedWithRetry(ctx, r.Embedder, []string{iq.Text})
	if err != nil {
		return nil, err
	}
	query := normalize(qv[0])
	// Score every admitted document, then order indices, not hits: a hit
	// is a large value, and this runs over the whole workspace.
	type scored struct {
		i     int
		score float64
	}
	cand := make([]scored, 0, len(docs))
	for i, d := range docs {
		if len(vecs[i]) == len(query) && iq.Admits(d.Hit) {
			cand = append(cand, scored{i, dot(query, vecs[i])})
		}
	}
	slices.SortFunc(cand, func(a, b scored) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return cmp.Compare(docs[a.i].Hit.ID, docs[b.i].Hit.ID)
	})
	limit := iq.Limit
	hits := make([]index.Hit, 0, min(limit, len(cand)))
	for _, c := range cand[:min(limit, len(cand))] {
		h := docs[c.i].Hit
		h.Score = c.score
		hits = append(hits, h)
	}
	return hits, nil
}

// docVectors returns the documents and their vectors, from memory when
// neither the workspace nor the model changed since the last call.
func (s *Searcher) docVectors(ctx context.Context, r Request) ([]Doc, [][]float32, error) {
	key := r.Embedder.Name() + "\x00" + r.State
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key == key {
		return s.docs, s.vecs, nil
	}
	docs := r.Docs()
	texts := make([]string, len(docs))
	for i, d := range docs {
		texts[i] = d.Text
	}
	vecs, err := s.vectors(ctx, r, texts)
	if err != nil {
		return nil, nil, err
	}
	s.key, s.docs, s.vecs = key, docs, vecs
	return docs, vecs, nil
}

// embedWithRetry asks the embedder, trying a retryable failure again
// after a short, growing pause.
func embedWithRetry(ctx context.Context, emb model.Embedder, texts []string) ([][]float32, error) {
	var err error
	for attempt := 0; attempt < embedRetries; attempt++ {
		if attempt > 0 {
			pause := time.Duration(100<<(2*(attempt-1))) * time.Millisecond // 100 ms, 400 ms
			var me *model.Error
			if errors.As(err, &me) && me.RetryAfter > 0 && me.RetryAfter < 5*time.Second {
				pause = me.RetryAfter
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(pause):
			}
		}
		var out [][]float32
		out, err = emb.Embed(ctx, texts)
		if err == nil {
			if len(out) != len(texts) {
				return nil, fmt.Errorf("embeddings: %d vectors for %d texts", len(out), len(texts))
			}
			return out, nil
		}
		var me *model.Error
		if !errors.As(err, &me) || !me.Retryable {
			return nil, err
		}
	}
	return nil, err
}

// Fuse merges ranked lists by reciprocal rank fusion. Each hit keeps the
// fields of its first appearance; its score becomes the fused score, and
// with explain its explanation says where it ranked in each list.
func Fuse(limit int, explain bool, lists ...[]index.Hit) []index.Hit {
	type acc struct {
		hit   index.Hit
		score float64
		ranks []int
	}
	by := map[string]*acc{}
	var order []string
	for li, list := range lists {
		for rank, h := range list {
			a := by[h.ID]
			if a == nil {
				a = &acc{hit: h, ranks: make([]int, len(lists))}
				by[h.ID] = a
				order = append(order, h.ID)
			}
			if a.hit.Explanation == nil {
				a.hit.Explanation = h.Explanation
			}
			a.score += 1 / float64(rrfK+rank+1)
			a.ranks[li] = rank + 1
			if li == 1 {
				a.hit.Explanation = withSimilarity(a.hit.Explanation, h.Score, explain)
			}
		}
	}
	out := make([]index.Hit, 0, len(order))
	for _, id := range order {
		a := by[id]
		h := a.hit
		h.Score = a.score
		if explain {
			if h.Explanation == nil {
				h.Explanation = &index.Explanation{Matches: []index.Match{}}
			}
			f := &index.Fusion{K: rrfK, Score: a.score}
			if len(a.ranks) > 0 {
				f.BM25Rank = a.ranks[0]
			}
			if len(a.ranks) > 1 {
				f.VectorRank = a.ranks[1]
			}
			if h.Explanation.Fusion != nil {
				f.Similarity = h.Explanation.Fusion.Similarity
			}
			h.Explanation.Fusion = f
		}
		out = append(out, h)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out[:min(limit, len(out))]
}

// withSimilarity records a vector hit's cosine similarity for explain.
func withSimilarity(x *index.Explanation, sim float64, explain bool) *index.Explanation {
	if !explain {
		return x
	}
	if x == nil {
		x = &index.Explanation{Matches: []index.Match{}}
	} else {
		c := *x
		x = &c
	}
	x.Fusion = &index.Fusion{Similarity: sim}
	return x
}

func normalize(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	if n == 0 {
		return v
	}
	inv := 1 / math.Sqrt(n)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
