package topic

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

const bom = "\uFEFF"

// parser holds the state of one Parse call.
type parser struct {
	raw      []string // lines as in the file, CRs kept
	clean    []string // lines for detection: trailing CRs and a leading U+FEFF removed
	code     []bool   // line belongs to a fenced code block, fences included
	elems    []Element
	problems []Problem
}

func (p *parser) add(line int, code, msg string) {
	sev := SeverityError
	if IsWarning(code) {
		sev = SeverityWarning
	}
	p.problems = append(p.problems, Problem{Line: line, Code: code, Message: msg, Severity: sev})
}

// Parse splits a topic file into elements and lists every format problem
// in it, ordered by line. It never fails: a broken file still yields every
// element that could be recognised.
func Parse(data []byte) (*File, []Problem) {
	p := &parser{}
	p.splitLines(data)
	p.splitElements()
	for i := range p.elems {
		p.classify(&p.elems[i])
	}
	p.checkFile()
	sort.SliceStable(p.problems, func(i, j int) bool { return p.problems[i].Line < p.problems[j].Line })
	return &File{Elements: p.elems}, p.problems
}

func (p *parser) splitLines(data []byte) {
	if len(data) == 0 {
		return
	}
	text := string(data)
	text = strings.TrimSuffix(text, "\n") // the final LF ends the last line
	p.raw = strings.Split(text, "\n")
	p.clean = make([]string, len(p.raw))
	p.code = make([]bool, len(p.raw))
	for i, l := range p.raw {
		c := strings.TrimRight(l, "\r")
		if strings.HasPrefix(c, bom) {
			c = c[len(bom):]
			if !isBlank(c) {
				p.add(i+1, CodeByteOrderMark, "line starts with a byte order mark (U+FEFF)")
			}
		}
		p.clean[i] = c
		if !utf8.ValidString(l) {
			p.add(i+1, CodeInvalidUTF8, "line is not valid UTF-8")
		}
	}
}

// splitElements groups lines into elements: blank lines outside fenced code
// end an element, and heading and definition lines are elements of their own.
func (p *parser) splitElements() {
	start := -1        // first line of the open element, -1 when none
	afterLone := false // the previous element was a heading or definition with no blank line since
	var fence fenceInfo
	fenceLine := 0
	flush := func(end int) {
		if start >= 0 {
			p.elems = append(p.elems, Element{Line: start + 1, EndLine: end})
			start = -1
		}
	}
	open := func(i int) {
		if start < 0 {
			if afterLone {
				p.add(i+1, CodeMissingBlankLine, "missing blank line before this element")
			}
			start = i
		}
		afterLone = false
	}
	for i, l := range p.clean {
		if fence.n > 0 {
			p.code[i] = true
			if fence.closes(l) {
				fence = fenceInfo{}
			}
			continue
		}
		if isBlank(l) {
			flush(i)
			afterLone = false
			continue
		}
		if f, ok := openFence(l); ok {
			open(i)
			fence, fenceLine = f, i
			p.code[i] = true
			continue
		}
		if isHeadingLine(l) || isDefinitionLine(l) {
			if start >= 0 {
				flush(i)
				p.add(i+1, CodeMissingBlankLine, "missing blank line before this line")
			} else if afterLone {
				p.add(i+1, CodeMissingBlankLine, "missing blank line before this line")
			}
			p.elems = append(p.elems, Element{Line: i + 1, EndLine: i + 1})
			afterLone = true
			continue
		}
		open(i)
	}
	if fence.n > 0 {
		p.add(fenceLine+1, CodeUnclosedFence, "fenced code block is never closed, so it runs to the end of the file (a closing fence stands alone on its line)")
		// Blank lines at the end belong to no element, so Render drops them.
		end := len(p.clean)
		for end > start+1 && isBlank(p.clean[end-1]) {
			end--
		}
		flush(end)
		return
	}
	flush(len(p.clean))
}

