package overlay

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// TestMap_VersionsMatchPlainMaps builds a chain (and branches) of versions
// by random sets and deletes, each checked against a plain map copied at
// the same point, and checks after every step that every earlier version
// still holds exactly what it held: a version never sees a later one's
// changes (snapshot isolation), across flattenings too.
func TestMap_VersionsMatchPlainMaps(t *testing.T) {
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, 26))
		type version struct {
			m    *Map[int]
			want map[string]int
		}
		first := version{New[int](0), map[string]int{}}
		keys := 1500
		names := make([]string, keys)
		for i := range names {
			names[i] = fmt.Sprint(i)
		}
		for i := range 1000 {
			k := names[r.IntN(keys)]
			first.m.Set(k, i)
			first.want[k] = i
		}
		versions := []version{first}
		check := func(step int, v version) {
			t.Helper()
			for _, k := range names {
				got, ok := v.m.Get(k)
				w, wok := v.want[k]
				if ok != wok || got != w || v.m.Lookup(k) != w {
					t.Fatalf("seed %d step %d key %s: got %d,%v want %d,%v", seed, step, k, got, ok, w, wok)
				}
			}
			if all := maps.Collect(v.m.All()); !maps.Equal(all, v.want) {
				t.Fatalf("seed %d step %d: All yields %d entries, want %d", seed, step, len(all), len(v.want))
			}
		}
		for step := range 80 {
			// Mostly the newest version, sometimes an older one: a reader's
			// snapshot that a reload builds on.
			parent := versions[len(versions)-1]
			if r.IntN(5) == 0 {
				parent = versions[r.IntN(len(versions))]
			}
			next := version{parent.m.Clone(), maps.Clone(parent.want)}
			for range r.IntN(200) {
				k := names[r.IntN(keys)]
				if r.IntN(3) == 0 {
					next.m.Delete(k)
					delete(next.want, k)
				} else {
					v := step*1000 + r.IntN(1000)
					next.m.Set(k, v)
					next.want[k] = v
				}
			}
			versions = append(versions, next)
			if step%10 == 9 {
				for _, v := range versions {
					check(step, v)
				}
			} else {
				check(step, next)
				check(step, versions[r.IntN(len(versions))])
			}
		}
	}
}
