package hook_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scriptorium/errcode"
	"scriptorium/hosts/hook"
)

var update = flag.Bool("update", false, "rewrite golden files")

// testCommand is the command the install tests register.
const testCommand = "/usr/local/bin/scriptorium hook claude-code"

// settingsGroups decodes the command hooks of every event of a settings file.
func settingsGroups(t *testing.T, data []byte) map[string][]string {
	t.Helper()
	var s struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("settings: %v\n%s", err, data)
	}
	out := map[string][]string{}
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				out[ev] = append(out[ev], h.Command)
			}
		}
	}
	return out
}

// TestInstall_Merge: the user's settings and hooks stay byte for byte (the
// golden file is the old file plus our groups), ours are added after
// theirs, the old file is kept as .bak, and a second install adds nothing.
func TestInstall_Merge(t *testing.T) {
	old, err := os.ReadFile("testdata/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := hook.Install(path, testCommand)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Added, hook.Events) || res.Backup != path+".bak" {
		t.Errorf("result %+v", res)
	}
	got, _ := os.ReadFile(path)
	golden := "testdata/settings.merged.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("merged settings differ from %s:\n%s", golden, got)
	}
	// Every line of the old file is still there, in order (a closing brace
	// may have gained the comma before our group).
	gotLines := strings.Split(string(got), "\n")
	i := 0
	for _, l := range strings.Split(string(old), "\n") {
		for i < len(gotLines) && gotLines[i] != l && gotLines[i] != l+"," {
			i++
		}
		if i == len(gotLines) {
			t.Fatalf("old line %q is gone or moved", l)
		}
		i++
	}
	groups := settingsGroups(t, got)
	if !slices.Equal(groups["Stop"], []string{"notify-send 'Claude is done'", testCommand}) ||
		!slices.Equal(groups["PreToolUse"], []string{"~/.claude/hooks/check-bash.sh"}) {
		t.Errorf("groups %v", groups)
	}
	for _, ev := range hook.Events {
		if n := slices.Index(groups[ev], testCommand); n < 0 {
			t.Errorf("%s does not run the hook", ev)
		}
	}
	if bak, _ := os.ReadFile(path + ".bak"); !bytes.Equal(bak, old) {
		t.Errorf(".bak is not the old file")
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old 0600", fi.Mode().Perm())
	}

	// Idempotent: nothing added, not a byte written, the backup kept.
	if err := os.WriteFile(path+".bak", []byte("first backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err = hook.Install(path, testCommand)
	if err != nil || len(res.Added) != 0 || res.Backup != "" {
		t.Errorf("second install: %+v, %v", res, err)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, got) {
		t.Errorf("second install changed the file")
	}
	if bak, _ := os.ReadFile(path + ".bak"); string(bak) != "first backup" {
		t.Errorf("second install replaced the backup")
	}
}

// TestInstall_NewFile: no settings file (nor ~/.claude) yet: one is made
// with the four events, and there is nothing to back up.
func TestInstall_NewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "settings.json")
	res, err := hook.Install(path, testCommand)
	if err != nil || res.Backup != "" || len(res.Added) != 4 {
		t.Fatalf("%+v, %v", res, err)
	}
	data, _ := os.ReadFile(path)
	if !bytes.Equal(data, hook.Snippet(hook.Plan{Command: testCommand})) {
		t.Errorf("new file differs from the --print snippet:\n%s", data)
	}
	groups := settingsGroups(t, data)
	for _, ev := range hook.Events {
		if !slices.Equal(groups[ev], []string{testCommand}) {
			t.Errorf("%s: %v", ev, groups[ev])
		}
	}
	if _, err := os.Stat(path + ".bak"); !os.IsNotExist(err) {
		t.Errorf("a new file got a backup")
	}
}

// TestInstall_PartlyInstalled: an event that already runs the command is
// left alone; the others get it.
func TestInstall_PartlyInstalled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	old := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"` + testCommand + `"}]}]}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := hook.Install(path, testCommand)
	if err != nil || !slices.Equal(res.Added, []string{"UserPromptSubmit", "PreCompact", "SessionEnd"}) {
		t.Fatalf("%+v, %v", res, err)
	}
	data, _ := os.ReadFile(path)
	if groups := settingsGroups(t, data); len(groups["Stop"]) != 1 {
		t.Errorf("Stop got a second copy: %v", groups["Stop"])
	}
}

// TestInstall_ReplacesTheOtherForm: installing the small client's command
// over the CLI's (or back) replaces the groups install added, so a prompt
// never runs both; a group of the user's that runs the old command beside
// another hook is theirs, left as it is; installing again adds nothing.
func TestInstall_ReplacesTheOtherForm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	client := hook.ClientCommand("/usr/local/bin/scriptorium-hook", "")
	mine := `{"type":"command","command":"notify-send hi"}`
	old := `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"` + testCommand + `"},` + mine + `]}]}}`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hook.Install(path, testCommand); err != nil {
		t.Fatal(err)
	}
	res, err := hook.Install(path, client, testCommand)
	if err != nil || !slices.Equal(res.Added, hook.Events) {
		t.Fatalf("%+v, %v", res, err)
	}
	data, _ := os.ReadFile(path)
	groups := settingsGroups(t, data)
	for _, ev := range hook.Events {
		want := []string{client}
		if ev == "Stop" {
			want = []string{testCommand, "notify-send hi", client}
		}
		if !slices.Equal(groups[ev], want) {
			t.Errorf("%s runs %q, want %q", ev, groups[ev], want)
		}
	}
	if res, err := hook.Install(path, client, testCommand); err != nil || len(res.Added) != 0 {
		t.Errorf("installed twice: %+v, %v", res, err)
	}
	if _, err := hook.Install(path, testCommand, client); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if got := settingsGroups(t, data)["UserPromptSubmit"]; !slices.Equal(got, []string{testCommand}) {
		t.Errorf("back to the CLI: UserPromptSubmit runs %q", got)
	}
}

