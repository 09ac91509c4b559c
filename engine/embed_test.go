package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/result"
	"scriptorium/engine/review"
	"scriptorium/engine/vectors"
	"scriptorium/errcode"
)

// The embeddings tests run against fakeEmbedder (embed_fake_test.go), an
// OpenAI-compatible server on loopback that records every text it gets.

// embedState is the trust fixture (pending sources and pending blocks
// among trusted ones) with [embeddings] pointing at a fake.
func embedState(t *testing.T, batch int) (*engine.Engine, *fakeEmbedder, []string) {
	t.Helper()
	state := seState(t, "trust")
	f := newFakeEmbedder(t)
	f.config(t, state, batch)
	e := ftOpen(t, state)
	// Canaries: the text of every pending source and pending block.
	var canaries []string
	pending, err := review.Pending(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pending {
		canaries = append(canaries, strings.TrimSpace(p.Content))
	}
	raw, err := os.ReadFile(filepath.Join(state, "memory", "topics", "family.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		for _, id := range []string{"^a1000002", "^a1000003", "^a1000005"} {
			if strings.HasSuffix(l, id) {
				text, _, _ := strings.Cut(l, "[^")
				canaries = append(canaries, text)
			}
		}
	}
	if len(canaries) < 4 {
		t.Fatalf("canaries %q: the fixture lost its pending content", canaries)
	}
	return e, f, canaries
}

// noCanary fails if any pending text reached the embedder or a result.
func noCanary(t *testing.T, f *fakeEmbedder, canaries []string, res []result.SearchResult) {
	t.Helper()
	inputs, _ := f.received()
	for _, in := range inputs {
		for _, c := range canaries {
			if c != "" && strings.Contains(in, c) {
				t.Errorf("pending text %q was sent to the embedder in %q", c, in)
			}
		}
	}
	for _, r := range res {
		for _, c := range canaries {
			if strings.Contains(r.Snippet, c) {
				t.Errorf("pending text %q in result %s", c, r.Ref)
			}
		}
	}
}

func TestEmbeddings_HybridIsTheDefaultAndPendingNeverLeaves(t *testing.T) {
	ctx := context.Background()
	e, f, canaries := embedState(t, 2)
	for _, q := range []result.SearchQuery{
		{Text: "zebrafish vault passphrase"},
		{Text: "quokka budget"},
		{Text: "quokka", Method: vectors.MethodEmbedding},
		{Text: "secret midnight", Method: vectors.MethodHybrid, Explain: true},
	} {
		rep, err := e.SearchReport(ctx, q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		want := q.Method
		if want == "" {
			want = vectors.MethodHybrid
		}
		if rep.Method != want || rep.Fallback != "" {
			t.Errorf("%q: method %q fallback %q, want %q", q.Text, rep.Method, rep.Fallback, want)
		}
		noCanary(t, f, canaries, rep.Results)
		if q.Explain {
			for _, r := range rep.Results {
				if r.Explanation == nil || r.Explanation.Fusion == nil || r.Explanation.Fusion.K == 0 {
					t.Errorf("%s: no fusion explanation: %+v", r.Ref, r.Explanation)
				}
			}
		}
	}
	// Documents went in batches of two; the cache keeps them, so a new
	// question sends only itself.
	inputs, requests := f.received()
	if requests < 3 || len(inputs) < 4 {
		t.Fatalf("%d requests with %d texts: the documents were not embedded", requests, len(inputs))
	}
	if _, err := e.Search(ctx, result.SearchQuery{Text: "harbour trip"}); err != nil {
		t.Fatal(err)
	}
	after, _ := f.received()
	if got := after[len(inputs):]; len(got) != 1 || got[0] != "harbour trip" {
		t.Errorf("a search with a warm cache sent %q, want only the question", got)
	}
	// A second engine (another process) reads the same cache.
	e.Close()
	e2 := ftOpen(t, e.StateDir())
	if _, err := e2.Search(ctx, result.SearchQuery{Text: "rottnest"}); err != nil {
		t.Fatal(err)
	}
	if again, _ := f.received(); len(again) != len(after)+1 {
		t.Errorf("a new engine re-embedded %d texts", len(again)-len(after)-1)
	}
}

func TestEmbeddings_ProviderDownFallsBackToBM25(t *testing.T) {
	ctx := context.Background()
	e, f, canaries := embedState(t, 0)
	bm, err := e.SearchReport(ctx, result.SearchQuery{Text: "quokka budget", Method: vectors.MethodBM25})
	if err != nil || bm.Method != vectors.MethodBM25 || bm.Fallback != "" {
		t.Fatalf("bm25: %+v %v", bm, err)
	}
	f.down.Store(true)
	for _, m := range []string{"", vectors.MethodHybrid, vectors.MethodEmbedding} {
		rep, err := e.SearchReport(ctx, result.SearchQuery{Text: "quokka budget", Method: m})
		if err != nil {
			t.Fatalf("%q: %v", m, err)
		}
		if rep.Method != vectors.MethodBM25 || !strings.HasPrefix(rep.Fallback, "embeddings provider unreachable: ") {
			t.Errorf("%q: method %q fallback %q", m, rep.Method, rep.Fallback)
		}
		if len(rep.Results) != len(bm.Results) || (len(bm.Results) > 0 && rep.Results[0].Ref != bm.Results[0].Ref) {
			t.Errorf("%q: fallback results %v, BM25 gave %v", m, seRefs(rep.Results), seRefs(bm.Results))
		}
		noCanary(t, f, canaries, rep.Results)
	}
	// Retried: two failures, then an answer.
	f.down.Store(false)
	f.failNext.Store(2)
	rep, err := e.SearchReport(ctx, result.SearchQuery{Text: "quokka budget"})
	if err != nil || rep.Method != vectors.MethodHybrid || rep.Fallback != "" {
		t.Errorf("after two 503s: %+v %v", rep, err)
	}
}

func TestEmbeddings_Refusals(t *testing.T) {
	ctx := context.Background()
	e := enginetest.Open(t, seState(t, "trust"))
	for _, m := range []string{vectors.MethodHybrid, vectors.MethodEmbedding} {
		_, err := e.Search(ctx, result.SearchQuery{Text: "quokka", Method: m})
		if enginetest.Code(err) != errcode.NotConfigured {
			t.Errorf("%s without [embeddings]: %v, want NOT_CONFIGURED", m, err)
		}
	}
	rep, err := e.SearchReport(ctx, result.SearchQuery{Text: "quokka"})
	if err != nil || rep.Method != vectors.MethodBM25 {
		t.Errorf("default without [embeddings]: %+v %v, want bm25", rep, err)
	}
	e2, _, _ := embedState(t, 0)
	_, err = e2.Search(ctx, result.SearchQuery{Text: "quokka", Method: vectors.MethodEmbedding, Speaker: "u1"})
	if enginetest.Code(err) != errcode.InvalidArgument {
		t.Errorf("embedding with a speaker: %v, want INVALID_ARGUMENT", err)
	}
	if _, err := e2.Search(ctx, result.SearchQuery{Text: "quokka", Method: vectors.MethodHybrid, Speaker: "u1"}); err != nil {
		t.Errorf("hybrid with a speaker: %v", err)
	}
}

func TestEmbeddings_Config(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		toml string
		ok   bool
	}{
		{"[embeddings]\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"nomic-embed-text\"\n", true},
		{"[embeddings]\nbase_url = \"http://127.0.0.1:11434/v1\"\nmodel = \"m\"\napi_key_env = \"K\"\nbatch_size = 16\ntimeout_seconds = 5\n", true},
		{"[embeddings]\nmodel = \"nomic-embed-text\"\n", false},
		{"[embeddings]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\nbatch_size = 5000\n", false},
		{"[embeddings]\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\ndimensions = 3\n", false},
	} {
		p := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(p, []byte(tc.toml), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(p)
		if (err == nil) != tc.ok {
			t.Errorf("%q: %v, want ok=%v", tc.toml, err, tc.ok)
		}
		if err == nil && (!cfg.Embeddings.Configured() || cfg.Embeddings.BatchSize < 1) {
			t.Errorf("%q: %+v", tc.toml, cfg.Embeddings)
		}
	}
	if config.Default().Embeddings.Configured() {
		t.Error("embeddings configured by default")
	}
}
