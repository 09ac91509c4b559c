package topic

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// def is a well-formed definition line for label, citing one source.
func def(label string) string {
	return "[^" + label + "]: Time: `2024-03-15`; Sources: [openprogram/sess-7f2a/msg_2f9b](../sources/openprogram/_v2/sess-7f2a.md#source-8339b8d3)"
}

// problemCodes renders problems as "line:code" for compact comparison.
func problemCodes(ps []Problem) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%d:%s", p.Line, p.Code))
	}
	return out
}

// shape renders elements as "kind@line-end[#id]" for compact comparison.
func shape(f *File) []string {
	out := []string{}
	for _, e := range f.Elements {
		s := fmt.Sprintf("%s@%d-%d", e.Kind, e.Line, e.EndLine)
		if e.BlockID != "" {
			s += "#" + e.BlockID
		}
		out = append(out, s)
	}
	return out
}

func TestParse_Problems(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"valid", "# T\n\nText.[^e-1175dea39c] ^f888f60e\n\n" + def("e-1175dea39c") + "\n", nil},
		{"missing id", "# T\n\nSome text.\n", []string{"3:missing_block_id"}},
		{"missing id multi-line reported at first line", "# T\n\na\nb\nc\n", []string{"3:missing_block_id"}},
		{"id on a middle line is text", "a\nb ^f888f60e\nc\n", []string{"1:missing_block_id"}},
		{"id mid-line is text", "a ^f888f60e b\n", []string{"1:missing_block_id"}},
		{"caret maths is not an id attempt", "2^10 is 1024\n", []string{"1:missing_block_id"}},
		{"upper-case id", "x\ntext ^F888F60E\n", []string{"2:bad_block_id"}},
		{"seven hex", "text ^f888f60\n", []string{"1:bad_block_id"}},
		{"nine hex", "text ^f888f60e1\n", []string{"1:bad_block_id"}},
		{"obsidian-style name", "text ^my-block\n", []string{"1:bad_block_id"}},
		{"no space before caret", "text^f888f60e\n", []string{"1:bad_block_id"}},
		{"tab before caret", "text\t^f888f60e\n", []string{"1:bad_block_id"}},
		{"no space upper-case", "text^F888F60E\n", []string{"1:bad_block_id"}},
		{"duplicate id", "a ^f888f60e\n\nb ^f888f60e\n", []string{"3:duplicate_block_id"}},
		{"duplicate id reported at each later use", "a ^f888f60e\n\nb ^f888f60e\n\nc ^f888f60e\n",
			[]string{"3:duplicate_block_id", "5:duplicate_block_id"}},
		{"empty block", "^f888f60e\n", []string{"1:empty_block"}},
		{"trailing whitespace after id", "a ^f888f60e  \n", []string{"1:trailing_whitespace"}},
		{"bad ref label", "a[^1] ^f888f60e\n\n" + def("1") + "\n", []string{"1:bad_footnote_label", "3:bad_footnote_label"}},
		{"upper-case label", "a[^e-1175DEA39C] ^f888f60e\n\n" + def("e-1175DEA39C") + "\n",
			[]string{"1:bad_footnote_label", "3:bad_footnote_label"}},
		{"undefined footnote", "x\na[^e-1175dea39c] ^f888f60e\n", []string{"2:undefined_footnote"}},
		{"undefined and bad label", "a[^x] ^f888f60e\n", []string{"1:bad_footnote_label", "1:undefined_footnote"}},
		{"malformed definition still defines its label", "a[^e-1175dea39c] ^f888f60e\n\n[^e-1175dea39c]: nonsense\n",
			[]string{"3:bad_footnote_definition"}},
		{"duplicate footnote", "a[^e-1175dea39c] ^f888f60e\n\n" + def("e-1175dea39c") + "\n\n" + def("e-1175dea39c") + "\n",
			[]string{"5:duplicate_footnote"}},
		{"unused footnote", "a ^f888f60e\n\n" + def("e-1175dea39c") + "\n", []string{"3:unused_footnote"}},
		{"heading glued to paragraph", "# T\na ^f888f60e\n", []string{"2:missing_blank_line"}},
		{"paragraph glued to heading", "a ^f888f60e\n## T\n", []string{"2:missing_blank_line"}},
		{"glued definitions", "a[^e-1175dea39c][^e-2175dea39c] ^f888f60e\n\n" + def("e-1175dea39c") + "\n" + def("e-2175dea39c") + "\n",
			[]string{"4:missing_blank_line"}},
		{"text after definition", def("e-1175dea39c") + "\nb[^e-1175dea39c] ^f888f60e\n", []string{"2:missing_blank_line"}},
		{"unclosed fence", "a\n```\ncode ^f888f60e\n\nmore\n", []string{"2:unclosed_fence", "1:missing_block_id"}},
		// "``` ^id" is not a closing fence; the id still counts, so only the fence is reported.
		{"id after closing fence on same line keeps fence open", "```\nx\n``` ^f888f60e\n", []string{"1:unclosed_fence"}},
		{"invalid utf8", "a\xff ^f888f60e\n", []string{"1:invalid_utf8"}},
		{"byte order mark", "\uFEFF# T\n\na ^f888f60e\n", []string{"1:byte_order_mark"}},
		{"bad link id", "see [x](other.md#^zzz) ^f888f60e\n", []string{"1:bad_link"}},
		{"bad link upper-case id", "see [x](#^F888F60E) ^f888f60e\n", []string{"1:bad_link"}},
		{"block link to non-md", "see [x](other#^0c1d2e3f) ^f888f60e\n", []string{"1:bad_link"}},
		{"absolute link", "see [x](/topics/a.md#^0c1d2e3f) ^f888f60e\n", []string{"1:bad_link"}},
		{"bad escape", "see [x](a%zz.md) ^f888f60e\n", []string{"1:bad_link"}},
		{"unterminated link", "a\nsee [x](a.md#^0c1d2e3f and more ^f888f60e\n", []string{"2:bad_link"}},
		{"unterminated non-topic link is text", "see [x](y and more ^f888f60e\n", nil},
		{"duplicate citation", "a[^e-1175dea39c] ^f888f60e\n\n[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x.md#source-00000000), [a/b/c](x.md#source-00000000)\n",
			[]string{"3:duplicate_citation"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ps := Parse([]byte(tt.in))
			got := problemCodes(ps)
			want := tt.want
			if want == nil {
				want = []string{}
			}
			// Problems are ordered by line; within a line, by detection order.
			sortByLine(want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("problems = %v, want %v\n%v", got, want, ps)
			}
		})
	}
}

