package curate

import (
	"testing"

	"scriptorium/workspace/topic"
)

func TestFileLines_Remove(t *testing.T) {
	cases := []struct {
		name, in    string
		first, last int
		want        string
	}{
		{"middle", "# T\n\nA ^00000001\n\nB ^00000002\n\nC ^00000003\n", 5, 5, "# T\n\nA ^00000001\n\nC ^00000003\n"},
		{"last", "# T\n\nA ^00000001\n\nB ^00000002\n", 5, 5, "# T\n\nA ^00000001\n"},
		{"first", "A ^00000001\n\nB ^00000002\n", 1, 1, "B ^00000002\n"},
		{"multi-line", "# T\n\n- a\n- b ^00000001\n\nC ^00000003\n", 3, 4, "# T\n\nC ^00000003\n"},
		{"two blank lines kept elsewhere", "# T\n\n\nA ^00000001\n\nB ^00000002\n", 6, 6, "# T\n\n\nA ^00000001\n"},
		{"no final newline", "# T\n\nA ^00000001", 3, 3, "# T\n"},
		{"only element", "A ^00000001\n", 1, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := splitLines([]byte(c.in))
			f.remove(c.first, c.last)
			if got := string(f.bytes()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestFileLines_Insert(t *testing.T) {
	cases := []struct {
		name, in string
		after    int
		want     string
	}{
		{"after title", "# T\n", 1, "# T\n\nX ^0000000f\n"},
		{"between", "# T\n\nA ^00000001\n\n[^e-0000000001]: d\n", 3, "# T\n\nA ^00000001\n\nX ^0000000f\n\n[^e-0000000001]: d\n"},
		{"glued next line", "# T\nA ^00000001\n", 1, "# T\n\nX ^0000000f\n\nA ^00000001\n"},
		{"empty file", "", 0, "X ^0000000f\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := splitLines([]byte(c.in))
			f.insertAfter(c.after, []string{"X ^0000000f"})
			if got := string(f.bytes()); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	f := splitLines([]byte("# T\n\nA ^00000001\n\n\n"))
	f.appendElement([]string{"[^e-0000000001]: d"})
	if got := string(f.bytes()); got != "# T\n\nA ^00000001\n\n[^e-0000000001]: d\n" {
		t.Errorf("appendElement: %q", got)
	}
}

func TestRewriteDest(t *testing.T) {
	cases := []struct{ line, old, new, want string }{
		{"see [a](x.md#^00000001).", "x.md#^00000001", "../y.md#^00000001", "see [a](../y.md#^00000001)."},
		{"[a](x.md#^00000001 \"title\")", "x.md#^00000001", "#^00000001", "[a](#^00000001 \"title\")"},
		{"[a](<x.md#^00000001>)", "x.md#^00000001", "y.md#^00000001", "[a](<y.md#^00000001>)"},
		{"[a](x.md#^000000012)", "x.md#^00000001", "y", "[a](x.md#^000000012)"}, // a longer target is another link
		{"[a](x.md#^00000001) [b](x.md#^00000001)", "x.md#^00000001", "z", "[a](z) [b](z)"},
		{"no link here", "x", "y", "no link here"},
	}
	for _, c := range cases {
		got, done := rewriteDest(c.line, c.old, c.new)
		if got != c.want || done != (c.line != c.want) {
			t.Errorf("rewriteDest(%q) = %q, %v; want %q", c.line, got, done, c.want)
		}
	}
}

func TestTitleOf(t *testing.T) {
	for in, want := range map[string]string{
		"topics/people/dana-scott.md": "Dana Scott",
		"topics/projects/my_app.md":   "My App",
		"topics/人物/张三.md":             "张三",
		"topics/x.md":                 "X",
	} {
		if got := titleOf(in); got != want {
			t.Errorf("titleOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInsertPoint(t *testing.T) {
	f := parse("# T\n\nA ^00000001\n\n## Work\n\nB ^00000002\n\n### Sub\n\nC ^00000003\n\n## Home\n\nD ^00000004\n\n[^e-0000000001]: d\n")
	for _, c := range []struct {
		under   string
		at      int
		heading string
	}{
		{"", 15, ""},
		{"work", 11, ""}, // the end of its section, sub-sections included
		{"Sub", 11, ""},  // a sub-section ends at the next heading of its level or above
		{"Home", 15, ""}, // before the definitions
		{"Garden", 15, "## Garden"},
	} {
		at, h := insertPoint(f, c.under)
		if at != c.at || h != c.heading {
			t.Errorf("insertPoint(%q) = %d, %q; want %d, %q", c.under, at, h, c.at, c.heading)
		}
	}
}

func parse(s string) *topic.File { f, _ := topic.Parse([]byte(s)); return f }

func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"\n \nA\r\nB  \n\n": "A\nB",
		"  A  ":             "  A",
		" \t\n":             "",
		"A\n\nB":            "A\n\nB",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}