// classify fills in an element whose Line and EndLine are set.
func (p *parser) classify(e *Element) {
	first, last := e.Line-1, e.EndLine-1
	e.Raw = strings.Join(p.raw[first:last+1], "\n")
	head := p.clean[first]
	switch {
	case !p.code[first] && isHeadingLine(head):
		e.Kind = KindHeading
		e.Level, e.Heading = parseHeading(head)
	case !p.code[first] && isDefinitionLine(head):
		e.Kind = KindFootnote
		label, def, issues := parseDefinition(head)
		e.Label, e.Def = label, def
		for _, is := range issues {
			p.add(e.Line, is.code, is.msg)
		}
		return // definitions hold citations, not references or links
	default:
		p.classifyBlock(e)
	}
	p.scanInline(e)
}

// classifyBlock decides between block and untagged from the last line.
func (p *parser) classifyBlock(e *Element) {
	e.Kind = KindUntagged
	line := p.clean[e.EndLine-1]
	trimmed := strings.TrimRight(line, " \t")
	id := standaloneID(trimmed)
	if id == "" {
		id = trailingID(trimmed)
	}
	if id == "" {
		if msg := idAttempt(trimmed); msg != "" {
			p.add(e.EndLine, CodeBadBlockID, msg)
		} else {
			p.add(e.Line, CodeMissingBlockID, fmt.Sprintf("paragraph has no block id: its last line (line %d) must end with \" ^\" and 8 lowercase hex digits", e.EndLine))
		}
		return
	}
	e.Kind, e.BlockID = KindBlock, id
	if len(trimmed) != len(line) {
		p.add(e.EndLine, CodeTrailingWhitespace, "trailing whitespace after block id ^"+id)
	}
	if e.Line == e.EndLine && standaloneID(trimmed) != "" {
		p.add(e.Line, CodeEmptyBlock, "block ^"+id+" has no text")
	}
}

// standaloneID returns the id of a line that is only "^id" (after any
// indentation, so list items and quotes can end with one), else "".
func standaloneID(line string) string {
	l := strings.TrimLeft(line, " \t")
	if len(l) != 9 || l[0] != '^' || !IsBlockID(l[1:]) {
		return ""
	}
	return l[1:]
}

// trailingID returns the id of a line ending in " ^id", else "".
func trailingID(line string) string {
	n := len(line)
	if n < 11 || line[n-10] != ' ' || line[n-9] != '^' || !IsBlockID(line[n-8:]) {
		return ""
	}
	return line[n-8:]
}

// idAttempt explains why the end of a line looks like a block id but is
// not one, or returns "" when it does not look like one at all.
func idAttempt(line string) string {
	caret := strings.LastIndexByte(line, '^')
	if caret < 0 {
		return ""
	}
	tok := line[caret+1:]
	if tok == "" {
		return ""
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return ""
		}
	}
	prev := byte(' ')
	if caret > 0 {
		prev = line[caret-1]
	}
	switch {
	case IsBlockID(tok) && prev == '\t':
		return fmt.Sprintf("block id ^%s must be separated from the text by a space, not a tab", tok)
	case IsBlockID(tok):
		return fmt.Sprintf("block id ^%s must be preceded by a space", tok)
	case prev == ' ' || prev == '\t':
		return fmt.Sprintf("^%s is not a block id: want \"^\" and 8 lowercase hex digits", tok)
	case len(tok) == 8 && isHexAnyCase(tok):
		return fmt.Sprintf("^%s is not a block id: want a space, \"^\" and 8 lowercase hex digits", tok)
	}
	return ""
}

// scanInline collects references and links outside code.
func (p *parser) scanInline(e *Element) {
	first, last := e.Line-1, e.EndLine-1
	var b bytes.Buffer
	lineStarts := make([]int, 0, last-first+1)
	for i := first; i <= last; i++ {
		if i > first {
			b.WriteByte('\n')
		}
		lineStarts = append(lineStarts, b.Len())
		if p.code[i] {
			b.WriteString(strings.Repeat(" ", len(p.raw[i])))
		} else {
			b.WriteString(p.raw[i])
		}
	}
	masked := b.Bytes()
	maskCodeSpans(masked)
	e.Refs = scanRefs(masked, lineStarts, e.Line)
	var problems []Problem
	e.Links, problems = scanLinks(masked, []byte(e.Raw), lineStarts, e.Line)
	for _, pr := range problems {
		p.add(pr.Line, pr.Code, pr.Message)
	}
}

