package engine

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"scriptorium/engine/depcache"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace/manifest"
)

// TestDepCache_FreshProcessesMatchFromScratch: random installs (topic
// creates, replaces, appends, deletions, moves, archive appends, some
// damaged, promotions, topics written behind the engine's back), each by
// a fresh engine (a fresh process: the dependency index's topics read
// from .scriptorium/runtime/deps.cache), the cache now and then cut short,
// flipped, replaced by an earlier step's (stale) or removed. After every
// step the install's outcome is a full validation's (accepted, or
// rejected with exactly the violations it introduces), and the views,
// the manifest and the search hits are those of a from-scratch build of a
// copy of the workspace. Pending records never reach the hits (the
// from-scratch build keeps them out; a copy with a hit of one fails).
func TestDepCache_FreshProcessesMatchFromScratch(t *testing.T) {
	steps := 40
	if testing.Short() {
		steps = 15
	}
	ctx := context.Background()
	for seed := range uint64(2) {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			state := t.TempDir()
			w := &incWorld{t: t, r: rand.New(rand.NewPCG(seed, 15))}
			open := func(dir string) *Engine {
				e, err := Open(ctx, Options{StateDir: dir})
				if err != nil {
					t.Fatal(err)
				}
				return e
			}
			w.engines = []*Engine{open(state)}
			var older []byte // an earlier step's deps.cache: stale now
			hits, installed := 0, 0
			for step := range steps {
				rt := w.engines[0].ws.RuntimeDir()
				w.engines[0].Close()
				cache := filepath.Join(rt, depcache.Name)
				if data, err := os.ReadFile(cache); err == nil {
					hits++
					if older == nil || w.r.IntN(4) == 0 {
						older = data
					}
					damageDepCache(t, w.r, cache, data, older)
				}
				editDerived(t, w.r, filepath.Dir(filepath.Dir(rt)))
				e := open(state)
				w.engines[0] = e
				_, ch, ok := w.change()
				if !ok {
					continue
				}
				want := fullValidation(t, e, ch)
				rev, _ := e.ws.Revision()
				_, err := e.install(ctx, ch)
				switch {
				case len(want) == 0 && err != nil:
					t.Fatalf("step %d: %v; a full validation finds nothing introduced", step, err)
				case len(want) > 0 && (err == nil || !reflect.DeepEqual(errcode.As(err).Violations, want)):
					t.Fatalf("step %d: install gave %v\nwant violations (full validation) %v", step, err, want)
				case err == nil:
					installed++
				}
				if now, _ := e.ws.Revision(); now != rev {
					w.check(e, step) // a rejected install renders nothing: a hand edit stays
				}
				e.Close() // the ledger is copied whole
				compareFromScratch(t, state, step)
				w.engines[0] = open(state)
			}
			w.engines[0].Close()
			if hits == 0 || installed == 0 {
				t.Fatalf("deps.cache read by %d steps, %d installs: the test tests nothing", hits, installed)
			}
		})
	}
}

// editDerived edits a derived view behind the engines' backs one time in
// three, to bytes of another size or of the same size: a fresh process
// that remembers nothing must rewrite it at its next render, whether or
// not it reads it back first (workspace/mirror).
func editDerived(t *testing.T, r *rand.Rand, root string) {
	if r.IntN(3) != 0 {
		return
	}
	p := filepath.Join(root, []string{"relations.json", "recent_events.jsonl"}[r.IntN(2)])
	data, err := os.ReadFile(p)
	if err != nil || len(data) == 0 {
		return
	}
	if r.IntN(2) == 0 {
		data = append(data, '\n')
	} else {
		data[r.IntN(len(data))] ^= 0x20
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// damageDepCache leaves the cache as it is two times in three, else cuts
// it short, flips a byte, puts an earlier step's back or removes it.
func damageDepCache(t *testing.T, r *rand.Rand, path string, data, older []byte) {
	var err error
	switch r.IntN(9) {
	case 0:
		err = os.WriteFile(path, data[:r.IntN(len(data))], 0o600)
	case 1:
		bad := slices.Clone(data)
		bad[r.IntN(len(bad))] ^= byte(1 + r.IntN(255))
		err = os.WriteFile(path, bad, 0o600)
	case 2:
		err = os.WriteFile(path, older, 0o600)
	case 3:
		err = os.Remove(path)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// fullValidation is what installing ch must report: the edits refused on
// their own and the violations a full validation of the workspace, read
// from scratch, finds after and not before.
func fullValidation(t *testing.T, e *Engine, ch Change) []errcode.Violation {
	promoted, err := e.rec.Promoted(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	before, err := loadSnapshot(e.ws.Root(), promoted, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := e.planAll(before, ch)
	if err != nil {
		t.Fatal(err)
	}
	return append(plan.bad, introduced(before.violations(), before.with(plan).violations())...)
}

// compareFromScratch copies the workspace's files and ledger (not its
// index, manifest or runtime caches) and checks that a fresh build of the
// copy finds the same search hits and writes the same manifest entries.
func compareFromScratch(t *testing.T, state string, step int) {
	ctx := context.Background()
	ours, err := Open(ctx, Options{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	defer ours.Close()
	root := ours.ws.Root()
	other := t.TempDir()
	dst := filepath.Join(other, filepath.Base(root))
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if s := filepath.ToSlash(rel); strings.HasPrefix(s, ".scriptorium/index") || strings.HasPrefix(s, ".scriptorium/runtime") ||
			s == ".scriptorium/manifest.jsonl" || strings.HasSuffix(s, ".lock") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	scratch, err := Open(ctx, Options{StateDir: other})
	if err != nil {
		t.Fatal(err)
	}
	defer scratch.Close()
	for _, q := range []string{"block", "message", "stranger", "topics"} {
		got, want := searchHits(t, ours, q), searchHits(t, scratch, q)
		if !slices.Equal(got, want) {
			t.Fatalf("step %d: search %q: %v\nwant (from scratch) %v", step, q, got, want)
		}
		for _, h := range got {
			if strings.Contains(h, "Stranger") {
				t.Fatalf("step %d: a pending record is a hit: %s", step, h)
			}
		}
	}
	// Both manifests as a reading verb leaves them (reconciled with the
	// files: a rejected install after a topic written behind the engine's
	// back left ours stale), the copy's built from scratch.
	for _, x := range []*Engine{ours, scratch} {
		if _, _, err := x.readPartial(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got, want := manifestEntries(manifest.Path(root)), manifestEntries(manifest.Path(scratch.ws.Root()))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("step %d: manifest\n%v\nwant (from scratch)\n%v", step, got, want)
	}
}

// searchHits are the hits of q, each kind, path, anchor, ref and snippet, sorted.
func searchHits(t *testing.T, e *Engine, q string) []string {
	res, err := e.Search(context.Background(), result.SearchQuery{Text: q, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res {
		out = append(out, strings.Join([]string{r.Kind, r.Path, r.Anchor, r.Ref, r.Snippet}, " | "))
	}
	slices.Sort(out)
	return out
}

// manifestEntries are a manifest's entries without their signatures and
// hashes (a copy's files have other inodes and times), by path.
func manifestEntries(path string) map[string]manifest.Entry {
	m := manifest.Read(path)
	out := map[string]manifest.Entry{}
	for _, p := range m.Paths() {
		ent := *m.Get(p)
		ent.Sig, ent.SHA256 = manifest.Sig{}, ""
		out[p] = ent
	}
	return out
}