// sortByLine orders "line:code" strings by line, stably, as Parse does.
func sortByLine(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && lineOf(s[j]) < lineOf(s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func lineOf(s string) int {
	var n int
	fmt.Sscanf(s, "%d:", &n)
	return n
}

func TestParse_Severity(t *testing.T) {
	_, ps := Parse([]byte("# T\na ^f888f60e  \n\n" + def("e-1175dea39c") + "\n\nb\n"))
	got := map[string]Severity{}
	for _, p := range ps {
		got[p.Code] = p.Severity
	}
	want := map[string]Severity{
		CodeMissingBlankLine:   SeverityWarning,
		CodeTrailingWhitespace: SeverityWarning,
		CodeUnusedFootnote:     SeverityWarning,
		CodeMissingBlockID:     SeverityError,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("severities = %v, want %v", got, want)
	}
}

func TestParse_Structure(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   []string
		render string
	}{
		{"empty", "", []string{}, ""},
		{"only blank lines", "\n \n\t\n\r\n", []string{}, ""},
		{"canonical", "# T\n\na ^f888f60e\n", []string{"heading@1-1", "block@3-3#f888f60e"}, "# T\n\na ^f888f60e\n"},
		{"extra and whitespace-only blank lines", "\n\n# T\n  \n\t\n\nA ^f888f60e\n\n\n",
			[]string{"heading@3-3", "block@7-7#f888f60e"}, "# T\n\nA ^f888f60e\n"},
		{"no final newline", "A ^f888f60e", []string{"block@1-1#f888f60e"}, "A ^f888f60e\n"},
		{"list is one element", "- a\n- b\n  - c ^f888f60e\n", []string{"block@1-3#f888f60e"}, "- a\n- b\n  - c ^f888f60e\n"},
		{"loose list is several elements", "- a ^f888f60e\n\n- b ^0c1d2e3f\n",
			[]string{"block@1-1#f888f60e", "block@3-3#0c1d2e3f"}, "- a ^f888f60e\n\n- b ^0c1d2e3f\n"},
		{"standalone id line", "> quoted\n^f888f60e\n", []string{"block@1-2#f888f60e"}, "> quoted\n^f888f60e\n"},
		{"fence keeps blank lines", "```go\nx\n\n\ny\n```\n^f888f60e\n", []string{"block@1-7#f888f60e"},
			"```go\nx\n\n\ny\n```\n^f888f60e\n"},
		{"heading inside fence is code", "Intro\n~~~\n# not\n[^e-1175dea39c]: no\n~~~~\ncaption ^f888f60e\n",
			[]string{"block@1-6#f888f60e"}, "Intro\n~~~\n# not\n[^e-1175dea39c]: no\n~~~~\ncaption ^f888f60e\n"},
		{"shorter fence does not close", "````\n```\n\n````\nx ^f888f60e\n", []string{"block@1-5#f888f60e"},
			"````\n```\n\n````\nx ^f888f60e\n"},
		{"backtick info string with backtick is no fence", "``` a`b\n\nx ^f888f60e\n",
			[]string{"untagged@1-1", "block@3-3#f888f60e"}, "``` a`b\n\nx ^f888f60e\n"},
		{"indented four spaces is no fence", "    ```\n\nx ^f888f60e\n",
			[]string{"untagged@1-1", "block@3-3#f888f60e"}, "    ```\n\nx ^f888f60e\n"},
		{"unclosed fence drops trailing blanks", "```\nx\n\n\n", []string{"untagged@1-2"}, "```\nx\n"},
		{"heading glued is split", "# T\nA ^f888f60e\n## U\n", []string{"heading@1-1", "block@2-2#f888f60e", "heading@3-3"},
			"# T\n\nA ^f888f60e\n\n## U\n"},
		{"hashtag is not a heading", "#tag\n", []string{"untagged@1-1"}, "#tag\n"},
		{"seven hashes is not a heading", "####### x\n", []string{"untagged@1-1"}, "####### x\n"},
		{"indented definition is still a definition", "   [^e-1175dea39c]: x\n", []string{"footnote@1-1"}, "   [^e-1175dea39c]: x\n"},
		{"label with space is text", "[^a b]: x ^f888f60e\n", []string{"block@1-1#f888f60e"}, "[^a b]: x ^f888f60e\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Parse([]byte(tt.in))
			if got := shape(f); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("elements = %v, want %v", got, tt.want)
			}
			if got := string(f.Render()); got != tt.render {
				t.Errorf("Render = %q, want %q", got, tt.render)
			}
		})
	}
}

