package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"scriptorium/errcode"
	"strings"

	"github.com/BurntSushi/toml"
)

// CodexInstallResult is what InstallCodex did.
type CodexInstallResult struct {
	Path   string   `json:"path"`   // Codex's config.toml
	Notify []string `json:"notify"` // the notify program, as written
	Added  bool     `json:"added"`  // false when it was there already
	Backup string   `json:"backup"` // the copy of the old file, "" when none was needed
}

// CodexNotify is the notify program the hook installs: the binary, the
// verb and, when the state dir was chosen on the install command line,
// --state with its absolute path. Codex appends the notification's JSON.
func CodexNotify(binary, stateDir string) []string {
	out := []string{binary, "hook", "codex"}
	if stateDir != "" {
		out = append(out, "--state", stateDir)
	}
	return out
}

// CodexNotifyLine is the config.toml line that installs notify.
func CodexNotifyLine(notify []string) string {
	q := make([]string, len(notify))
	for i, s := range notify {
		q[i] = tomlBasic(s)
	}
	return "notify = [" + strings.Join(q, ", ") + "]"
}

// InstallCodex sets Codex CLI's notify program in its config.toml at path
// (top-level `notify = [...]`) to notify. Codex runs one notify program:
// a file that names another is left unchanged and the error says so (the
// owner chains them by hand). Installing twice changes nothing. The rest
// of the file keeps its bytes; the line goes before the first table, where
// TOML wants top-level keys, and the result is decoded again and must
// mean the old file plus notify. A changed file is replaced atomically
// after its old bytes are copied to path+".bak"; a symlinked config.toml
// is written where the link points.
func InstallCodex(path string, notify []string) (CodexInstallResult, error) {
	res := CodexInstallResult{Path: path, Notify: notify}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	old, err := os.ReadFile(target)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, errcode.Wrap(errcode.IO, err, "read %s", path)
	}
	var before map[string]any
	if _, err := toml.Decode(string(old), &before); err != nil {
		return res, errcode.Errorf(errcode.InvalidArgument, "%s: not valid TOML (%v); not changed", path, err)
	}
	if cur, ok := before["notify"]; ok {
		if reflect.DeepEqual(cur, anyStrings(notify)) {
			return res, nil
		}
		return res, errcode.Errorf(errcode.InvalidArgument,
			"%s already runs another notify program (notify = %v) and Codex runs only one; not changed. "+
				"Remove it, or have that program also run the hook with the notification as its last argument: %s",
			path, cur, CodexNotifyLine(notify))
	}
	data := insertTopLevel(string(old), CodexNotifyLine(notify))
	var after map[string]any
	if _, err := toml.Decode(data, &after); err != nil {
		return res, errcode.Errorf(errcode.IO, "%s: the edit would not parse (%v); not changed; add by hand: %s", path, err, CodexNotifyLine(notify))
	}
	want := map[string]any{"notify": anyStrings(notify)}
	for k, v := range before {
		want[k] = v
	}
	if !reflect.DeepEqual(want, after) {
		return res, errcode.Errorf(errcode.IO, "%s: the edit would change more than notify; not changed; add by hand: %s", path, CodexNotifyLine(notify))
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return res, errcode.Wrap(errcode.IO, err, "create %s", filepath.Dir(target))
	}
	if exists {
		res.Backup = target + ".bak"
		if err := writeAtomic(res.Backup, old, mode); err != nil {
			return res, errcode.Wrap(errcode.IO, err, "back up %s", path)
		}
	}
	if err := writeAtomic(target, []byte(data), mode); err != nil {
		return res, errcode.Wrap(errcode.IO, err, "write %s", path)
	}
	res.Added = true
	return res, nil
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// insertTopLevel puts line before the first table header of the TOML text
// (outside strings and bracketed values), or at the end when there is
// none, in the file's own line ends.
func insertTopLevel(text, line string) string {
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	lines := strings.SplitAfter(text, "\n")
	depth, str := 0, ""
	for i, l := range lines {
		if depth == 0 && str == "" && strings.HasPrefix(strings.TrimSpace(l), "[") {
			return strings.Join(lines[:i], "") + line + nl + nl + strings.Join(lines[i:], "")
		}
		depth, str = scanTOMLLine(l, depth, str)
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += nl
	}
	return text + line + nl
}

// scanTOMLLine follows one line: the bracket depth of a value spanning
// lines, and the delimiter of an open multi-line string.
func scanTOMLLine(line string, depth int, str string) (int, string) {
	for i := 0; i < len(line); i++ {
		if str != "" {
			if strings.HasPrefix(line[i:], str) && (str == "'''" || i == 0 || line[i-1] != '\\') {
				i += len(str) - 1
				str = ""
			}
			continue
		}
		switch c := line[i]; c {
		case '#':
			return depth, str
		case '"', '\'':
			if delim := strings.Repeat(string(c), 3); strings.HasPrefix(line[i:], delim) {
				str = delim
				i += 2
				continue
			}
			for i++; i < len(line) && line[i] != c; i++ {
				if c == '"' && line[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return depth, str
}

// tomlBasic quotes s as a TOML basic string.
func tomlBasic(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// CodexConfigPath is Codex's config.toml under its home.
func CodexConfigPath(home string) string { return filepath.Join(home, "config.toml") }
