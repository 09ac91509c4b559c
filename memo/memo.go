// Package memo is a bounded, concurrency-safe memo of a pure function of
// a string: the same texts come back in every install and every served
// prompt (a workspace's unchanged blocks, core.md's lines), and computing
// them again was a measurable share of both (BENCHMARKS.md). When full it
// starts over, which bounds its memory without bookkeeping per entry.
package memo

import "sync"

// Strings remembers f(key) for up to max keys.
type Strings[V any] struct {
	mu  sync.Mutex
	m   map[string]V
	max int
	f   func(string) V
}

// New returns a memo of f holding at most max keys.
func New[V any](max int, f func(string) V) *Strings[V] {
	return &Strings[V]{max: max, f: f}
}

// Get is f(key), computed once while the memo holds it. f runs outside the
// lock, so two callers may both compute a missing key; f is pure, so
// either result is the same.
func (s *Strings[V]) Get(key string) V {
	s.mu.Lock()
	v, ok := s.m[key]
	s.mu.Unlock()
	if ok {
		return v
	}
	v = s.f(key)
	s.mu.Lock()
	if s.m == nil || len(s.m) >= s.max {
		s.m = make(map[string]V)
	}
	s.m[key] = v
	s.mu.Unlock()
	return v
}

// Len is how many keys the memo holds now.
func (s *Strings[V]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}