func TestParse_CRLF(t *testing.T) {
	in := "# T\r\n\r\nLine one\r\nline two[^e-1175dea39c] ^f888f60e\r\n\r\n" + def("e-1175dea39c") + "\r\n"
	f, ps := Parse([]byte(in))
	if len(ps) != 0 {
		t.Fatalf("CRLF file has problems: %v", ps)
	}
	if got, want := shape(f), []string{"heading@1-1", "block@3-4#f888f60e", "footnote@6-6"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("elements = %v, want %v", got, want)
	}
	if got, want := f.Elements[0].Heading, "T"; got != want {
		t.Errorf("heading = %q, want %q", got, want)
	}
	if got, want := f.Elements[1].Raw, "Line one\r\nline two[^e-1175dea39c] ^f888f60e\r"; got != want {
		t.Errorf("Raw = %q, want %q (CRs are kept)", got, want)
	}
	if got, want := BlockText(f.Elements[1]), "Line one\nline two[^e-1175dea39c]"; got != want {
		t.Errorf("BlockText = %q, want %q", got, want)
	}
	if f.Elements[2].Def == nil {
		t.Errorf("CRLF definition not parsed")
	}
	// Render joins with LF; rendering again changes nothing.
	once := f.Render()
	g, _ := Parse(once)
	if twice := g.Render(); string(twice) != string(once) {
		t.Errorf("Render not idempotent on CRLF input: %q then %q", once, twice)
	}
}

func TestParse_Heading(t *testing.T) {
	tests := []struct {
		in    string
		level int
		text  string
	}{
		{"# Craig", 1, "Craig"},
		{"###### Six", 6, "Six"},
		{"## Closed ##", 2, "Closed"},
		{"## C#", 2, "C#"},
		{"#", 1, ""},
		{"# ###", 1, ""},
		{"   #  Spaced  ", 1, "Spaced"},
		{"#\tTab", 1, "Tab"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			f, _ := Parse([]byte(tt.in + "\n"))
			if len(f.Elements) != 1 || f.Elements[0].Kind != KindHeading {
				t.Fatalf("not one heading: %v", shape(f))
			}
			e := f.Elements[0]
			if e.Level != tt.level || e.Heading != tt.text {
				t.Errorf("heading = (%d, %q), want (%d, %q)", e.Level, e.Heading, tt.level, tt.text)
			}
		})
	}
}

