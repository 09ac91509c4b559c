package enginetest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fatalTB records a Fatalf and stops its goroutine, as testing.T does,
// so a test can check that a loader refuses.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fatalTB) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	runtime.Goexit()
}

// A sealed split is refused before anything of it is read, so a writer or
// recall test that names it (AIC_SPLITS=heldout5) fails instead of
// measuring it.
func TestLoadDistillSet_RefusesSealed(t *testing.T) {
	if len(SealedDistillSplits) == 0 {
		t.Skip("no part is sealed")
	}
	for _, split := range SealedDistillSplits {
		ft := &fatalTB{TB: t}
		done := make(chan DistillSet, 1)
		go func() {
			defer close(done)
			done <- LoadDistillSet(ft, distillSetDir, split)
		}()
		if set, ok := <-done; ok {
			t.Errorf("LoadDistillSet(%s) returned %d conversations of a sealed part", split, len(set.Convs))
		}
		if !strings.Contains(ft.msg, "sealed") {
			t.Errorf("LoadDistillSet(%s): refusal %q does not say the part is sealed", split, ft.msg)
		}
		if set := loadDistillSet(t, distillSetDir, split); len(set.Convs) == 0 {
			t.Errorf("sealed part %s has no conversations in the set", split)
		}
	}
}

// The distiller's tests keep their own list of sealed parts (they cannot
// import this package); both lists name the same parts.
func TestSealedDistillSplits_MatchDistillTests(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "writer", "distill", "sealed_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^var sealedSplits = \[\]string\{([^}]*)\}`).FindSubmatch(src)
	if m == nil {
		t.Fatal("engine/writer/distill/sealed_test.go: no `var sealedSplits = []string{…}` line")
	}
	var theirs []string
	for _, f := range strings.Split(string(m[1]), ",") {
		if f = strings.TrimSpace(f); f != "" {
			s, err := strconv.Unquote(f)
			if err != nil {
				t.Fatalf("sealedSplits entry %s: %v", f, err)
			}
			theirs = append(theirs, s)
		}
	}
	ours := slices.Clone(SealedDistillSplits)
	slices.Sort(ours)
	slices.Sort(theirs)
	if !slices.Equal(ours, theirs) {
		t.Errorf("SealedDistillSplits %v, engine/writer/distill sealedSplits %v: they must name the same parts", ours, theirs)
	}
}
