package config

import (
	"os"
	"path/filepath"
	"testing"

	"scriptorium/errcode"
)

// TestSetOwnerName: the name is written where it belongs and nothing else
// of the file changes; a file it cannot edit safely is left as it was.
func TestSetOwnerName(t *testing.T) {
	for _, c := range []struct{ name, before, after string }{
		{"NoFile", "", "[owner]\nname = \"Sigrid \\\"Siggi\\\" H\"\n"},
		{"Append", "# mine\n[model]\nname = \"m\"", "# mine\n[model]\nname = \"m\"\n\n[owner]\nname = \"Sigrid \\\"Siggi\\\" H\"\n"},
		{"Replace", "[owner] # me\nname = \"Old\" # was\n\n[model]\nname = \"m\"\n", "[owner] # me\nname = \"Sigrid \\\"Siggi\\\" H\"\n\n[model]\nname = \"m\"\n"},
		{"Insert", "[owner]\n\n[model]\nname = \"m\"\n", "[owner]\nname = \"Sigrid \\\"Siggi\\\" H\"\n\n[model]\nname = \"m\"\n"},
		{"CRLF", "[model]\r\nname = \"m\"\r\n", "[model]\r\nname = \"m\"\r\n\r\n[owner]\r\nname = \"Sigrid \\\"Siggi\\\" H\"\r\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "config.toml")
			if c.before != "" {
				if err := os.WriteFile(p, []byte(c.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := SetOwnerName(p, `Sigrid "Siggi" H`); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(p)
			if string(got) != c.after {
				t.Errorf("config.toml\n%q\nwant\n%q", got, c.after)
			}
			if cfg, err := Load(p); err != nil || cfg.Owner.Name != `Sigrid "Siggi" H` {
				t.Errorf("Load: %+v, %v", cfg.Owner, err)
			}
		})
	}
	// Dotted keys: the line scan would add a second owner table; refused.
	p := filepath.Join(t.TempDir(), "config.toml")
	dotted := "owner.name = \"Old\"\n"
	if err := os.WriteFile(p, []byte(dotted), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := SetOwnerName(p, "Sigrid"); errcode.As(err).Code != errcode.InvalidArgument {
		t.Errorf("dotted keys: %v", err)
	}
	if got, _ := os.ReadFile(p); string(got) != dotted {
		t.Errorf("a refused edit changed the file: %q", got)
	}
	if err := SetOwnerName(p, "[x](y)"); errcode.As(err).Code != errcode.InvalidArgument {
		t.Errorf("a bad name: %v", err)
	}
}
