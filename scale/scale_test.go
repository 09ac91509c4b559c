package scale_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/scale"
)

// digest hashes every file under dir (relative path, size, bytes) in
// lexical order.
func digest(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s\n%d\n", rel, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func generate(t *testing.T, n int, seed uint64) (string, scale.Manifest) {
	t.Helper()
	mem := filepath.Join(t.TempDir(), "state", "memory")
	m, err := scale.Workspace(mem, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return mem, m
}

func TestWorkspace_Deterministic(t *testing.T) {
	a, ma := generate(t, 500, 3)
	b, mb := generate(t, 500, 3)
	c, _ := generate(t, 500, 4)
	if da, db := digest(t, a), digest(t, b); da != db {
		t.Fatalf("same seed, different bytes: %s vs %s", da, db)
	}
	if fmt.Sprint(ma) != fmt.Sprint(mb) {
		t.Fatal("same seed, different manifests")
	}
	if digest(t, a) == digest(t, c) {
		t.Fatal("another seed gave the same bytes")
	}
}

// TestWorkspace_Pinned pins the bytes of the benchmarks' seed: the
// benchmark caches and the figures in BENCHMARKS.md are keyed by
// scale.Version, so a change here must bump it (and update the digest).
func TestWorkspace_Pinned(t *testing.T) {
	mem, m := generate(t, 1000, scale.DefaultSeed)
	const want = "2c95a8f97c62da21e7ae774cb304f140a8a399ed097e81dbb8619a339bb74ab3"
	if got := digest(t, mem); got != want || scale.Version != 1 {
		t.Fatalf("generator output changed (digest %s, Version %d): bump scale.Version and update this test", got, scale.Version)
	}
	if m.Records != 1000 || m.Threads != 20 || m.TopicFiles != 11 || m.Blocks != 180 || len(m.Queries) != 200 ||
		len(m.Cites) != 20 || len(m.EditTopics) != 5 || m.Filter.Speaker == "" {
		t.Fatalf("manifest: %+v", m)
	}
}

// TestWorkspace_Verifies opens a generated workspace as the CLI does: it
// must verify with zero violations and index every trusted record.
func TestWorkspace_Verifies(t *testing.T) {
	mem, m := generate(t, 1000, scale.DefaultSeed)
	ctx := context.Background()
	e, err := engine.Open(ctx, engine.Options{StateDir: filepath.Dir(mem)})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rep, err := e.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || len(rep.Violations) > 0 {
		t.Fatalf("%d violations, first: %+v", len(rep.Violations), rep.Violations[:min(3, len(rep.Violations))])
	}
	res, err := e.Search(ctx, result.SearchQuery{Text: m.Queries[1]})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) == 0 {
		t.Fatalf("no results for %q", m.Queries[1])
	}
}

func TestHistory(t *testing.T) {
	a := scale.History(27, 600, scale.HistorySeed)
	if a != scale.History(27, 600, scale.HistorySeed) {
		t.Fatal("History is not deterministic")
	}
	if n := strings.Count(a, "\n"); n != 600 {
		t.Fatalf("got %d turns, want 600", n)
	}
	// Pinned like the workspace: the writer benchmarks' figures rest on it.
	const want = "f6e51efc1b64b695ac66915fd1b1069a2f66ee7e8cc19b169f1a96a17ae95be1"
	if sum := sha256.Sum256([]byte(a)); hex.EncodeToString(sum[:]) != want {
		t.Fatalf("history changed: bump scale.Version and update this test")
	}
	var b strings.Builder
	if err := scale.WriteHistory(&b, 27, 600, scale.HistorySeed); err != nil || b.String() != a {
		t.Fatalf("WriteHistory differs from History (err %v)", err)
	}
	if err := scale.WriteHistory(&b, 10, 5, 1); err == nil {
		t.Fatal("fewer turns than sessions: want an error")
	}
}
