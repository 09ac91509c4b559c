package engine_test

import (
	"encoding/json"
	"hash/fnv"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode"
)

// fakeEmbedder is an OpenAI-compatible /v1/embeddings server on loopback
// with a deterministic embedding: character trigrams of each word (and
// single characters and pairs of CJK text) hashed into fakeDim signed
// buckets, L2-normalised. It knows no meaning, only spelling: it stands in
// for a real model in tests, and its recall figures say what the fusion
// machinery does, not what a semantic model would add. It records every
// text it is sent.
type fakeEmbedder struct {
	srv      *httptest.Server
	mu       sync.Mutex
	inputs   []string // every text received, in order
	requests int
	down     atomic.Bool  // answer 503 to everything
	failNext atomic.Int32 // answer 503 to this many requests, then work
}

const fakeDim = 512

func newFakeEmbedder(t testing.TB) *fakeEmbedder {
	t.Helper()
	f := &fakeEmbedder{}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// url is the base_url to configure.
func (f *fakeEmbedder) url() string { return f.srv.URL + "/v1" }

// config writes an [embeddings] section pointing at f into state's
// config.toml.
func (f *fakeEmbedder) config(t testing.TB, state string, batch int) {
	t.Helper()
	if err := os.MkdirAll(state, 0o755); err != nil {
		t.Fatal(err)
	}
	c := "[embeddings]\nbase_url = \"" + f.url() + "\"\nmodel = \"fake-trigram-512\"\n"
	if batch > 0 {
		c += "batch_size = " + strconv.Itoa(batch) + "\n"
	}
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte(c), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f *fakeEmbedder) received() (inputs []string, requests int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.inputs...), f.requests
}

func (f *fakeEmbedder) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.inputs = append(f.inputs, req.Input...)
	f.requests++
	f.mu.Unlock()
	if f.down.Load() || f.failNext.Add(-1) >= 0 {
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusServiceUnavailable)
		return
	}
	type item struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	out := struct {
		Data []item `json:"data"`
	}{}
	for i, s := range req.Input {
		out.Data = append(out.Data, item{Index: i, Embedding: fakeVector(s)})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// fakeVector is the deterministic embedding of s.
func fakeVector(s string) []float32 {
	v := make([]float64, fakeDim)
	add := func(feature string) {
		h := fnv.New64a()
		h.Write([]byte(feature))
		x := h.Sum64()
		sign := 1.0
		if x>>63 == 1 {
			sign = -1
		}
		v[x%fakeDim] += sign
	}
	var word []rune
	flush := func() {
		if len(word) == 0 {
			return
		}
		w := "#" + string(word) + "#"
		r := []rune(w)
		for i := 0; i+3 <= len(r); i++ {
			add(string(r[i : i+3]))
		}
		word = word[:0]
	}
	var prev rune
	for _, c := range strings.ToLower(s) {
		switch {
		case unicode.Is(unicode.Han, c):
			flush()
			add(string(c))
			if prev != 0 {
				add(string([]rune{prev, c}))
			}
			prev = c
			continue
		case unicode.IsLetter(c) || unicode.IsDigit(c):
			word = append(word, c)
		default:
			flush()
		}
		prev = 0
	}
	flush()
	var n float64
	for _, x := range v {
		n += x * x
	}
	out := make([]float32, fakeDim)
	if n == 0 {
		out[0] = 1
		return out
	}
	for i, x := range v {
		out[i] = float32(x / math.Sqrt(n))
	}
	return out
}