// TestInstall_Symlink: a settings file that is a symlink (dotfiles) is
// written through the link, which stays a link.
func TestInstall_Symlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "claude-settings.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("{\"model\": \"opus\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	res, err := hook.Install(link, testCommand)
	if err != nil || res.Backup != real+".bak" {
		t.Fatalf("%+v, %v", res, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	data, _ := os.ReadFile(real)
	if len(settingsGroups(t, data)["SessionEnd"]) != 1 || !strings.Contains(string(data), `"model": "opus"`) {
		t.Errorf("target file:\n%s", data)
	}
}

// TestInstall_Refuses: settings that are not JSON, or hooks of the wrong
// shape, are refused and left untouched.
func TestInstall_Refuses(t *testing.T) {
	for _, old := range []string{`{"model": "opus",}`, `[1,2]`, `{"hooks": []}`, `{"hooks": {"Stop": {"command": "x"}}}`, `{} {}`} {
		path := filepath.Join(t.TempDir(), "settings.json")
		if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := hook.Install(path, testCommand)
		if errcode.As(err).Code != errcode.InvalidArgument {
			t.Errorf("%s: err %v, want INVALID_ARGUMENT", old, err)
		}
		if data, _ := os.ReadFile(path); string(data) != old {
			t.Errorf("%s: file changed to %s", old, data)
		}
		if _, err := os.Stat(path + ".bak"); !os.IsNotExist(err) {
			t.Errorf("%s: a refused install left a backup", old)
		}
	}
}

// TestInstall_IndentKept: a file indented with tabs stays indented with tabs.
func TestInstall_IndentKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte("{\n\t\"model\": \"opus\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := hook.Install(path, testCommand); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"UserPromptSubmit\"") {
		t.Errorf("indent not kept:\n%s", data)
	}
}

// TestCommand: the command quotes what a shell would split or expand.
func TestCommand(t *testing.T) {
	cases := map[[2]string]string{
		{"/usr/local/bin/scriptorium", ""}:                  "/usr/local/bin/scriptorium hook claude-code",
		{"/Users/Mara Lind/bin/scriptorium", "/tmp/st"}:     "'/Users/Mara Lind/bin/scriptorium' hook claude-code --state /tmp/st",
		{"/opt/it's/scriptorium", "/home/m/.openprogram-w"}: `'/opt/it'\''s/scriptorium' hook claude-code --state /home/m/.openprogram-w`,
		{"/bin/scriptorium", "/tmp/$HOME"}:                  "/bin/scriptorium hook claude-code --state '/tmp/$HOME'",
	}
	for in, want := range cases {
		if got := hook.Command(in[0], in[1]); got != want {
			t.Errorf("Command(%q, %q) = %s, want %s", in[0], in[1], got, want)
		}
	}
	if got, want := hook.ClientCommand("/Users/Mara Lind/bin/scriptorium-hook", "/tmp/st"), "'/Users/Mara Lind/bin/scriptorium-hook' claude-code --state /tmp/st"; got != want {
		t.Errorf("ClientCommand = %s, want %s", got, want)
	}
}

// Issue 24: every install overwrote settings.json.bak, so the second
// install that changed anything lost the file as it was before the
// first. The first backup is kept; later ones are numbered.
func TestInstall_KeepsEveryBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	original := []byte(`{"theme": "dark"}` + "\n")
	if err := os.WriteFile(path, original, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := hook.Install(path, testCommand)
	if err != nil || res.Backup != path+".bak" {
		t.Fatalf("first install: %+v %v", res, err)
	}
	installed, _ := os.ReadFile(path)
	res, err = hook.Install(path, "/opt/other/scriptorium hook claude-code")
	if err != nil || res.Backup != path+".bak.1" {
		t.Fatalf("second install: %+v %v, want backup %s.bak.1", res, err, path)
	}
	if bak, _ := os.ReadFile(path + ".bak"); !bytes.Equal(bak, original) {
		t.Errorf(".bak is %q, want the file as it was before the first install", bak)
	}
	if bak, _ := os.ReadFile(path + ".bak.1"); !bytes.Equal(bak, installed) {
		t.Errorf(".bak.1 is %q, want the file before the second install", bak)
	}
	// Nothing to add: no backup at all.
	if res, err := hook.Install(path, testCommand); err != nil || res.Backup != "" {
		t.Errorf("idempotent install: %+v %v", res, err)
	}
}

// Issue 24: a read-only settings.json was replaced (a rename needs only
// the directory to be writable). It is refused, with nothing changed.
func TestInstall_RefusesReadOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	old := []byte(`{"theme": "dark"}` + "\n")
	if err := os.WriteFile(path, old, 0o444); err != nil {
		t.Fatal(err)
	}
	_, err := hook.Install(path, testCommand)
	if err == nil || !strings.Contains(err.Error(), "read-only") || !strings.Contains(err.Error(), path) {
		t.Fatalf("install over a read-only file: %v, want a refusal naming it", err)
	}
	if data, _ := os.ReadFile(path); !bytes.Equal(data, old) {
		t.Errorf("the read-only file changed: %q", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode %v", fi.Mode())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left beside it: %v", entries)
	}
}
