package distill

import (
	"regexp"
	"sync"
)

// lazyRE is a regular expression compiled on first use. The distiller is
// linked into every CLI and hook process and most of them never distil:
// compiling its patterns at init was the largest share of a process's
// start (GODEBUG=inittrace=1: 36 ms of `scriptorium --help`, more than
// bleve's and sqlite's inits together), paid before every agent prompt.
type lazyRE struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

// lazyPatterns lists every lazyRE, so a test compiles them all: a bad
// pattern must fail `go test`, not the first write that reaches it.
var lazyPatterns []*lazyRE

func lazyRegexp(pattern string) *lazyRE {
	l := &lazyRE{pattern: pattern}
	lazyPatterns = append(lazyPatterns, l)
	return l
}

func (l *lazyRE) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.pattern) })
	return l.re
}

func (l *lazyRE) MatchString(s string) bool              { return l.get().MatchString(s) }
func (l *lazyRE) FindAllString(s string, n int) []string { return l.get().FindAllString(s, n) }
func (l *lazyRE) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRE) FindStringSubmatch(s string) []string   { return l.get().FindStringSubmatch(s) }
func (l *lazyRE) FindStringSubmatchIndex(s string) []int { return l.get().FindStringSubmatchIndex(s) }
func (l *lazyRE) ReplaceAllString(s, repl string) string { return l.get().ReplaceAllString(s, repl) }
func (l *lazyRE) ReplaceAllStringFunc(s string, f func(string) string) string {
	return l.get().ReplaceAllStringFunc(s, f)
}
