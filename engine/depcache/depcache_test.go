package depcache

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"scriptorium/engine/deps"
	"scriptorium/workspace/topic"
)

type file struct {
	path string
	data []byte
	f    *topic.File
}

// topicFile draws a topic file of a few blocks citing records of three
// archives, with an undefined footnote and a link now and then.
func topicFile(r *rand.Rand, i int) file {
	var b strings.Builder
	b.WriteString("# T\n\n")
	n := r.IntN(6)
	for j := range n {
		ref := fmt.Sprintf("[^e-%d-%d]", i, j)
		if r.IntN(5) == 0 {
			ref = "[^missing]"
		}
		fmt.Fprintf(&b, "Fact %d of %d, see [x](../b%d.md).%s ^%04x%04x\n\n", j, i, r.IntN(3), ref, i, j)
	}
	for j := range n {
		fmt.Fprintf(&b, "[^e-%d-%d]: Time: `2024-05-27`; Sources: [p/t/m%d](../../sources/p/_v2/t%d.md#source-%08x)\n", i, j, j, r.IntN(3), r.IntN(1000))
	}
	p := fmt.Sprintf("topics/d%d/t%d.md", i%4, i)
	f, _ := topic.Parse([]byte(b.String()))
	return file{path: p, data: []byte(b.String()), f: f}
}

func files(seed uint64, n int) []file {
	r := rand.New(rand.NewPCG(seed, 26))
	out := make([]file, n)
	for i := range out {
		out[i] = topicFile(r, i)
	}
	return out
}

// sync is what the engine's first sync does: every file through Of, then
// Finish.
func sync(dir string, fs []file) (*Store, []*deps.Topic) {
	s := Load(dir)
	var out []*deps.Topic
	for _, f := range fs {
		out = append(out, s.Of(f.path, f.data, f.f, f.f.Definitions))
	}
	s.Finish()
	return s, out
}

func check(t *testing.T, what string, fs []file, got []*deps.Topic) {
	t.Helper()
	for i, f := range fs {
		if want := deps.OfTopic(f.path, f.f, f.f.Definitions()); !reflect.DeepEqual(got[i], want) {
			t.Fatalf("%s: %s: %+v, want %+v", what, f.path, got[i], want)
		}
	}
}

// TestStore_SavedAndReadBack: a first sync computes every file and saves
// them; the next reads every one back (no computation), each exactly
// deps.OfTopic's, nil and empty slices alike.
func TestStore_SavedAndReadBack(t *testing.T) {
	dir := t.TempDir()
	fs := files(1, 60)
	s, got := sync(dir, fs)
	check(t, "first", fs, got)
	if s.misses != len(fs) {
		t.Fatalf("first sync: %d computed, want %d", s.misses, len(fs))
	}
	if _, err := os.Stat(filepath.Join(dir, Name)); err != nil {
		t.Fatal("nothing saved:", err)
	}
	s, got = sync(dir, fs)
	check(t, "second", fs, got)
	if s.misses != 0 {
		t.Fatalf("second sync computed %d files, want none", s.misses)
	}
}

// TestStore_SavesOnlyPastTheShare: a sync that computed fewer than one in
// SaveShare files leaves the file as it was; one past the share saves.
func TestStore_SavesOnlyPastTheShare(t *testing.T) {
	dir := t.TempDir()
	fs := files(2, 64)
	sync(dir, fs)
	before, _ := os.ReadFile(filepath.Join(dir, Name))
	changed := append([]file(nil), fs...)
	changed[0] = topicFile(rand.New(rand.NewPCG(9, 9)), 1000) // one of 64 computed: under 1/32
	if s, _ := sync(dir, changed); s.misses != 1 {
		t.Fatalf("%d computed, want 1", s.misses)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, Name)); string(after) != string(before) {
		t.Fatal("saved after computing one file of 64")
	}
	changed[1] = topicFile(rand.New(rand.NewPCG(9, 10)), 1001)
	sync(dir, changed) // two of 64: the share
	if s, _ := sync(dir, changed); s.misses != 0 {
		t.Fatalf("after the save %d computed, want none", s.misses)
	}
}

// TestStore_DamagedOrStaleChangesNothing: a file cut short, with a byte
// flipped, of another version, saved for other bytes (stale) or holding
// a wrong entry under a right key (another computation, Version not
// bumped) gives exactly deps.OfTopic's dependencies.
func TestStore_DamagedOrStaleChangesNothing(t *testing.T) {
	dir := t.TempDir()
	fs := files(3, 40)
	sync(dir, fs)
	good, err := os.ReadFile(filepath.Join(dir, Name))
	if err != nil {
		t.Fatal(err)
	}
	put := func(data []byte) {
		if err := os.WriteFile(filepath.Join(dir, Name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < len(good); i += 1 + r.IntN(997) {
		put(good[:i])
		s, got := sync(dir, fs)
		check(t, fmt.Sprintf("cut at %d", i), fs, got)
		if s.misses != len(fs) {
			t.Fatalf("cut at %d: %d of %d computed: a damaged file was used", i, s.misses, len(fs))
		}
		bad := append([]byte(nil), good...)
		bad[i] ^= 1 << r.IntN(8)
		put(bad)
		_, got = sync(dir, fs)
		check(t, fmt.Sprintf("flip at %d", i), fs, got)
	}
	put(append([]byte(magic), append([]byte{Version + 1}, good[len(magic)+1:]...)...))
	if s, _ := sync(dir, fs); s.misses != len(fs) {
		t.Fatal("a file of another version was used")
	}
	stale := files(4, 40) // other bytes at the same paths
	put(good)
	_, got := sync(dir, stale)
	check(t, "stale", stale, got)

	// A wrong entry under each right key: the first use compares and
	// drops the file.
	wrong := &Store{path: filepath.Join(dir, Name), used: map[Key]*deps.Topic{}, misses: len(fs)}
	for _, f := range fs {
		d := deps.OfTopic(f.path, f.f, f.f.Definitions())
		d.IDs = append(d.IDs, "extra")
		wrong.used[KeyOf(f.path, f.data)] = d
	}
	wrong.Finish()
	s, got := sync(dir, fs)
	check(t, "wrong entries", fs, got)
	if s.misses != len(fs) {
		t.Fatalf("wrong entries: %d computed, want all %d", s.misses, len(fs))
	}
}

// TestStore_NilAndNoDirCompute: no runtime directory means no store, and
// the nil store computes.
func TestStore_NilAndNoDirCompute(t *testing.T) {
	if Load("") != nil {
		t.Fatal("Load(\"\") read a store")
	}
	fs := files(5, 5)
	var s *Store
	for _, f := range fs {
		if got, want := s.Of(f.path, f.data, f.f, f.f.Definitions), deps.OfTopic(f.path, f.f, f.f.Definitions()); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %+v, want %+v", f.path, got, want)
		}
	}
	if s.Finish() != nil {
		t.Fatal("Finish of nil")
	}
}
