package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/engine/vectors"
	"scriptorium/errcode"
)

// TestEmbeddings_DamagedCache is the corruption matrix of the vector
// cache, .scriptorium/embeddings.db: emptied, truncated to half, zeroed,
// scribbled over, replaced by garbage and by a directory. A hybrid search
// afterwards must answer (re-embedding what it cannot read) or fail with a
// clear IO error naming the cache, never panic, never return a pending
// text, and a second search must answer.
func TestEmbeddings_DamagedCache(t *testing.T) {
	damages := []struct {
		name string
		fn   func(t *testing.T, p string)
	}{
		{"emptied", func(t *testing.T, p string) { rewrite(t, p, func([]byte) []byte { return nil }) }},
		{"truncated to half", func(t *testing.T, p string) { rewrite(t, p, func(d []byte) []byte { return d[:len(d)/2] }) }},
		{"zeroed", func(t *testing.T, p string) { rewrite(t, p, func(d []byte) []byte { return make([]byte, len(d)) }) }},
		{"scribbled", func(t *testing.T, p string) {
			rewrite(t, p, func(d []byte) []byte {
				d = slices.Clone(d)
				for _, at := range []int{len(d) / 10, len(d) / 4, len(d) / 2, len(d) * 3 / 4} {
					for i := at; i < min(at+64, len(d)); i++ {
						d[i] ^= 0x5a
					}
				}
				return d
			})
		}},
		{"garbage", func(t *testing.T, p string) {
			rewrite(t, p, func([]byte) []byte { return []byte(strings.Repeat("not a bolt file\x00\xff", 512)) })
		}},
		{"a directory", func(t *testing.T, p string) {
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, d := range damages {
		t.Run(d.name, func(t *testing.T) {
			ctx := context.Background()
			e, f, canaries := embedState(t, 4)
			if _, err := e.Search(ctx, result.SearchQuery{Text: "quokka budget"}); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(e.Root(), ".scriptorium", "embeddings.db")
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("the search kept no vector cache: %v", err)
			}
			e.Close()
			d.fn(t, p)
			for round := 0; round < 2; round++ {
				e2 := ftOpen(t, e.StateDir())
				rep, err := searchNoPanic(t, e2, result.SearchQuery{Text: "quokka budget", Method: vectors.MethodHybrid})
				switch {
				case err == nil:
					noCanary(t, f, canaries, rep.Results)
					t.Logf("round %d: method %s, fallback %q, %d results", round, rep.Method, rep.Fallback, len(rep.Results))
					// A damaged file is a cache to start afresh: the search
					// stays hybrid. Only what cannot be replaced (a
					// directory in its place) falls back to BM25, saying why.
					if rep.Method != vectors.MethodHybrid && (d.name != "a directory" || !strings.Contains(rep.Fallback, "vector cache")) {
						t.Errorf("round %d: method %s, fallback %q", round, rep.Method, rep.Fallback)
					}
				case ftCode(err) == errcode.IO && strings.Contains(err.Error(), "vector cache"):
					if round == 1 {
						t.Errorf("the damage stays: the second search failed too: %v", err)
					}
				default:
					t.Fatalf("round %d: %v (want results, or an IO error naming the vector cache)", round, err)
				}
				e2.Close()
			}
		})
	}
}

func rewrite(t *testing.T, p string, fn func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, fn(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// searchNoPanic runs a search, turning a panic into a test failure that
// names it.
func searchNoPanic(t *testing.T, e *engine.Engine, q result.SearchQuery) (rep engine.SearchReport, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("search panicked on a damaged vector cache: %v", r)
		}
	}()
	return e.SearchReport(context.Background(), q)
}
