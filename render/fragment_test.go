package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFragment_MatchesSet: a ViewSet built from other ViewSets' fragments
// (each topic set from its fragment, some topics set directly, some
// replaced and removed afterwards) renders exactly what one built with Set
// does.
func TestFragment_MatchesSet(t *testing.T) {
	paths := []string{"topics/a.md", "topics/b.md", "topics/b/c.md", "topics/core.md", "topics/people/z.md", "topics/é.md"}
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 26))
		ref, got := NewViewSet(), NewViewSet()
		for step := range 30 {
			p := paths[r.IntN(len(paths))]
			if r.IntN(5) == 0 {
				ref.Remove(p)
				got.Remove(p)
				continue
			}
			tp := randomTopic(r, p)
			ref.Set(tp)
			if r.IntN(3) == 0 {
				got.Set(tp)
			} else {
				frag, ok := ref.AppendFragment(nil, p)
				if !ok {
					t.Fatal("no fragment of a topic just set")
				}
				if err := got.SetFragment(p, string(frag)); err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
			}
			if r.IntN(3) == 0 && step != 29 {
				continue
			}
			if !bytes.Equal(got.RecentEvents(), ref.RecentEvents()) || !bytes.Equal(got.Relations(), ref.Relations()) ||
				!maps.EqualFunc(got.Timeline(), ref.Timeline(), bytes.Equal) {
				t.Fatalf("seed %d step %d: the views differ from Set's", seed, step)
			}
		}
	}
}

// TestFragment_MalformedChangesNothing: every truncation and most byte
// flips of a fragment are refused, and a refused one leaves the ViewSet as
// it was.
func TestFragment_MalformedChangesNothing(t *testing.T) {
	src := NewViewSet()
	for _, tp := range fixtureTopics() {
		src.Set(tp)
	}
	p := fixtureTopics()[0].Path
	frag, _ := src.AppendFragment(nil, p)
	v := NewViewSet()
	before := v.Relations()
	for n := range len(frag) {
		if err := v.SetFragment(p, string(frag[:n])); err == nil && n > 0 {
			t.Fatalf("a fragment cut at %d of %d bytes was taken", n, len(frag))
		}
	}
	if err := v.SetFragment(p, string(frag)+"x"); err == nil {
		t.Fatal("a fragment with trailing bytes was taken")
	}
	if !bytes.Equal(v.Relations(), before) || len(v.Timeline()) != 0 {
		t.Fatal("a refused fragment changed the views")
	}
	if _, ok := v.AppendFragment(nil, p); ok {
		t.Fatal("a refused fragment set its topic")
	}
}

// fragmentGolden is the hash of the fixture's fragments for each
// FragmentVersion: a change to how Set renders a topic changes the hash,
// and must come with a new version (a cache of the old rendering is then
// never merged) and its hash added here.
var fragmentGolden = map[int]string{
	1: "de0df177f7c8f24ba797b7add3e087f36317d6fa4555f39888ca92f362cff6ce",
}

func TestFragment_VersionGolden(t *testing.T) {
	v := NewViewSet()
	topics := fixtureTopics()
	for _, tp := range topics {
		v.Set(tp)
	}
	var all []byte
	for _, p := range slices.Sorted(maps.Keys(v.files)) {
		all, _ = v.AppendFragment(append(all, p...), p)
	}
	sum := sha256.Sum256(all)
	got := hex.EncodeToString(sum[:])
	if want := fragmentGolden[FragmentVersion]; got != want {
		t.Fatalf("the fixture's fragments hash to %s, FragmentVersion %d's golden is %q: if the rendering changed, bump FragmentVersion and add the new hash to fragmentGolden", got, FragmentVersion, want)
	}
}
