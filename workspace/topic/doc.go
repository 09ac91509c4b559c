// Package topic is the byte-level format of topic files (SPEC §4): Markdown
// files under topics/ that hold headings, blocks and footnote definitions,
// separated by blank lines.
//
//	# Craig
//
//	Craig is building a budget tracker in Flask, due 2024-04-15.[^e-1175dea39c] ^f888f60e
//
//	[^e-1175dea39c]: Time: `2024-03-15`; Sources: [openprogram/sess-7f2a/msg_2f9b](../sources/openprogram/_v2/sess-7f2a.md#source-8339b8d3)
//
// The package never touches the filesystem and knows nothing about other
// files: Parse checks one file on its own, and the workspace validator uses
// the parsed Elements (block ids, footnote references, citations, block
// links) to check uniqueness across files and to resolve sources and links.
// Parse never fails and never panics; everything wrong is a Problem.
//
// # Elements
//
// The file is split into elements at blank lines (lines of only spaces, tabs
// and CRs). Each element is exactly one of:
//
//   - a heading: one ATX line, up to three spaces, 1–6 '#', then a space,
//     a tab or the end of the line;
//   - a footnote definition: one line starting "[^label]:" (up to three
//     spaces first);
//   - a block: any other element whose last line ends with " ^" and 8
//     lowercase hex digits, or whose last line is the id alone ("^f888f60e",
//     which lets a block end in a fenced code block, a table or a quote).
//     Paragraphs, lists, quotes and code are all blocks; a list is one
//     element, so a loose list (blank lines between items) is several.
//   - untagged: anything else, which is a violation but still parsed.
//
// A heading or definition line that follows other lines without a blank line
// starts a new element anyway (missing_blank_line), so one forgotten blank line
// does not hide a block id. A fenced code block (``` or ~~~, up to three
// spaces) runs to its closing fence, blank lines included, and belongs to the
// element it appears in; nothing inside it is a heading, reference or link.
// A closing fence cannot carry the id ("``` ^id" is not a closing fence in
// Markdown), so such a block ends with a line after the fence.
//
// # Line endings
//
// Raw keeps every byte of an element, CRs included. Detection ignores
// trailing CRs, so a CRLF file parses like its LF twin and is not a
// violation; Render joins elements with LF, so rendering a CRLF file mixes
// endings inside multi-line elements and that is left to the caller.
// A U+FEFF at the start of a line is likewise ignored by detection and
// reported as a warning.
//
// # Canonical form and Render
//
// Render writes the elements' Raw joined by one blank line, plus a final LF
// (an empty file renders as nothing). For canonical files (LF, one blank line
// between elements, final LF, no whitespace-only lines) Parse then Render
// reproduces the input byte for byte. Any other file renders to its canonical
// form with the same elements.
//
// # Problems
//
// Codes are stable snake_case strings (constants Code…). Warnings
// (SeverityWarning, see IsWarning) are cosmetic or harmless; the rest are
// errors that make the file invalid. A missing block id is reported at the
// paragraph's first line, a bad one at the line that holds it.
//
//	missing_block_id         a paragraph or list without a block id on its last line
//	bad_block_id             something id-like ends the last line but is not " ^" + 8 lowercase hex
//	duplicate_block_id       a block id used twice in the file (reported at the later use)
//	empty_block              a block that is only its id
//	bad_footnote_label       a label, in a reference or definition, that is not "e-" + 10 lowercase hex
//	bad_footnote_definition  a definition not of the exact form, or a bad date, source id or path
//	duplicate_footnote       a label defined twice (reported at the later definition)
//	undefined_footnote       a reference whose label has no definition in the file
//	bad_link                 a malformed link: "#^" not followed by a block id, a block link
//	                         to a non-.md path, an absolute path, bad %-escapes, an unterminated link
//	unclosed_fence           a fenced code block that never closes (it runs to the end of file)
//	invalid_utf8             a line that is not valid UTF-8
//	unused_footnote          warning: a definition no reference in the file uses
//	duplicate_citation       warning: a definition cites the same source twice
//	missing_blank_line       warning: a heading or definition not separated by a blank line
//	trailing_whitespace      warning: spaces or tabs after a block id or definition
//	byte_order_mark          warning: a line starts with U+FEFF
package topic
