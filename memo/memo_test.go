package memo

import (
	"strconv"
	"sync"
	"testing"
)

func TestStrings_ComputesOnceWhileHeld(t *testing.T) {
	calls := 0
	m := New(4, func(s string) int { calls++; return len(s) })
	for range 3 {
		if got := m.Get("abc"); got != 3 {
			t.Fatalf("Get = %d, want 3", got)
		}
	}
	if calls != 1 {
		t.Fatalf("f ran %d times for one key, want 1", calls)
	}
}

func TestStrings_Bounded(t *testing.T) {
	m := New(8, strconv.Quote)
	for i := range 100 {
		k := strconv.Itoa(i)
		if got := m.Get(k); got != strconv.Quote(k) {
			t.Fatalf("Get(%q) = %q", k, got)
		}
		if m.Len() > 8 {
			t.Fatalf("memo holds %d keys, bound 8", m.Len())
		}
	}
}

func TestStrings_Concurrent(t *testing.T) {
	m := New(16, func(s string) string { return s + s })
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				k := strconv.Itoa((i + g) % 40)
				if got := m.Get(k); got != k+k {
					t.Errorf("Get(%q) = %q", k, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