func TestParse_Refs(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Ref
	}{
		{"two refs", "a[^e-1175dea39c] b\nc[^e-2175dea39c] ^f888f60e", []Ref{{"e-1175dea39c", 1}, {"e-2175dea39c", 2}}},
		{"code span ignored", "a `[^e-1175dea39c]` b ^f888f60e", nil},
		{"double backtick span", "a ``x ` [^e-1175dea39c]`` b ^f888f60e", nil},
		{"unmatched backtick is literal", "a ` [^e-1175dea39c] ^f888f60e", []Ref{{"e-1175dea39c", 1}}},
		{"escaped bracket", `a \[^e-1175dea39c] ^f888f60e`, nil},
		{"escaped backtick opens nothing", "a \\` [^e-1175dea39c] ` ^f888f60e", []Ref{{"e-1175dea39c", 1}}},
		{"fenced code ignored", "x\n```\n[^e-1175dea39c]\n```\ny[^e-2175dea39c] ^f888f60e", []Ref{{"e-2175dea39c", 5}}},
		{"code span across lines", "a `x\n[^e-1175dea39c]` b ^f888f60e", nil},
		{"in heading", "# About[^e-1175dea39c]", []Ref{{"e-1175dea39c", 1}}},
		{"empty label is text", "a [^] ^f888f60e", nil},
		{"ref inside link text", "[claim[^e-1175dea39c]](#^0c1d2e3f) ^f888f60e", []Ref{{"e-1175dea39c", 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Parse([]byte(tt.in))
			var got []Ref
			for _, e := range f.Elements {
				got = append(got, e.Refs...)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("refs = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParse_Links(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Link
	}{
		{"cross-file block link", "see [Dave](../people/dave.md#^0c1d2e3f) ^f888f60e",
			[]Link{{Text: "Dave", Target: "../people/dave.md#^0c1d2e3f", Path: "../people/dave.md", Anchor: "^0c1d2e3f", BlockID: "0c1d2e3f", Line: 1}}},
		{"same-file block link", "x\nsee [above](#^0c1d2e3f) ^f888f60e",
			[]Link{{Text: "above", Target: "#^0c1d2e3f", Anchor: "^0c1d2e3f", BlockID: "0c1d2e3f", Line: 2}}},
		{"file link without anchor", "see [Dave](dave.md) ^f888f60e",
			[]Link{{Text: "Dave", Target: "dave.md", Path: "dave.md", Line: 1}}},
		{"source link", "see [msg](../sources/a/_v2/b.md#source-8339b8d3) ^f888f60e",
			[]Link{{Text: "msg", Target: "../sources/a/_v2/b.md#source-8339b8d3", Path: "../sources/a/_v2/b.md", Anchor: "source-8339b8d3", Line: 1}}},
		{"percent-decoded path", "see [x](my%20notes.md#^0c1d2e3f) ^f888f60e",
			[]Link{{Text: "x", Target: "my%20notes.md#^0c1d2e3f", Path: "my notes.md", Anchor: "^0c1d2e3f", BlockID: "0c1d2e3f", Line: 1}}},
		{"angle brackets and title", `see [x](<my notes.md#^0c1d2e3f> "title") ^f888f60e`,
			[]Link{{Text: "x", Target: "my notes.md#^0c1d2e3f", Path: "my notes.md", Anchor: "^0c1d2e3f", BlockID: "0c1d2e3f", Line: 1}}},
		{"nested brackets in text", "see [a [b] c](x.md#^0c1d2e3f) ^f888f60e",
			[]Link{{Text: "a [b] c", Target: "x.md#^0c1d2e3f", Path: "x.md", Anchor: "^0c1d2e3f", BlockID: "0c1d2e3f", Line: 1}}},
		{"parentheses in path", "see [x](a_(b).md) ^f888f60e",
			[]Link{{Text: "x", Target: "a_(b).md", Path: "a_(b).md", Line: 1}}},
		{"external links ignored", "[a](https://x.org/#^0c1d2e3f) [b](http://x) [c](mailto:a@b) [d](//cdn/x.md) [e](ftp://x) ^f888f60e", nil},
		{"image ignored", "![pic](img.md#^0c1d2e3f) ^f888f60e", nil},
		{"image inside link text", "[![pic](a.png)](x.md#^0c1d2e3f) ^f888f60e",
			[]Link{{Text: "![pic](a.png)", Target: "x.md#^0c1d2e3f", Path: "x.md", Anchor: "^0c1d2e3f", BlockID: "0c1d2e3f", Line: 1}}},
		{"code span ignored", "`[x](y.md#^0c1d2e3f)` ^f888f60e", nil},
		{"fenced code ignored", "```\n[x](y.md#^0c1d2e3f)\n```\n^f888f60e", nil},
		{"footnote ref is not a link", "a[^e-1175dea39c] ^f888f60e", nil},
		{"reference-style link ignored", "[x][y] ^f888f60e", nil},
		{"link text across lines", "[one\ntwo](x.md#^0c1d2e3f) ^f888f60e",
			[]Link{{Text: "one\ntwo", Target: "x.md#^0c1d2e3f", Path: "x.md", Anchor: "^0c1d2e3f", BlockID: "0c1d2e3f", Line: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ps := Parse([]byte(tt.in))
			var got []Link
			for _, e := range f.Elements {
				got = append(got, e.Links...)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("links = %+v\nwant    %+v", got, tt.want)
			}
			for _, p := range ps {
				if p.Code == CodeBadLink {
					t.Errorf("unexpected %v", p)
				}
			}
		})
	}
}

func TestBlockText_Forms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"one line", "Craig codes. ^f888f60e", "Craig codes."},
		{"extra spaces before id", "Craig codes.   ^f888f60e", "Craig codes."},
		{"trailing whitespace", "Craig codes. ^f888f60e \t", "Craig codes."},
		{"multi-line", "- a\n- b ^f888f60e", "- a\n- b"},
		{"standalone id line", "```\nx\n```\n^f888f60e", "```\nx\n```"},
		{"only an id", "^f888f60e", ""},
		{"id-like text stays", "a ^0c1d2e3f b\nc ^f888f60e", "a ^0c1d2e3f b\nc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := Parse([]byte(tt.in))
			if len(f.Elements) != 1 || f.Elements[0].Kind != KindBlock {
				t.Fatalf("not one block: %v", shape(f))
			}
			if got := BlockText(f.Elements[0]); got != tt.want {
				t.Errorf("BlockText = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestBlockText_NonBlock(t *testing.T) {
	f, _ := Parse([]byte("# Title\r\n"))
	if got := BlockText(f.Elements[0]); got != "# Title" {
		t.Errorf("BlockText(heading) = %q", got)
	}
}

func TestFile_Accessors(t *testing.T) {
	in := "# T\n\na[^e-1175dea39c] ^f888f60e\n\n" + def("e-1175dea39c") + "\n\nb ^0c1d2e3f\n\n[^e-2175dea39c]: bad\n"
	f, _ := Parse([]byte(in))
	var ids []string
	for _, b := range f.Blocks() {
		ids = append(ids, b.BlockID)
	}
	if want := []string{"f888f60e", "0c1d2e3f"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("Blocks ids = %v, want %v", ids, want)
	}
	if e, ok := f.Block("0c1d2e3f"); !ok || e.Line != 7 {
		t.Errorf("Block(0c1d2e3f) = %v, %v", e, ok)
	}
	if _, ok := f.Block("deadbeef"); ok {
		t.Errorf("Block(deadbeef) found")
	}
	defs := f.Definitions()
	if len(defs) != 1 || defs["e-1175dea39c"] == nil || defs["e-1175dea39c"].Date != "2024-03-15" {
		t.Errorf("Definitions = %v, want only the well-formed e-1175dea39c", defs)
	}
}

func TestParse_NeverPanics(t *testing.T) {
	inputs := []string{
		"[", "[^", "[^]", "[^x]:", "](", "[x](", "[x](<", "[x](<a", `[x](a "t`, "`", "``", "```", "~~~",
		"^", " ^", "^f888f60e", "#", "\r", "\r\r\n", "\xff\xfe", "\uFEFF", "[x](a.md#^", "[a]([a]([a](",
		strings.Repeat("[", 1000) + strings.Repeat("]", 999), strings.Repeat("`", 100),
	}
	for _, in := range inputs {
		f, _ := Parse([]byte(in))
		_ = f.Render()
		for _, e := range f.Elements {
			_ = BlockText(e)
		}
	}
}
