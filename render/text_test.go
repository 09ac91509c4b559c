package render

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

func TestRebaseTarget_Cases(t *testing.T) {
	tests := []struct {
		name, target, from, want string
	}{
		{"source from topics", "../sources/x/_v2/t.md#source-ab", "topics/core.md", "sources/x/_v2/t.md#source-ab"},
		{"source from nested topic", "../../sources/a.md#source-1", "topics/people/craig.md", "sources/a.md#source-1"},
		{"sibling topic", "people/craig.md#^f888f60e", "topics/core.md", "topics/people/craig.md#^f888f60e"},
		{"same file fragment", "#^a1000004", "topics/core.md", "topics/core.md#^a1000004"},
		{"no fragment", "projects/x.md", "topics/core.md", "topics/projects/x.md"},
		{"dot segments", "./a/../b.md", "topics/core.md", "topics/b.md"},
		{"escapes the workspace", "../../outside.md", "topics/core.md", "../outside.md"},
		{"absolute", "/etc/x.md", "topics/core.md", "/etc/x.md"},
		{"url", "https://example.com/a#b", "topics/core.md", "https://example.com/a#b"},
		{"mailto", "mailto:ada@example.com", "topics/core.md", "mailto:ada@example.com"},
		{"colon after slash is no scheme", "a/b:c.md", "topics/core.md", "topics/a/b:c.md"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := rebaseTarget(tc.target, tc.from); got != tc.want {
				t.Errorf("rebaseTarget(%q, %q) = %q, want %q", tc.target, tc.from, got, tc.want)
			}
		})
	}
}

func TestRebaseLinks_Cases(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"footnote definition",
			"[^e-1]: Time: `2024-03-15`; Sources: [a/b](../sources/a/_v2/b.md#source-1), [c](../sources/c.md#source-2)",
			"[^e-1]: Time: `2024-03-15`; Sources: [a/b](sources/a/_v2/b.md#source-1), [c](sources/c.md#source-2)"},
		{"footnote reference untouched", "Fact.[^e-1] ^abcdef01", "Fact.[^e-1] ^abcdef01"},
		{"bracketed destination", "[x](<people/a b.md#^1>)", "[x](<topics/people/a b.md#^1>)"},
		{"image", "![chart](img/c.png)", "![chart](topics/img/c.png)"},
		{"no links", "plain", "plain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := rebaseLinks(tc.in, "topics/core.md"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExcerpt_Cases(t *testing.T) {
	long := ""
	for range 30 {
		long += "word "
	}
	tests := []struct {
		name, in, want string
	}{
		{"footnote refs removed", "Craig builds a tracker.[^e-1175dea39c][^e-2]", "Craig builds a tracker."},
		{"links reduced to text", "Works with [Craig](people/craig.md#^f888f60e).", "Works with Craig."},
		{"list on one line", "- Likes tea\n- Works early\n  continued", "Likes tea; Works early continued"},
		{"numbered list", "1. one\n2) two", "one; two"},
		{"paragraph lines joined", "First line\nsecond   line", "First line second line"},
		{"cut at 120 runes", long, long[:119] + "…"},
		{"runes not bytes", "äöü", "äöü"},
		{"invalid utf-8", "a\xffb", "a\uFFFDb"},
		{"empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := excerpt(tc.in); got != tc.want {
				t.Errorf("excerpt(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestIsDate_Cases(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"2024-03-15", true},
		{"2024-02-29", true},
		{"2023-02-29", false},
		{"2024-13-01", false},
		{"2024-3-15", false},
		{"../../../x", false},
		{"2024-03-15T00:00:00Z", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := isDate(tc.in); got != tc.want {
			t.Errorf("isDate(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestStripFootnoteRefs_MatchesRegexp compares the hand-written scan with
// the regular expression it replaced, on random text built from the bytes
// that matter to it.
func TestStripFootnoteRefs_MatchesRegexp(t *testing.T) {
	footnoteRef := regexp.MustCompile(`\[\^[^\]\s]+\]`)
	linkText := regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	pieces := []string{"[", "^", "]", "(", ")", "!", " ", "\t", "\n", "\f", "\r", "\v", "a", "e-1", "é", "[^", "[^e-1]", "](x)", "[^ ]", "[^]"}
	r := rand.New(rand.NewPCG(26, 4))
	for range 20000 {
		var b strings.Builder
		for n := r.IntN(12); n >= 0; n-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := stripFootnoteRefs(s), footnoteRef.ReplaceAllString(s, ""); got != want {
			t.Fatalf("stripFootnoteRefs(%q) = %q, want %q", s, got, want)
		}
		// The gate on "](" skips only texts the expression leaves alone.
		if !strings.Contains(s, "](") && linkText.ReplaceAllString(s, "$1") != s {
			t.Fatalf("linkText changed %q, which has no \"](\"", s)
		}
	}
}
