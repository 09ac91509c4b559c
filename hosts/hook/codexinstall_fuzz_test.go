package hook

import (
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzInsertTopLevel: the edit only ever adds the notify line (and a
// blank line, or the final line end the file lacked): every byte of the
// owner's config.toml stays, in order; and when the file has no table the
// result means the old file plus notify.
func FuzzInsertTopLevel(f *testing.F) {
	for _, s := range []string{"", "model = \"o3\"\n", "a = 1\n[t]\nb = 2\n", "x = [\n  1,\n]\n[t]\n", "s = \"\"\"\n[no]\n\"\"\"\n[t]\n", "# c\r\n[t]\r\nk = 'v'\r\n", "k = 1"} {
		f.Add(s)
	}
	line := CodexNotifyLine([]string{"/bin/scriptorium", "hook", "codex"})
	f.Fuzz(func(t *testing.T, text string) {
		if strings.Contains(text, line) {
			return
		}
		out := insertTopLevel(text, line)
		i := strings.Index(out, line)
		if i < 0 {
			t.Fatalf("no notify line in\n%q", out)
		}
		rest := out[i+len(line):]
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, "\r\n"), "\n")
		if i == len(text) || i == len(text)+1 || i == len(text)+2 { // appended at the end
			if !strings.HasPrefix(out, text) || rest != "" {
				t.Fatalf("append changed the file:\n%q\n%q", text, out)
			}
			var before, after map[string]any
			if _, err := toml.Decode(text, &before); err == nil && before["notify"] == nil && !strings.Contains(text, "[") {
				if _, err := toml.Decode(out, &after); err != nil {
					t.Fatalf("the appended line does not parse: %v\n%q", err, out)
				}
				before["notify"] = []any{"/bin/scriptorium", "hook", "codex"}
				if !reflect.DeepEqual(before, after) {
					t.Fatalf("decoded %v, want %v", after, before)
				}
			}
			return
		}
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, "\r\n"), "\n")
		if out[:i]+rest != text {
			t.Fatalf("the edit changed bytes of the file:\n%q\n%q", text, out)
		}
	})
}
