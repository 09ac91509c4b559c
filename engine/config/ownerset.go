package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"

	"scriptorium/errcode"
)

// ownerHeader is the [owner] table's header line; tableHeader any table's.
var (
	ownerHeader = regexp.MustCompile(`^\s*\[\s*owner\s*\]\s*(#.*)?$`)
	tableHeader = regexp.MustCompile(`^\s*\[`)
	nameKey     = regexp.MustCompile(`^\s*name\s*=`)
)

// SetOwnerName stores name as owner.name in the config.toml at path and
// changes nothing else of the file: its comments, order and other tables
// stay as the owner wrote them. The name line of the [owner] table is
// replaced, or added under its header, or the table is added at the end.
// The result is decoded again and must mean exactly the old configuration
// with the new name; a file this cannot promise (owner written as dotted
// keys or an inline table) is left unchanged and the error says what to
// add by hand. The file is replaced atomically and keeps its mode; a
// symlinked config.toml is written where the link points.
func SetOwnerName(path, name string) error {
	if msg := CheckOwnerName(name); name == "" || msg != "" {
		if name == "" {
			msg = "it is empty"
		}
		return errcode.Errorf(errcode.InvalidArgument, "owner name %q: %s", name, msg)
	}
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
	line := "name = " + tomlString(name)
	text := withOwnerName(string(old), line)
	byHand := fmt.Sprintf("add by hand:\n[owner]\n%s", line)
	var after map[string]any
	if _, err := toml.Decode(text, &after); err != nil {
		return errcode.Errorf(errcode.InvalidArgument, "config %s: the edit would not parse (%v); nothing changed; %s", path, err, byHand)
	}
	want := map[string]any{}
	for k, v := range before {
		want[k] = v
	}
	owner := map[string]any{}
	if t, ok := want["owner"].(map[string]any); ok {
		for k, v := range t {
			owner[k] = v
		}
	}
	owner["name"] = name
	want["owner"] = owner
	if !reflect.DeepEqual(want, after) {
		return errcode.Errorf(errcode.InvalidArgument, "config %s: the edit would not mean what it should; nothing changed; %s", path, byHand)
	}
	if err := Replace(target, []byte(text)); err != nil {
		return errcode.Wrap(errcode.IO, err, "write %s", path)
	}
	return nil
}

// withOwnerName is text with line as the [owner] table's name.
func withOwnerName(text, line string) string {
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if !ownerHeader.MatchString(strings.TrimRight(l, "\r\n")) {
			continue
		}
		for j := i + 1; j < len(lines) && !tableHeader.MatchString(lines[j]); j++ {
			if nameKey.MatchString(lines[j]) {
				lines[j] = line + nl
				return strings.Join(lines, "")
			}
		}
		if !strings.HasSuffix(lines[i], "\n") {
			lines[i] += nl
		}
		lines[i] += line + nl
		return strings.Join(lines, "")
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += nl
	}
	if text != "" {
		text += nl
	}
	return text + "[owner]" + nl + line + nl
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
