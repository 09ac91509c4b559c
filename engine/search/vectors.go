package search

import (
	"context"
	"crypto/sha256"

	"scriptorium/engine"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/engine/vectors"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// Embeddings (config.toml [embeddings]) add a vector ranking that is fused
// with BM25 (engine/vectors). It is handed the documents the index holds:
// trusted ones only, so pending content never reaches an embedder.

// searchVectors runs a hybrid or embedding search over c. When the
// embedder fails, the answer is BM25's, with the method saying so and
// fallback saying why; only a configuration that cannot work at all is an
// error.
func (st *state) searchVectors(ctx context.Context, e *engine.Engine, c engine.Corpus, iq index.Query, method string) (hits []index.Hit, used, fallback string, err error) {
	cfg := e.Config().Embeddings
	emb, err := vectors.NewEmbedder(cfg, e.Options().Getenv)
	if err != nil {
		return nil, "", "", err
	}
	return st.emb.Search(ctx, vectors.Request{
		Embedder: emb, CachePath: workspace.MetaPath(e.Root(), workspace.EmbeddingsName),
		BatchSize: cfg.BatchSize, State: c.Fingerprint(),
		Docs: func() []vectors.Doc { return vectors.Docs(DocMap(c)) },
		BM25: func(q index.Query) ([]index.Hit, error) {
			return st.searchIndex(context.Background(), e, c, q)
		},
		Query: iq, EmbeddingOnly: method == vectors.MethodEmbedding,
	})
}

// methodFor resolves the method of a query: the default is hybrid when
// embeddings are configured, BM25 otherwise.
func methodFor(e *engine.Engine, q result.SearchQuery) (string, error) {
	m := q.Method
	configured := e.Config().Embeddings.Configured()
	switch m {
	case "":
		if configured {
			return vectors.MethodHybrid, nil
		}
		return vectors.MethodBM25, nil
	case vectors.MethodBM25:
		return m, nil
	case vectors.MethodHybrid, vectors.MethodEmbedding:
		if !configured {
			return "", errcode.Errorf(errcode.NotConfigured, "method=%s needs an embedder: add an [embeddings] section to config.toml", m)
		}
		return m, nil
	}
	return "", errcode.Errorf(errcode.InvalidArgument, "unknown method %q (want bm25, hybrid or embedding)", m)
}

// VectorKeys is the set of vector cache keys (the SHA-256 of each text
// embedded) of every document c embeds: what a forget keeps of the cache.
func VectorKeys(c engine.Corpus) map[string]bool {
	out := map[string]bool{}
	for _, d := range vectors.Docs(DocMap(c)) {
		sum := sha256.Sum256([]byte(d.Text))
		out[string(sum[:])] = true
	}
	return out
}
