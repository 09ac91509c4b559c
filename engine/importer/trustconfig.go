package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"scriptorium/engine/config"
	"scriptorium/errcode"
)

// saveTrust stores the owner and paired senders of each provider of tables
// in the config.toml at path, as [trust.<provider>] tables, and changes
// nothing else of the file: its comments, order and other tables stay as
// the owner wrote them. A provider's table is rewritten where it stands
// (its owner and paired keys replaced), or added at the end. The result is
// decoded again and must mean exactly the old configuration with the new
// lists; a file this cannot promise (a trust table written as dotted keys
// or an inline table) is left unchanged and the error says what to add by
// hand. The file is replaced atomically and keeps its mode; a symlinked
// config.toml is written where the link points.
func saveTrust(path string, tables map[string]TrustLists) error {
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	old, err := os.ReadFile(target)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return errcode.Wrap(errcode.IO, err, "read %s", path)
	}
	var before map[string]any
	if _, err := toml.Decode(string(old), &before); err != nil {
		return errcode.Wrap(errcode.InvalidArgument, err, "parse config %s", path)
	}
	// A file whose trust tables are already malformed ([trust] d = [])
	// stays as it is: an edit would keep it unreadable to config.Load.
	if err := decodeTrust(string(old)); err != nil {
		return errcode.Wrap(errcode.InvalidArgument, err, "parse config %s", path)
	}
	providers := make([]string, 0, len(tables))
	for p := range tables {
		providers = append(providers, p)
	}
	sort.Strings(providers)
	text := string(old)
	for _, p := range providers {
		if text, err = setTrustTable(text, p, tables[p], before); err != nil {
			return errcode.Errorf(errcode.InvalidArgument, "config %s: %v; add by hand:\n%s", path, err, trustTableText(p, tables[p], "\n"))
		}
	}
	if err := checkTrustEdit(before, text, tables); err != nil {
		return errcode.Errorf(errcode.IO, "config %s: the edit would not mean what it should (%v); nothing changed; add by hand:\n%s",
			path, err, trustTablesText(providers, tables))
	}
	if err := config.Replace(target, []byte(text)); err != nil {
		return errcode.Wrap(errcode.IO, err, "write %s", path)
	}
	return nil
}

// checkTrustEdit decodes the edited text and compares it with the old
// configuration: only the providers' trust tables may differ, and they
// must hold exactly the new lists.
func checkTrustEdit(before map[string]any, text string, tables map[string]TrustLists) error {
	var after map[string]any
	if _, err := toml.Decode(text, &after); err != nil {
		return err
	}
	if err := decodeTrust(text); err != nil {
		return err
	}
	want := map[string]any{}
	for k, v := range before {
		want[k] = v
	}
	trust := map[string]any{}
	if t, ok := want["trust"].(map[string]any); ok {
		for k, v := range t {
			trust[k] = v
		}
	}
	for p, t := range tables {
		trust[p] = map[string]any{"owner": anyList(t.Owner), "paired": anyList(t.Paired)}
	}
	want["trust"] = trust
	if !reflect.DeepEqual(want, after) {
		return errors.New("the decoded file differs")
	}
	return nil
}

// decodeTrust reports whether text's [trust] tables decode as the
// configuration reads them: every provider a table of sender lists.
func decodeTrust(text string) error {
	var typed struct {
		Trust map[string]TrustLists `toml:"trust"`
	}
	_, err := toml.Decode(text, &typed)
	return err
}

func anyList(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// setTrustTable writes provider's lists into text: into its
// [trust.<provider>] table, whose owner and paired keys it replaces, or as
// a new table at the end. before is the decoded old file.
func setTrustTable(text, provider string, lists TrustLists, before map[string]any) (string, error) {
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.SplitAfter(text, "\n")
	header := regexp.MustCompile(`^\s*\[\s*trust\s*\.\s*(?:"` + regexp.QuoteMeta(provider) + `"|'` + regexp.QuoteMeta(provider) +
		`'|` + regexp.QuoteMeta(provider) + `)\s*\]\s*(?:#.*)?$`)
	h := -1
	var sc tomlScanner
	for i, l := range lines {
		atStart := sc.depth == 0 && sc.str == ""
		if atStart && header.MatchString(strings.TrimRight(l, "\r\n")) {
			h = i
			break
		}
		sc.scan(l)
	}
	if h < 0 {
		if t, ok := before["trust"].(map[string]any); ok {
			if _, ok := t[provider]; ok {
				return "", fmt.Errorf("trust.%s is written in a form this import does not rewrite (dotted keys or an inline table)", provider)
			}
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += nl
		}
		if text != "" {
			text += nl
		}
		return text + trustTableText(provider, lists, nl), nil
	}
	key := regexp.MustCompile(`^\s*(?:owner|paired|"owner"|"paired"|'owner'|'paired')\s*=`)
	out := append([]string{}, lines[:h+1]...)
	out = append(out, listLine("owner", lists.Owner, nl), listLine("paired", lists.Paired, nl))
	sc = tomlScanner{}
	dropping := false
	i := h + 1
	for ; i < len(lines); i++ {
		l := lines[i]
		atStart := sc.depth == 0 && sc.str == ""
		if atStart {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "[") {
				break // the next table
			}
			dropping = key.MatchString(l)
		}
		sc.scan(l)
		if !dropping {
			out = append(out, l)
		}
	}
	out = append(out, lines[i:]...)
	return strings.Join(out, ""), nil
}

// trustTableText is a new [trust.<provider>] table.
func trustTableText(provider string, lists TrustLists, nl string) string {
	name := provider
	if !regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(provider) {
		name = tomlString(provider)
	}
	return "[trust." + name + "]" + nl + listLine("owner", lists.Owner, nl) + listLine("paired", lists.Paired, nl)
}

func trustTablesText(providers []string, tables map[string]TrustLists) string {
	parts := make([]string, len(providers))
	for i, p := range providers {
		parts[i] = trustTableText(p, tables[p], "\n")
	}
	return strings.Join(parts, "\n")
}

// listLine is `key = ["a", "b"]`.
func listLine(key string, values []string, nl string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = tomlString(v)
	}
	return key + " = [" + strings.Join(q, ", ") + "]" + nl
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlScanner follows, line by line, whether the text is inside a
// multi-line string or a bracketed value, so that a table header or a key
// is only recognised where TOML could have one.
type tomlScanner struct {
	depth int
	str   string // the open multi-line string's delimiter, """ or '''
}

func (sc *tomlScanner) scan(line string) {
	for i := 0; i < len(line); i++ {
		if sc.str != "" {
			if strings.HasPrefix(line[i:], sc.str) && (sc.str == "'''" || i == 0 || line[i-1] != '\\') {
				i += len(sc.str) - 1
				sc.str = ""
			}
			continue
		}
		switch c := line[i]; c {
		case '#':
			return
		case '"', '\'':
			delim := strings.Repeat(string(c), 3)
			if strings.HasPrefix(line[i:], delim) {
				sc.str = delim
				i += 2
				continue
			}
			for i++; i < len(line) && line[i] != c; i++ {
				if c == '"' && line[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			sc.depth++
		case ']', '}':
			if sc.depth > 0 {
				sc.depth--
			}
		}
	}
}
