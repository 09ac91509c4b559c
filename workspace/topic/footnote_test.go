package topic

import (
	"reflect"
	"strings"
	"testing"
)

// parseOneDefinition parses a file holding one definition line and a block
// that uses it, and returns the definition element and the problem codes.
func parseOneDefinition(t *testing.T, line string) (Element, []string) {
	t.Helper()
	f, ps := Parse([]byte("a[^e-1175dea39c] ^f888f60e\n\n" + line + "\n"))
	if len(f.Elements) != 2 || f.Elements[1].Kind != KindFootnote {
		t.Fatalf("want a block and a footnote, got %v", shape(f))
	}
	return f.Elements[1], problemCodes(ps)
}

func TestDefinition_Valid(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Definition
	}{
		{"spec example", def("e-1175dea39c"), Definition{Label: "e-1175dea39c", Date: "2024-03-15",
			Sources: []Citation{{"openprogram/sess-7f2a/msg_2f9b", "../sources/openprogram/_v2/sess-7f2a.md", "source-8339b8d3"}}}},
		{"two sources", "[^e-1175dea39c]: Time: `2024-02-29`; Sources: [a/b/1](../s/a/_v2/b.md#source-00000000), [c/d/e/f](../../s/c/d.md#source-0123abcd)",
			Definition{Label: "e-1175dea39c", Date: "2024-02-29", Sources: []Citation{
				{"a/b/1", "../s/a/_v2/b.md", "source-00000000"}, {"c/d/e/f", "../../s/c/d.md", "source-0123abcd"}}}},
		{"escaped brackets in source id", `[^e-1175dea39c]: Time: ` + "`2024-03-15`" + `; Sources: [a/b/m\[1\]](x.md#source-00000000)`,
			Definition{Label: "e-1175dea39c", Date: "2024-03-15", Sources: []Citation{{"a/b/m[1]", "x.md", "source-00000000"}}}},
		{"percent-encoded path", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/family chat/1](../s/a/_v2/family%20chat.md#source-00000000)",
			Definition{Label: "e-1175dea39c", Date: "2024-03-15", Sources: []Citation{{"a/family chat/1", "../s/a/_v2/family chat.md", "source-00000000"}}}},
		{"unicode path", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/群聊/1](../s/a/_v2/群聊.md#source-00000000)",
			Definition{Label: "e-1175dea39c", Date: "2024-03-15", Sources: []Citation{{"a/群聊/1", "../s/a/_v2/群聊.md", "source-00000000"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, codes := parseOneDefinition(t, tt.line)
			if len(codes) != 0 {
				t.Fatalf("problems: %v", codes)
			}
			if e.Def == nil || !reflect.DeepEqual(*e.Def, tt.want) {
				t.Fatalf("Def = %+v, want %+v", e.Def, tt.want)
			}
			if got := FormatDefinition(*e.Def); got != tt.line {
				t.Errorf("FormatDefinition = %q, want the input %q", got, tt.line)
			}
		})
	}
}

func TestDefinition_Invalid(t *testing.T) {
	const ok = "[a/b/c](x.md#source-00000000)"
	tests := []struct {
		name string
		line string
		code string
	}{
		{"no body", "[^e-1175dea39c]:", CodeBadFootnoteDefinition},
		{"free text", "[^e-1175dea39c]: Craig said so.", CodeBadFootnoteDefinition},
		{"no space after colon", "[^e-1175dea39c]:Time: `2024-03-15`; Sources: " + ok, CodeBadFootnoteDefinition},
		{"date not in backticks", "[^e-1175dea39c]: Time: 2024-03-15; Sources: " + ok, CodeBadFootnoteDefinition},
		{"unterminated date", "[^e-1175dea39c]: Time: `2024-03-15; Sources: " + ok, CodeBadFootnoteDefinition},
		{"short date", "[^e-1175dea39c]: Time: `2024-3-15`; Sources: " + ok, CodeBadFootnoteDefinition},
		{"impossible date", "[^e-1175dea39c]: Time: `2023-02-29`; Sources: " + ok, CodeBadFootnoteDefinition},
		{"datetime", "[^e-1175dea39c]: Time: `2024-03-15T10:00:00Z`; Sources: " + ok, CodeBadFootnoteDefinition},
		{"no sources", "[^e-1175dea39c]: Time: `2024-03-15`; Sources:", CodeBadFootnoteDefinition},
		{"empty sources", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: , " + ok, CodeBadFootnoteDefinition},
		{"lower-case sources", "[^e-1175dea39c]: Time: `2024-03-15`; sources: " + ok, CodeBadFootnoteDefinition},
		{"semicolon separator", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: " + ok + "; " + ok, CodeBadFootnoteDefinition},
		{"comma without space", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: " + ok + "," + ok, CodeBadFootnoteDefinition},
		{"text after sources", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: " + ok + " (approx)", CodeBadFootnoteDefinition},
		{"two-part source id", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b](x.md#source-00000000)", CodeBadFootnoteDefinition},
		{"empty thread", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a//c](x.md#source-00000000)", CodeBadFootnoteDefinition},
		{"unescaped bracket in source id", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/[c](x.md#source-00000000)", CodeBadFootnoteDefinition},
		{"no link", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c]", CodeBadFootnoteDefinition},
		{"no anchor", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x.md)", CodeBadFootnoteDefinition},
		{"block anchor", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x.md#^f888f60e)", CodeBadFootnoteDefinition},
		{"upper-case anchor", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x.md#source-ABCDEF01)", CodeBadFootnoteDefinition},
		{"short anchor", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x.md#source-abc)", CodeBadFootnoteDefinition},
		{"absolute path", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](/x.md#source-00000000)", CodeBadFootnoteDefinition},
		{"non-md path", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x.txt#source-00000000)", CodeBadFootnoteDefinition},
		{"empty path", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](#source-00000000)", CodeBadFootnoteDefinition},
		{"bad escape", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x%zz.md#source-00000000)", CodeBadFootnoteDefinition},
		{"space in path", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](my x.md#source-00000000)", CodeBadFootnoteDefinition},
		{"unterminated link", "[^e-1175dea39c]: Time: `2024-03-15`; Sources: [a/b/c](x.md#source-00000000", CodeBadFootnoteDefinition},
		{"indented", "  [^e-1175dea39c]: Time: `2024-03-15`; Sources: " + ok, CodeBadFootnoteDefinition},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, codes := parseOneDefinition(t, tt.line)
			if want := []string{"3:" + tt.code}; !reflect.DeepEqual(codes, want) {
				t.Errorf("problems = %v, want %v", codes, want)
			}
			if e.Def != nil {
				t.Errorf("Def = %+v for a malformed definition, want nil", e.Def)
			}
			if e.Label != "e-1175dea39c" {
				t.Errorf("Label = %q, want it kept for a malformed definition", e.Label)
			}
		})
	}
}

func TestDefinition_TrailingWhitespace(t *testing.T) {
	e, codes := parseOneDefinition(t, def("e-1175dea39c")+" \t")
	if want := []string{"3:" + CodeTrailingWhitespace}; !reflect.DeepEqual(codes, want) {
		t.Errorf("problems = %v, want %v", codes, want)
	}
	if e.Def == nil {
		t.Errorf("Def = nil, want the definition despite trailing whitespace")
	}
}

func TestFormatDefinition_Escaping(t *testing.T) {
	d := Definition{Label: "e-1175dea39c", Date: "2024-03-15", Sources: []Citation{
		{SourceID: `tg/odd (chat)/m[1]\x`, Path: "../s/tg/_v2/odd (chat)#1?%.md", Anchor: "source-00000000"},
		{SourceID: "openprogram/sess-7f2a/msg_2f9b", Path: "../s/openprogram/_v2/sess-7f2a.md"},
	}}
	line := FormatDefinition(d)
	wantLine := "[^e-1175dea39c]: Time: `2024-03-15`; Sources: " +
		`[tg/odd (chat)/m\[1\]\\x](../s/tg/_v2/odd%20%28chat%29%231%3F%25.md#source-00000000), ` +
		"[openprogram/sess-7f2a/msg_2f9b](../s/openprogram/_v2/sess-7f2a.md#source-9047c191)"
	if line != wantLine {
		t.Fatalf("FormatDefinition =\n%s\nwant\n%s", line, wantLine)
	}
	e, codes := parseOneDefinition(t, line)
	if len(codes) != 0 {
		t.Fatalf("formatted line has problems: %v", codes)
	}
	d.Sources[1].Anchor = "source-9047c191" // filled in from SHA-256 of the source id
	if !reflect.DeepEqual(*e.Def, d) {
		t.Errorf("parsed back %+v, want %+v", *e.Def, d)
	}
}

func TestDefinition_NotReferencesOrLinks(t *testing.T) {
	// A definition's citations are links but not block links, and its label
	// is not a reference to itself.
	f, _ := Parse([]byte(def("e-1175dea39c") + "\n"))
	if e := f.Elements[0]; len(e.Refs) != 0 || len(e.Links) != 0 {
		t.Errorf("definition has refs %v / links %v", e.Refs, e.Links)
	}
	if !strings.HasPrefix(FormatDefinition(*f.Elements[0].Def), "[^e-1175dea39c]: ") {
		t.Errorf("FormatDefinition lost the label")
	}
}