// checkFile runs the checks that need every element.
func (p *parser) checkFile() {
	ids := make(map[string]int)    // block id -> first line
	labels := make(map[string]int) // footnote label -> first line
	used := make(map[string]bool)
	for _, e := range p.elems {
		switch e.Kind {
		case KindBlock:
			if first, ok := ids[e.BlockID]; ok {
				p.add(e.EndLine, CodeDuplicateBlockID, fmt.Sprintf("block id ^%s is already used on line %d", e.BlockID, first))
			} else {
				ids[e.BlockID] = e.EndLine
			}
		case KindFootnote:
			if first, ok := labels[e.Label]; ok {
				p.add(e.Line, CodeDuplicateFootnote, fmt.Sprintf("footnote [^%s] is already defined on line %d", e.Label, first))
			} else {
				labels[e.Label] = e.Line
			}
		}
	}
	for _, e := range p.elems {
		for _, r := range e.Refs {
			used[r.Label] = true
			if !IsFootnoteLabel(r.Label) {
				p.add(r.Line, CodeBadFootnoteLabel, fmt.Sprintf("footnote label %q is not \"e-\" and 10 lowercase hex digits", r.Label))
			}
			if _, ok := labels[r.Label]; !ok {
				p.add(r.Line, CodeUndefinedFootnote, fmt.Sprintf("footnote [^%s] has no definition in this file", r.Label))
			}
		}
	}
	for _, e := range p.elems {
		if e.Kind == KindFootnote && !used[e.Label] && labels[e.Label] == e.Line {
			p.add(e.Line, CodeUnusedFootnote, fmt.Sprintf("footnote [^%s] is never referenced", e.Label))
		}
	}
}

// fenceInfo describes an open fenced code block; n == 0 means none.
type fenceInfo struct {
	ch byte
	n  int
}

// openFence reports whether line opens a fenced code block.
func openFence(line string) (fenceInfo, bool) {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 || len(l) < 3 || (l[0] != '`' && l[0] != '~') {
		return fenceInfo{}, false
	}
	n := 0
	for n < len(l) && l[n] == l[0] {
		n++
	}
	if n < 3 || l[0] == '`' && strings.IndexByte(l[n:], '`') >= 0 {
		return fenceInfo{}, false
	}
	return fenceInfo{ch: l[0], n: n}, true
}

// closes reports whether line closes the fence f.
func (f fenceInfo) closes(line string) bool {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 {
		return false
	}
	n := 0
	for n < len(l) && l[n] == f.ch {
		n++
	}
	return n >= f.n && isBlank(l[n:])
}

// isHeadingLine reports whether line is an ATX heading.
func isHeadingLine(line string) bool {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 {
		return false
	}
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(l) || l[n] == ' ' || l[n] == '\t')
}

// parseHeading returns the level and text of an ATX heading line, without
// the optional closing run of '#'.
func parseHeading(line string) (int, string) {
	l := strings.TrimLeft(line, " ")
	n := 0
	for n < len(l) && l[n] == '#' {
		n++
	}
	text := strings.Trim(l[n:], " \t")
	if t := strings.TrimRight(text, "#"); t == "" {
		text = ""
	} else if len(t) < len(text) && (t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		text = strings.TrimRight(t, " \t")
	}
	return n, text
}

// isDefinitionLine reports whether line starts a footnote definition:
// "[^label]:" after up to three spaces, with a non-empty label of no spaces.
func isDefinitionLine(line string) bool {
	l := strings.TrimLeft(line, " ")
	if len(line)-len(l) > 3 || !strings.HasPrefix(l, "[^") {
		return false
	}
	for i := 2; i < len(l); i++ {
		switch l[i] {
		case ']':
			return i > 2 && i+1 < len(l) && l[i+1] == ':'
		case ' ', '\t', '[':
			return false
		}
	}
	return false
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
