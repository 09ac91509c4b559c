package topic

import (
	"bytes"
	"fmt"
	"strings"
)

// Kind says what an Element is.
type Kind int

// The element kinds. The zero Kind is invalid so a forgotten assignment shows.
const (
	KindHeading  Kind = iota + 1 // an ATX heading line
	KindBlock                    // a paragraph, list, quote or code ending in a block id
	KindFootnote                 // a footnote definition line
	KindUntagged                 // a paragraph without a block id: a violation, still parsed
)

// String returns the lower-case name used in JSON: heading, block, footnote, untagged.
func (k Kind) String() string {
	switch k {
	case KindHeading:
		return "heading"
	case KindBlock:
		return "block"
	case KindFootnote:
		return "footnote"
	case KindUntagged:
		return "untagged"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// MarshalText encodes the kind as its String.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Element is one heading, block, footnote definition or untagged paragraph.
type Element struct {
	Kind Kind `json:"kind"`
	// Raw is the exact bytes of the element's lines joined by "\n", CRs
	// included, with no trailing newline.
	Raw     string `json:"raw"`
	Line    int    `json:"line"`     // 1-based first line
	EndLine int    `json:"end_line"` // 1-based last line

	Level   int    `json:"level,omitempty"`   // heading only: 1–6
	Heading string `json:"heading,omitempty"` // heading only: text without #s

	BlockID string `json:"block_id,omitempty"` // block only: 8 hex digits, no ^

	// Label is the label of a footnote definition as written, even when the
	// definition is malformed; Def is set only when it has the exact form.
	Label string      `json:"label,omitempty"`
	Def   *Definition `json:"definition,omitempty"`

	// Refs and Links are collected from headings, blocks and untagged
	// paragraphs, outside code spans and fenced code.
	Refs  []Ref  `json:"refs,omitempty"`
	Links []Link `json:"links,omitempty"`
}

// Ref is a footnote reference "[^label]" in the text.
type Ref struct {
	Label string `json:"label"`
	Line  int    `json:"line"`
}

// Link is a relative Markdown link "[text](target)". External links (any
// URL scheme such as http:, https:, mailto:, or "//host") and images are not
// collected.
type Link struct {
	Text   string `json:"text"`
	Target string `json:"target"` // destination as written
	// Path is the %-decoded part before '#', relative to the topic file's
	// directory; "" for a same-file link such as "#^f888f60e".
	Path string `json:"path"`
	// Anchor is the fragment after '#', without '#' ("^f888f60e", "source-8339b8d3").
	Anchor string `json:"anchor,omitempty"`
	// BlockID is set when Anchor is '^' and a valid block id.
	BlockID string `json:"block_id,omitempty"`
	Line    int    `json:"line"`
}

// Definition is a well-formed footnote definition.
type Definition struct {
	Label   string     `json:"label"`
	Date    string     `json:"date"` // YYYY-MM-DD
	Sources []Citation `json:"sources"`
}

// Citation is one cited source in a definition.
type Citation struct {
	SourceID string `json:"source_id"`
	Path     string `json:"path"`   // %-decoded, relative to the topic file's directory
	Anchor   string `json:"anchor"` // "source-" + 8 hex
}

// Severity says whether a Problem makes the file invalid.
type Severity int

// The severities. The zero value is an error so that an unset one is strict.
const (
	SeverityError Severity = iota
	SeverityWarning
)

// String returns "error" or "warning".
func (s Severity) String() string {
	if s == SeverityWarning {
		return "warning"
	}
	return "error"
}

// MarshalText encodes the severity as its String.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Problem is one format-level violation, found at a 1-based line.
type Problem struct {
	Line     int      `json:"line"`
	Code     string   `json:"code"`
	Message  string   `json:"message"`
	Severity Severity `json:"severity"`
}

// The problem codes; the package comment says what each one means.
const (
	CodeMissingBlockID        = "missing_block_id"
	CodeBadBlockID            = "bad_block_id"
	CodeDuplicateBlockID      = "duplicate_block_id"
	CodeEmptyBlock            = "empty_block"
	CodeBadFootnoteLabel      = "bad_footnote_label"
	CodeBadFootnoteDefinition = "bad_footnote_definition"
	CodeDuplicateFootnote     = "duplicate_footnote"
	CodeUndefinedFootnote     = "undefined_footnote"
	CodeBadLink               = "bad_link"
	CodeUnclosedFence         = "unclosed_fence"
	CodeInvalidUTF8           = "invalid_utf8"
	CodeUnusedFootnote        = "unused_footnote"
	CodeDuplicateCitation     = "duplicate_citation"
	CodeMissingBlankLine      = "missing_blank_line"
	CodeTrailingWhitespace    = "trailing_whitespace"
	CodeByteOrderMark         = "byte_order_mark"
)

// IsWarning reports whether problems with this code are warnings.
func IsWarning(code string) bool {
	switch code {
	case CodeUnusedFootnote, CodeDuplicateCitation, CodeMissingBlankLine,
		CodeTrailingWhitespace, CodeByteOrderMark:
		return true
	}
	return false
}

// File is a parsed topic file.
type File struct {
	Elements []Element `json:"elements"`
}

// Render returns the canonical bytes of f: the elements' Raw joined by one
// blank line, with a final LF. A file without elements renders as nothing.
func (f *File) Render() []byte {
	if f == nil || len(f.Elements) == 0 {
		return []byte{}
	}
	var b bytes.Buffer
	for i, e := range f.Elements {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(e.Raw)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// Blocks returns the elements of kind KindBlock in file order.
func (f *File) Blocks() []Element {
	n := 0 // counted first: growing the slice of large elements was most of its cost
	for i := range f.Elements {
		if f.Elements[i].Kind == KindBlock {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]Element, 0, n)
	for i := range f.Elements {
		if f.Elements[i].Kind == KindBlock {
			out = append(out, f.Elements[i])
		}
	}
	return out
}

// Block returns the first block with the given id.
func (f *File) Block(id string) (Element, bool) {
	for _, e := range f.Elements {
		if e.Kind == KindBlock && e.BlockID == id {
			return e, true
		}
	}
	return Element{}, false
}

// Definitions returns the well-formed footnote definitions by label; when a
// label is defined twice the first definition wins. A reference to a
// malformed definition is reported at the definition, not as undefined.
func (f *File) Definitions() map[string]*Definition {
	out := make(map[string]*Definition)
	for i := range f.Elements {
		d := f.Elements[i].Def
		if d == nil {
			continue
		}
		if _, ok := out[d.Label]; !ok {
			out[d.Label] = d
		}
	}
	return out
}

// BlockText returns a block's text without its trailing id (" ^id", or an
// id line of its own), with CRLF turned into LF, for display and search.
// For other kinds it returns Raw with CRLF turned into LF.
func BlockText(e Element) string {
	raw := strings.ReplaceAll(e.Raw, "\r\n", "\n")
	raw = strings.TrimRight(raw, "\r")
	if e.Kind != KindBlock {
		return raw
	}
	head, last := "", raw
	if i := strings.LastIndexByte(raw, '\n'); i >= 0 {
		head, last = raw[:i], raw[i+1:]
	}
	last = strings.TrimRight(last, " \t")
	switch {
	case standaloneID(last) != "":
		return head
	case len(last) >= 10 && last[len(last)-10] == ' ' && last[len(last)-9] == '^':
		last = strings.TrimRight(last[:len(last)-10], " \t")
	}
	if head == "" {
		return last
	}
	return head + "\n" + last
}
