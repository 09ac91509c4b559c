// Package lazyre is a regular expression compiled on its first use.
//
// Every CLI and hook process runs the init of every package it links, and
// most of them never match the patterns of, say, the date parser or the
// writer's relative dates: compiling them at init was a tenth of
// `scriptorium --help`'s CPU (perf, issue 26) and is paid by every resident
// recall client before it asks the owner's process. New records each
// pattern so a test can compile them all (All): a bad pattern fails
// `go test`, not the first search that reaches it.
package lazyre

import (
	"regexp"
	"sync"
)

// RE is a regular expression compiled on first use; safe for concurrent use.
type RE struct {
	pattern string
	get     func() *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*RE
)

// New returns pattern, compiled (regexp.MustCompile) when first used.
func New(pattern string) *RE {
	r := &RE{pattern: pattern, get: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// All returns every RE made so far (tests compile them).
func All() []*RE {
	mu.Lock()
	defer mu.Unlock()
	return append([]*RE(nil), all...)
}

// CompileAll compiles the pattern of every RE made so far, without
// keeping the result: a package's test calls it so that a bad pattern fails
// `go test`, not the first call that reaches it. n is how many it checked.
func CompileAll() (n int, err error) {
	for _, r := range All() {
		if _, err := regexp.Compile(r.pattern); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Regexp compiles the pattern if it is not yet, and returns it.
func (r *RE) Regexp() *regexp.Regexp { return r.get() }

// String returns the source text.
func (r *RE) String() string { return r.pattern }

func (r *RE) MatchString(s string) bool                  { return r.get().MatchString(s) }
func (r *RE) FindString(s string) string                 { return r.get().FindString(s) }
func (r *RE) FindStringIndex(s string) []int             { return r.get().FindStringIndex(s) }
func (r *RE) FindStringSubmatch(s string) []string       { return r.get().FindStringSubmatch(s) }
func (r *RE) FindStringSubmatchIndex(s string) []int     { return r.get().FindStringSubmatchIndex(s) }
func (r *RE) FindAllString(s string, n int) []string     { return r.get().FindAllString(s, n) }
func (r *RE) FindAllStringIndex(s string, n int) [][]int { return r.get().FindAllStringIndex(s, n) }
func (r *RE) FindAllStringSubmatch(s string, n int) [][]string {
	return r.get().FindAllStringSubmatch(s, n)
}
func (r *RE) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.get().FindAllStringSubmatchIndex(s, n)
}
func (r *RE) ReplaceAllString(s, repl string) string { return r.get().ReplaceAllString(s, repl) }
func (r *RE) ReplaceAllStringFunc(s string, f func(string) string) string {
	return r.get().ReplaceAllStringFunc(s, f)
}
