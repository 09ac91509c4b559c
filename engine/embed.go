package engine

import (
	"context"

	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/engine/vectors"
	"scriptorium/workspace"
)

// Embeddings (config.toml [embeddings]) add a vector ranking that is fused
// with BM25 (engine/vectors). The core hands it the documents the index
// holds: trusted ones only, so pending content never reaches an embedder.

// Explanation is how a search result got its score (SearchQuery.Explain).
type Explanation = index.Explanation

// Search methods.
const (
	MethodBM25      = vectors.MethodBM25
	MethodHybrid    = vectors.MethodHybrid
	MethodEmbedding = vectors.MethodEmbedding
)

// SearchReport is a search's results and how they were ranked.
type SearchReport struct {
	Results []result.SearchResult `json:"results"`
	// Method is what ranked the results: "bm25", "hybrid" or "embedding".
	Method string `json:"method"`
	// Fallback says why the method asked for (or configured) was not
	// used, when search fell back to BM25: the provider was unreachable.
	Fallback string `json:"fallback,omitempty"`
}

// SetEmbedProgress sets what is told how far the embedding of documents
// has got (done of total texts) while a search fills the vector cache; the
// CLI draws it on a terminal's stderr. nil turns it off.
func (e *Engine) SetEmbedProgress(f func(done, total int)) { e.emb.SetProgress(f) }

// searchVectors runs a hybrid or embedding search over s. When the
// embedder fails, the answer is BM25's, with the method saying so and
// fallback saying why; only a configuration that cannot work at all is an
// error.
func (e *Engine) searchVectors(ctx context.Context, s *snapshot, iq index.Query, method string) (hits []index.Hit, used, fallback string, err error) {
	emb, err := vectors.NewEmbedder(e.cfg.Embeddings, e.opts.Getenv)
	if err != nil {
		return nil, "", "", err
	}
	return e.emb.Search(ctx, vectors.Request{
		Embedder: emb, CachePath: workspace.MetaPath(e.ws.Root(), workspace.EmbeddingsName),
		BatchSize: e.cfg.Embeddings.BatchSize, State: s.fingerprint(e.ws.Root()),
		Docs:  func() []vectors.Doc { return vectors.Docs(s.docsOf()) },
		BM25:  func(q index.Query) ([]index.Hit, error) { return e.searchIndex(s, q) },
		Query: iq, EmbeddingOnly: method == MethodEmbedding,
	})
}

// methodFor resolves the method of a query: the default is hybrid when
// embeddings are configured, BM25 otherwise.
func (e *Engine) methodFor(q result.SearchQuery) (string, error) {
	m := q.Method
	configured := e.cfg.Embeddings.Configured()
	switch m {
	case "":
		if configured {
			return MethodHybrid, nil
		}
		return MethodBM25, nil
	case MethodBM25:
		return m, nil
	case MethodHybrid, MethodEmbedding:
		if !configured {
			return "", Errorf(CodeNotConfigured, "method=%s needs an embedder: add an [embeddings] section to config.toml", m)
		}
		return m, nil
	}
	return "", Errorf(CodeInvalidArgument, "unknown method %q (want bm25, hybrid or embedding)", m)
}
