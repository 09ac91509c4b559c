package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/errcode"
)

// TestSaveTrust: the [trust.<provider>] table is written where it stands or
// added at the end; every other byte of the file stays.
func TestSaveTrust(t *testing.T) {
	tg := map[string]TrustLists{"telegram": {Owner: []string{"user1"}, Paired: []string{"user2", `Ana "A" \ B`}}}
	cases := []struct {
		name, before, after string
		tables              map[string]TrustLists
	}{
		{"new file", "", "[trust.telegram]\nowner = [\"user1\"]\npaired = [\"user2\", \"Ana \\\"A\\\" \\\\ B\"]\n", tg},
		{"appended after the owner's comments",
			"# my config\n[model]\nprovider = \"offline\" # for now\n",
			"# my config\n[model]\nprovider = \"offline\" # for now\n\n[trust.telegram]\nowner = [\"user1\"]\npaired = [\"user2\", \"Ana \\\"A\\\" \\\\ B\"]\n", tg},
		{"replaced in place, multi-line arrays and comments kept around",
			"[trust.telegram] # who is who\nowner = [\n  \"old\", # me\n]\n# keep this\npaired = [\"x\"]\n\n[trust.slack]\nowner = [\"U1\"]\n",
			"[trust.telegram] # who is who\nowner = [\"user1\"]\npaired = [\"user2\", \"Ana \\\"A\\\" \\\\ B\"]\n# keep this\n\n[trust.slack]\nowner = [\"U1\"]\n", tg},
		{"quoted header, CRLF",
			"[trust.\"whatsapp\"]\r\nowner = [\"Ana\"]\r\n",
			"[trust.\"whatsapp\"]\r\nowner = [\"Ana\", \"Bo\"]\r\npaired = []\r\n",
			map[string]TrustLists{"whatsapp": {Owner: []string{"Ana", "Bo"}, Paired: []string{}}}},
		{"a provider name that needs quotes",
			"",
			"[trust.\"odd.provider\"]\nowner = [\"a\"]\npaired = []\n",
			map[string]TrustLists{"odd.provider": {Owner: []string{"a"}, Paired: []string{}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.toml")
			if c.before != "" {
				write(t, path, []byte(c.before))
				if err := os.Chmod(path, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := saveTrust(path, c.tables); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != c.after {
				t.Errorf("config.toml\n%q\nwant\n%q", got, c.after)
			}
			if fi, _ := os.Stat(path); c.before != "" && fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
			}
			// Saving the same lists again changes nothing.
			if err := saveTrust(path, c.tables); err != nil {
				t.Fatal(err)
			}
			if again, _ := os.ReadFile(path); string(again) != c.after {
				t.Errorf("second save\n%q", again)
			}
		})
	}
}

// TestSaveTrust_Refused: a trust table written as dotted keys or an inline
// table, a broken file, or one the configuration cannot read, is left as it was, and the error says what to
// add by hand.
func TestSaveTrust_Refused(t *testing.T) {
	for name, before := range map[string]string{
		"dotted keys":  "trust.telegram.owner = [\"x\"]\n",
		"inline table": "[trust]\ntelegram = { owner = [\"x\"] }\n",
		"broken file":  "[trust.telegram\nowner = 1\n",
		// Valid TOML the configuration cannot read (found by FuzzSetTrustTable).
		"a provider that is no table": "[trust]\nd = []\n",
	} {
		path := write(t, filepath.Join(t.TempDir(), "config.toml"), []byte(before))
		err := saveTrust(path, map[string]TrustLists{"telegram": {Owner: []string{"user1"}, Paired: []string{}}})
		e := errcode.As(err)
		if e == nil || e.Code != errcode.InvalidArgument {
			t.Errorf("%s: %v", name, err)
		} else if name != "broken file" && name != "a provider that is no table" && !strings.Contains(e.Message, "[trust.telegram]\nowner = [\"user1\"]") {
			t.Errorf("%s: the message does not say what to add: %s", name, e.Message)
		}
		if got, _ := os.ReadFile(path); string(got) != before {
			t.Errorf("%s: the file changed to %q", name, got)
		}
	}
}
