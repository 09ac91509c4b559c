package forget_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"scriptorium/engine/enginetest"
	"strconv"
	"sync"
	"testing"
)

// wordEmbedder is an OpenAI-compatible /v1/embeddings server on loopback
// that embeds a text as its hashed words and records every text it gets.
type wordEmbedder struct {
	srv    *httptest.Server
	mu     sync.Mutex
	inputs []string
}

func newWordEmbedder(t *testing.T) *wordEmbedder {
	t.Helper()
	f := &wordEmbedder{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.inputs = append(f.inputs, req.Input...)
		f.mu.Unlock()
		enginetest.WriteHashEmbeddings(w, req.Input, 32)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// config points state's [embeddings] at f, batch texts a request.
func (f *wordEmbedder) config(t *testing.T, state string, batch int) {
	t.Helper()
	c := "[embeddings]\nbase_url = \"" + f.srv.URL + "/v1\"\nmodel = \"fake-words\"\nbatch_size = " + strconv.Itoa(batch) + "\n"
	if err := os.WriteFile(filepath.Join(state, "config.toml"), []byte(c), 0o600); err != nil {
		t.Fatal(err)
	}
}

// received returns every text embedded so far.
func (f *wordEmbedder) received() ([]string, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.inputs...), len(f.inputs)
}
