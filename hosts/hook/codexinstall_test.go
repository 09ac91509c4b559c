package hook_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"scriptorium/errcode"
	"scriptorium/hosts/hook"
)

// TestInstallCodex: notify goes before the first table of Codex's
// config.toml (or into a new file); everything else keeps its bytes, the
// old file is backed up, the mode kept, and a second install changes
// nothing.
func TestInstallCodex(t *testing.T) {
	notify := hook.CodexNotify("/opt/bin/scriptorium", "/home/mara/.openprogram")
	line := `notify = ["/opt/bin/scriptorium", "hook", "codex", "--state", "/home/mara/.openprogram"]`
	cases := []struct{ name, before, after string }{
		{"new file", "", line + "\n"},
		{"keys and tables",
			"# Codex\nmodel = \"gpt-5-codex\"\ninstructions = \"\"\"\n[not a table]\n\"\"\"\n\n[mcp_servers.docs]\ncommand = \"docs\"\n",
			"# Codex\nmodel = \"gpt-5-codex\"\ninstructions = \"\"\"\n[not a table]\n\"\"\"\n\n" + line + "\n\n[mcp_servers.docs]\ncommand = \"docs\"\n"},
		{"keys only, no final newline, CRLF", "model = \"o3\"\r\napproval_policy = \"on-request\"",
			"model = \"o3\"\r\napproval_policy = \"on-request\"\r\n" + line + "\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".codex", "config.toml")
			if c.before != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(c.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			res, err := hook.InstallCodex(path, notify)
			if err != nil || !res.Added {
				t.Fatalf("InstallCodex = %+v, %v", res, err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != c.after {
				t.Errorf("config.toml\n%q\nwant\n%q", got, c.after)
			}
			if c.before != "" {
				if bak, _ := os.ReadFile(res.Backup); string(bak) != c.before || res.Backup != path+".bak" {
					t.Errorf("backup %s holds %q", res.Backup, bak)
				}
				if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
					t.Errorf("mode %v", fi.Mode().Perm())
				}
			}
			again, err := hook.InstallCodex(path, notify)
			if err != nil || again.Added {
				t.Errorf("second install %+v, %v", again, err)
			}
			if now, _ := os.ReadFile(path); string(now) != c.after {
				t.Errorf("the second install changed the file: %q", now)
			}
		})
	}
}

// TestInstallCodex_AnotherNotify: Codex runs one notify program; another
// one is never replaced, and the error says what to chain.
func TestInstallCodex_AnotherNotify(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	before := "notify = [\"notify-send\", \"Codex\"]\n"
	if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := hook.InstallCodex(path, hook.CodexNotify("/opt/bin/scriptorium", ""))
	e := errcode.As(err)
	if err == nil || e.Code != errcode.InvalidArgument || !strings.Contains(e.Message, "notify-send") ||
		!strings.Contains(e.Message, `notify = ["/opt/bin/scriptorium", "hook", "codex"]`) {
		t.Fatalf("InstallCodex: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != before {
		t.Errorf("the file changed: %q", got)
	}
	if _, err := os.Stat(path + ".bak"); !os.IsNotExist(err) {
		t.Error("a refused install left a backup")
	}
	broken := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(broken, []byte("model = \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hook.InstallCodex(broken, hook.CodexNotify("/x", "")); errcode.As(err).Code != errcode.InvalidArgument {
		t.Errorf("broken TOML: %v", err)
	}
}
