package topic

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// definitionForm is quoted in messages so a reader sees what was expected.
const definitionForm = "[^e-xxxxxxxxxx]: Time: `YYYY-MM-DD`; Sources: [<source-id>](<path>#source-xxxxxxxx)"

// FormatDefinition returns the canonical definition line for d, without a
// newline. A citation without an Anchor gets the v2 anchor of its source id;
// the source id is escaped for link text and the path for a link destination.
func FormatDefinition(d Definition) string {
	var b strings.Builder
	b.WriteString("[^")
	b.WriteString(d.Label)
	b.WriteString("]: Time: `")
	b.WriteString(d.Date)
	b.WriteString("`; Sources: ")
	for i, c := range d.Sources {
		if i > 0 {
			b.WriteString(", ")
		}
		anchor := c.Anchor
		if anchor == "" {
			anchor = sourceAnchor(c.SourceID)
		}
		b.WriteByte('[')
		b.WriteString(escapeLinkText(c.SourceID))
		b.WriteString("](")
		b.WriteString(EscapePath(c.Path))
		b.WriteByte('#')
		b.WriteString(anchor)
		b.WriteByte(')')
	}
	return b.String()
}

// escapeLinkText backslash-escapes the bytes that would end or nest link text.
func escapeLinkText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c == '[' || c == ']' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// EscapePath %-encodes the bytes that cannot stand in a Markdown link
// destination or would change its meaning; other bytes, UTF-8 included, stay
// literal so paths remain readable.
func EscapePath(p string) string {
	const special = "%#?()<>\\"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(special, c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// issue is a problem before it has a line number.
type issue struct {
	code, msg string
}

// parseDefinition parses one definition line (trailing CRs and a leading
// U+FEFF already removed). It returns the label as written, the definition
// when the line has the exact form, and every issue found.
func parseDefinition(line string) (string, *Definition, []issue) {
	var issues []issue
	if t := strings.TrimRight(line, " \t"); len(t) != len(line) {
		issues = append(issues, issue{CodeTrailingWhitespace, "trailing whitespace after footnote definition"})
		line = t
	}
	ok := true
	if strings.HasPrefix(line, " ") {
		issues = append(issues, issue{CodeBadFootnoteDefinition, "footnote definition must start at the beginning of the line"})
		line = strings.TrimLeft(line, " ")
		ok = false
	}
	// The caller only passes lines that start "[^label]:".
	end := strings.Index(line, "]:")
	if !strings.HasPrefix(line, "[^") || end < 0 {
		return "", nil, append(issues, issue{CodeBadFootnoteDefinition, "not a footnote definition"})
	}
	label := line[2:end]
	if !IsFootnoteLabel(label) {
		issues = append(issues, issue{CodeBadFootnoteLabel,
			fmt.Sprintf("footnote label %q is not \"e-\" and 10 lowercase hex digits", label)})
		ok = false
	}
	d, err := parseDefinitionBody(line[end+2:])
	if err != nil {
		issues = append(issues, issue{CodeBadFootnoteDefinition, fmt.Sprintf("footnote [^%s]: %s; want %s", label, err, definitionForm)})
		return label, nil, issues
	}
	seen := make(map[Citation]bool)
	for _, c := range d.Sources {
		if seen[c] {
			issues = append(issues, issue{CodeDuplicateCitation,
				fmt.Sprintf("footnote [^%s] cites %s more than once", label, c.SourceID)})
		}
		seen[c] = true
	}
	if !ok {
		return label, nil, issues
	}
	d.Label = label
	return label, d, issues
}

// parseDefinitionBody parses what follows "]:". Errors are plain sentences
// for the problem message.
func parseDefinitionBody(s string) (*Definition, error) {
	const timePrefix, sourcesPrefix = " Time: `", "`; Sources: "
	if !strings.HasPrefix(s, timePrefix) {
		return nil, fmt.Errorf("expected %q after the label", strings.TrimSpace(timePrefix))
	}
	s = s[len(timePrefix):]
	tick := strings.IndexByte(s, '`')
	if tick < 0 {
		return nil, fmt.Errorf("unterminated date")
	}
	date := s[:tick]
	if len(date) != 10 {
		return nil, fmt.Errorf("date %q is not YYYY-MM-DD", date)
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return nil, fmt.Errorf("date %q is not a valid YYYY-MM-DD date", date)
	}
	s = s[tick:]
	if !strings.HasPrefix(s, sourcesPrefix) {
		return nil, fmt.Errorf("expected %q after the date", strings.TrimSpace(sourcesPrefix[1:]))
	}
	s = s[len(sourcesPrefix):]
	d := &Definition{Date: date}
	for {
		c, rest, err := parseCitation(s)
		if err != nil {
			return nil, fmt.Errorf("source %d: %w", len(d.Sources)+1, err)
		}
		d.Sources = append(d.Sources, c)
		if rest == "" {
			return d, nil
		}
		if !strings.HasPrefix(rest, ", ") {
			return nil, fmt.Errorf("unexpected %q after source %d (sources are separated by \", \")", clip(rest), len(d.Sources))
		}
		s = rest[2:]
	}
}

// parseCitation parses "[source-id](path#source-xxxxxxxx)" at the start of s
// and returns what follows it.
func parseCitation(s string) (Citation, string, error) {
	var c Citation
	if !strings.HasPrefix(s, "[") {
		return c, "", fmt.Errorf("expected \"[<source-id>](<path>#source-xxxxxxxx)\", found %q", clip(s))
	}
	var id strings.Builder
	i := 1
	for ; i < len(s) && s[i] != ']'; i++ {
		switch {
		case s[i] == '[':
			return c, "", fmt.Errorf("unescaped '[' in source id")
		case s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			i++
		}
		id.WriteByte(s[i])
	}
	if i >= len(s) {
		return c, "", fmt.Errorf("unterminated source id")
	}
	c.SourceID = id.String()
	if err := checkSourceID(c.SourceID); err != nil {
		return c, "", err
	}
	s = s[i+1:]
	if !strings.HasPrefix(s, "(") {
		return c, "", fmt.Errorf("source %q has no (path#anchor) link", c.SourceID)
	}
	end := strings.IndexByte(s, ')')
	if end < 0 {
		return c, "", fmt.Errorf("unterminated link for source %q", c.SourceID)
	}
	dest := s[1:end]
	if strings.ContainsAny(dest, " \t(<>") {
		return c, "", fmt.Errorf("link %q for source %q contains a space, '(', '<' or '>'", dest, c.SourceID)
	}
	hash := strings.LastIndexByte(dest, '#')
	if hash < 0 {
		return c, "", fmt.Errorf("link %q for source %q has no #source- anchor", dest, c.SourceID)
	}
	rawPath, anchor := dest[:hash], dest[hash+1:]
	if !isSourceAnchor(anchor) {
		return c, "", fmt.Errorf("anchor %q is not \"source-\" and 8 lowercase hex digits", anchor)
	}
	path, err := url.PathUnescape(rawPath)
	if err != nil {
		return c, "", fmt.Errorf("path %q has a bad %%-escape", rawPath)
	}
	switch {
	case path == "":
		return c, "", fmt.Errorf("empty path for source %q", c.SourceID)
	case strings.HasPrefix(path, "/") || strings.Contains(path, "\\"):
		return c, "", fmt.Errorf("path %q must be relative and use '/'", path)
	case !strings.HasSuffix(path, ".md"):
		return c, "", fmt.Errorf("path %q is not a .md archive", path)
	}
	c.Path, c.Anchor = path, anchor
	return c, s[end+1:], nil
}

// checkSourceID accepts "<provider>/<thread>/<message-id>" with every part
// non-empty; the message id may itself contain '/'.
func checkSourceID(id string) error {
	parts := strings.SplitN(id, "/", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return fmt.Errorf("source id %q is not <provider>/<thread>/<message-id>", id)
	}
	for i := 0; i < len(id); i++ {
		if id[i] < ' ' || id[i] == 0x7f {
			return fmt.Errorf("source id %q contains a control character", id)
		}
	}
	if strings.TrimSpace(id) != id {
		return fmt.Errorf("source id %q has leading or trailing spaces", id)
	}
	return nil
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// clip shortens s for a message, at a rune boundary.
func clip(s string) string {
	const max = 48
	if len(s) <= max {
		return s
	}
	n := max
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
