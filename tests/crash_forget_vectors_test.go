package tests

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withVectors points base's embeddings at a loopback fake, runs a hybrid
// search so that embeddings.db holds a vector of every remembered text,
// and returns the keys (SHA-256 of the text embedded) of those that hold
// needle: what a forget of needle must leave nowhere (issue 24 §8).
func withVectors(t *testing.T, base, needle string) [][]byte {
	t.Helper()
	fakes := newCanaryFakes(t)
	cfg := filepath.Join(base, "config.toml")
	old, _ := os.ReadFile(cfg)
	add := "\n[embeddings]\nbase_url = \"" + fakes.embed.URL + "/v1\"\nmodel = \"fake-embed\"\n"
	if err := os.WriteFile(cfg, append(old, add...), 0o600); err != nil {
		t.Fatal(err)
	}
	mustCLI(t, "search", "note", "--method", "hybrid", "--state", base)
	fakes.mu.Lock()
	defer fakes.mu.Unlock()
	var keys [][]byte
	for _, body := range fakes.embedBodies {
		var req struct {
			Input []string `json:"input"`
		}
		_ = json.Unmarshal([]byte(body), &req)
		for _, in := range req.Input {
			if strings.Contains(in, needle) {
				sum := sha256.Sum256([]byte(in))
				keys = append(keys, sum[:])
			}
		}
	}
	if len(keys) == 0 || vectorKeysIn(t, base, keys) != len(keys) {
		t.Fatalf("the fixture: no vector of %q in embeddings.db", needle)
	}
	return keys
}

// vectorKeysIn counts the keys found anywhere in the bytes of state's
// embeddings.db (a bucket or a free page).
func vectorKeysIn(t *testing.T, state string, keys [][]byte) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(state, "memory", ".scriptorium", "embeddings.db"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, k := range keys {
		if bytes.Contains(raw, k) {
			n++
		}
	}
	return n
}
