package forget_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"scriptorium/engine/forget"
	"scriptorium/engine/result"
	"scriptorium/engine/vectors"
)

// canaryVectorKeys lists the embeddings.db keys (SHA-256 of the text
// embedded) of every text the embedder received that holds the canary.
func canaryVectorKeys(t *testing.T, f *wordEmbedder) [][]byte {
	t.Helper()
	inputs, _ := f.received()
	var keys [][]byte
	for _, in := range inputs {
		if strings.Contains(in, forgetCanary) {
			sum := sha256.Sum256([]byte(in))
			keys = append(keys, sum[:])
		}
	}
	if len(keys) == 0 {
		t.Fatalf("no text with the canary was embedded: %q", inputs)
	}
	return keys
}

// vectorFileHolds reports which keys are a key of any bucket of the
// state's embeddings.db, or anywhere in its bytes (a free page).
func vectorFileHolds(t *testing.T, state string, keys [][]byte) (inBucket, inBytes int) {
	t.Helper()
	p := filepath.Join(state, "memory", ".scriptorium", "embeddings.db")
	raw, _ := os.ReadFile(p)
	for _, k := range keys {
		if bytes.Contains(raw, k) {
			inBytes++
		}
	}
	db, err := bolt.Open(p, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_ = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(_ []byte, b *bolt.Bucket) error {
			for _, k := range keys {
				if b.Get(k) != nil {
					inBucket++
				}
			}
			return nil
		})
	})
	return inBucket, inBytes
}

// TestForget_ScrubsVectors: a forgotten text's vector, keyed by the
// SHA-256 of the text, is named by the preview and gone from
// embeddings.db after the forget, from its buckets and from its bytes
// (issue 24 §8). Other vectors stay: the next search embeds only the
// question.
func TestForget_ScrubsVectors(t *testing.T) {
	ctx := context.Background()
	e, state := forgetSetup(t)
	e.Close()
	f := newWordEmbedder(t)
	f.config(t, state, 4)
	e = ftOpen(t, state)
	if _, err := e.SearchReport(ctx, result.SearchQuery{Text: "locker code", Method: vectors.MethodHybrid}); err != nil {
		t.Fatal(err)
	}
	keys := canaryVectorKeys(t, f)
	if in, _ := vectorFileHolds(t, state, keys); in != len(keys) {
		t.Fatalf("the fixture: %d of %d canary vectors cached", in, len(keys))
	}

	sel := result.ForgetSelector{Speaker: "u456"}
	prev, err := forget.Run(ctx, e, sel, true)
	if err != nil {
		t.Fatal(err)
	}
	if prev.Vectors < len(keys) {
		t.Errorf("the preview counts %d vectors, want at least %d", prev.Vectors, len(keys))
	}
	named := false
	for _, c := range prev.Changes {
		named = named || (c.Kind == "embeddings" && c.Path == ".scriptorium/embeddings.db")
	}
	if !named {
		t.Errorf("the preview does not name embeddings.db: %+v", prev.Changes)
	}
	if in, _ := vectorFileHolds(t, state, keys); in != len(keys) {
		t.Fatalf("the dry run changed embeddings.db")
	}

	if _, err := forget.Run(ctx, e, sel, false); err != nil {
		t.Fatal(err)
	}
	if in, raw := vectorFileHolds(t, state, keys); in+raw > 0 {
		t.Errorf("after the forget embeddings.db holds %d canary keys in buckets, %d in its bytes", in, raw)
	}
	before, _ := f.received()
	if _, err := e.SearchReport(ctx, result.SearchQuery{Text: "harbour walk", Method: vectors.MethodHybrid}); err != nil {
		t.Fatal(err)
	}
	// Only the question and texts the forget changed are new to the
	// embedder; a remembered text's vector was kept.
	seen := map[string]bool{}
	for _, in := range before {
		seen[in] = true
	}
	after, _ := f.received()
	for _, in := range after[len(before):] {
		if seen[in] {
			t.Errorf("the scrub dropped the vector of a remembered text: %q re-embedded", in)
		}
	}
}

// TestForget_DamagedVectorCache: a vector cache bbolt cannot read may
// still hold keys in its bytes; the forget removes it and succeeds.
func TestForget_DamagedVectorCache(t *testing.T) {
	ctx := context.Background()
	e, state := forgetSetup(t)
	p := filepath.Join(state, "memory", ".scriptorium", "embeddings.db")
	sum := sha256.Sum256([]byte("My gym locker code is " + forgetCanary))
	if err := os.WriteFile(p, append([]byte("not a bbolt file "), sum[:]...), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Speaker: "u456"}, true); err != nil {
		t.Fatalf("preview over a damaged cache: %v", err)
	}
	if _, err := forget.Run(ctx, e, result.ForgetSelector{Speaker: "u456"}, false); err != nil {
		t.Fatalf("forget over a damaged cache: %v", err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("the damaged cache is still there: %v", err)
	}
}
