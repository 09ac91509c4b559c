package curate

import "strings"

// fileLines is a topic file as lines, numbered as topic.Parse numbers
// them (1-based, the final LF ends the last line, CRs kept), so elements
// are spliced in and out without touching the rest of the file.
type fileLines struct{ lines []string }

func splitLines(data []byte) *fileLines {
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" {
		return &fileLines{}
	}
	return &fileLines{lines: strings.Split(s, "\n")}
}

// bytes joins the lines with LF and ends the file with one; no lines is
// an empty file.
func (f *fileLines) bytes() []byte {
	if len(f.lines) == 0 {
		return []byte{}
	}
	return []byte(strings.Join(f.lines, "\n") + "\n")
}

func blank(s string) bool { return strings.Trim(s, " \t\r") == "" }

// replace puts repl in place of lines first..last.
func (f *fileLines) replace(first, last int, repl []string) {
	tail := append([]string(nil), f.lines[last:]...)
	f.lines = append(append(f.lines[:first-1], repl...), tail...)
}

// remove deletes lines first..last and closes the gap: the blank lines
// that separated the element from its neighbours become one, and a file
// never starts or ends with blank lines because of it. Removing several
// elements must go from the last to the first.
func (f *fileLines) remove(first, last int) {
	i := first - 1
	f.lines = append(f.lines[:i:i], f.lines[last:]...)
	for i > 0 && i < len(f.lines) && blank(f.lines[i-1]) && blank(f.lines[i]) {
		f.lines = append(f.lines[:i:i], f.lines[i+1:]...)
	}
	if i == 0 {
		for len(f.lines) > 0 && blank(f.lines[0]) {
			f.lines = f.lines[1:]
		}
	}
	if i >= len(f.lines) {
		for len(f.lines) > 0 && blank(f.lines[len(f.lines)-1]) {
			f.lines = f.lines[:len(f.lines)-1]
		}
	}
}

// insertAfter puts an element's lines after line n (0: at the top), one
// blank line on each side.
func (f *fileLines) insertAfter(n int, el []string) {
	add := append([]string(nil), el...)
	if n > 0 {
		add = append([]string{""}, add...)
	}
	if n < len(f.lines) && !blank(f.lines[n]) {
		add = append(add, "")
	}
	tail := append([]string(nil), f.lines[n:]...)
	f.lines = append(append(f.lines[:n], add...), tail...)
}

// appendElement adds an element at the end of the file after a blank line.
func (f *fileLines) appendElement(el []string) {
	for len(f.lines) > 0 && blank(f.lines[len(f.lines)-1]) {
		f.lines = f.lines[:len(f.lines)-1]
	}
	if len(f.lines) > 0 {
		f.lines = append(f.lines, "")
	}
	f.lines = append(f.lines, el...)
}

// rewriteDest replaces the link destination old by new wherever a link
// in line uses it ("](old)", "](old "title")", "](<old>)"), and reports
// whether it did.
func rewriteDest(line, old, new string) (string, bool) {
	var b strings.Builder
	done := false
	for {
		i := strings.Index(line, "](")
		if i < 0 {
			b.WriteString(line)
			return b.String(), done
		}
		b.WriteString(line[:i+2])
		rest := line[i+2:]
		switch {
		case strings.HasPrefix(rest, "<"+old+">"):
			b.WriteString("<" + new + ">")
			rest, done = rest[len(old)+2:], true
		case strings.HasPrefix(rest, old) && len(rest) > len(old) && strings.IndexByte(") \t", rest[len(old)]) >= 0:
			b.WriteString(new)
			rest, done = rest[len(old):], true
		}
		line = rest
	}
}
