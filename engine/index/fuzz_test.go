package index

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzQuery feeds arbitrary user text to Search (as query text, speaker and
// path) and to MakeSnippet: neither may panic, Search may only fail with its
// documented errors, and a snippet is always a bounded substring.
func FuzzQuery(f *testing.F) {
	ix := mustOpen(f)
	if err := ix.Rebuild(genDocs(200, 5)); err != nil {
		f.Fatal(err)
	}
	f.Add("budget tracker", "u1", "sources/", "Craig is building a budget tracker", 20)
	f.Add("+-:()\"*~^\\", "张三 (u123)", "./topics", "密钥可以给他", 3)
	f.Add("密钥 AND title:x", "", "", "", 0)
	f.Fuzz(func(t *testing.T, query, speaker, path, text string, max int) {
		hits, err := ix.Search(Query{Text: query, Speaker: speaker, PathPrefix: path, Limit: 5})
		switch {
		case err == nil:
			if len(hits) > 5 {
				t.Fatalf("%d hits over the limit", len(hits))
			}
		case errors.Is(err, ErrEmptyQuery), errors.Is(err, ErrQueryTooLong):
		default:
			t.Fatalf("Search(%q): %v", query, err)
		}
		max %= 500
		snip, complete := MakeSnippet(text, query, max)
		if !strings.Contains(text, snip) {
			t.Fatalf("snippet %q not in text", snip)
		}
		if complete != (snip == text) {
			t.Fatalf("complete=%v for %q of %q", complete, snip, text)
		}
		if max <= 0 {
			max = DefaultSnippetRunes
		}
		if utf8.RuneCountInString(snip) > max {
			t.Fatalf("snippet of %d runes > %d", utf8.RuneCountInString(snip), max)
		}
	})
}
