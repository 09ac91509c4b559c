package importer

import (
	"strings"
	"testing"
	"unicode"

	"github.com/BurntSushi/toml"
)

// FuzzLooksLike: any first bytes get a description, one line without control
// characters (it reaches the terminal), never empty.
func FuzzLooksLike(f *testing.F) {
	for _, s := range []string{"", "PK\x03\x04", "{\"a\":1,\"b\":[", "[{\"x\":1}]", "hello\nworld", "\x00\xff", "{\"a\":1}\n{\"b\":2}\n", "\xef\xbb\xbf[]", "0\r0", "say \x1b[31mred\x1b[0m\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		got := looksLike(head, int64(len(head)))
		if got == "" || strings.IndexFunc(got, unicode.IsControl) >= 0 {
			t.Fatalf("looksLike(%q) = %q", head, got)
		}
	})
}

// FuzzSetTrustTable: whatever config.toml holds, an edit that still
// decodes holds exactly the new lists and the rest of the old file; the
// check that guards saveTrust never lets another one through.
func FuzzSetTrustTable(f *testing.F) {
	for _, s := range []string{"", "[model]\nprovider = \"x\"\n", "[trust.telegram]\nowner = [\n\"a\",\n]\npaired = []\n[x]\ny=1\n",
		"a = \"\"\"\n[trust.telegram]\n\"\"\"\n", "[trust]\ntelegram = {owner=[\"x\"]}\n", "[trust.\"telegram\"] # c\nowner=['q']\n"} {
		f.Add(s, "user1")
	}
	f.Fuzz(func(t *testing.T, text, sender string) {
		var before map[string]any
		if _, err := toml.Decode(text, &before); err != nil {
			return
		}
		lists := TrustLists{Owner: []string{sender}, Paired: []string{}}
		tables := map[string]TrustLists{"telegram": lists}
		out, err := setTrustTable(text, "telegram", lists, before)
		if err != nil {
			return
		}
		if checkTrustEdit(before, out, tables) != nil {
			return // saveTrust refuses such an edit and changes nothing
		}
		var after struct {
			Trust map[string]TrustLists `toml:"trust"`
		}
		if _, err := toml.Decode(out, &after); err != nil {
			t.Fatalf("a checked edit does not decode: %v\n%s", err, out)
		}
		if got := after.Trust["telegram"]; len(got.Owner) != 1 || got.Owner[0] != sender {
			t.Fatalf("owner %v, want %q\n%s", got.Owner, sender, out)
		}
	})
}
