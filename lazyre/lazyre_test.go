package lazyre

import (
	"strings"
	"sync"
	"testing"
)

func TestRE_CompilesOnFirstUseOnce(t *testing.T) {
	r := New(`(\d+)-(\d+)`)
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m := r.FindStringSubmatch("a 12-34 b"); m != nil {
				got[i] = m[2]
			}
		}()
	}
	wg.Wait()
	for _, g := range got {
		if g != "34" {
			t.Fatalf("matches %q", got)
		}
	}
	first := r.Regexp()
	if again := r.Regexp(); again != first {
		t.Fatal("compiled twice")
	}
	found := false
	for _, x := range All() {
		found = found || x == r
	}
	if !found {
		t.Fatal("All does not list it")
	}
}

func TestRE_BadPatternPanicsOnUse(t *testing.T) {
	r := New(`(`)
	defer func() {
		if recover() == nil {
			t.Fatal("a bad pattern compiled")
		}
	}()
	r.MatchString("x")
}

func TestCompileAll_ReportsABadPattern(t *testing.T) {
	New(`(unclosed`)
	if _, err := CompileAll(); err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Fatalf("a bad pattern: %v", err)
	}
}
