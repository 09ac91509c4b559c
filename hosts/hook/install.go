package hook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"scriptorium/errcode"
	"strings"
)

// InstallResult is what Install did.
type InstallResult struct {
	Path   string   `json:"path"`          // the settings file
	Added  []string `json:"added"`         // events that got the hook; empty when all had it
	Backup string   `json:"backup"`        // the copy of the old file, "" when none was needed
	URL    string   `json:"url,omitempty"` // where the prompt hook posts (--http), "" for a command
}

// Install is InstallPlan of the command form: every event runs command;
// groups running one of replaces are replaced by it.
func Install(path, command string, replaces ...string) (InstallResult, error) {
	return InstallPlan(path, Plan{Command: command, Replaces: replaces})
}

// InstallPlan merges the plan's hook entries into the Claude Code
// settings file at path: each of Events gets one group unless one of its
// groups already runs exactly the plan's handler for it, so installing
// twice adds nothing.
// Everything else in the file keeps its keys, order and values. A changed
// file is replaced atomically after its old bytes are copied to a backup
// that no later install overwrites: path+".bak" the first time, then
// ".bak.1", ".bak.2"… (the newest backup is reused when it already holds
// the same bytes). A read-only settings file is refused, unchanged: its
// owner made it so on purpose, and a rename would replace it all the same.
// A symlinked settings file (a dotfiles checkout) is written where the
// link points, so the link survives.
func InstallPlan(path string, p Plan) (InstallResult, error) {
	res := InstallResult{Path: path, Added: []string{}, URL: p.URL}
	target := path
	if real, err := filepath.EvalSymlinks(path); err == nil {
		target = real
	}
	old, err := os.ReadFile(target)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, errcode.Wrap(errcode.IO, err, "read %s", path)
	}
	data, added, err := mergeSettings(old, p)
	if err != nil {
		return res, errcode.Errorf(errcode.InvalidArgument, "%s: %v; not changed", path, err)
	}
	if len(added) == 0 {
		return res, nil
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(target); err == nil {
		mode = fi.Mode().Perm()
		if mode&0o222 == 0 {
			return res, errcode.Errorf(errcode.IO, "%s is read-only (mode %04o): not changed; make it writable, or add the hook by hand (hook install claude-code --print)", path, mode)
		}
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return res, errcode.Wrap(errcode.IO, err, "create %s", filepath.Dir(target))
	}
	if exists {
		bak, fresh, err := backupPath(target, old)
		if err != nil {
			return res, errcode.Wrap(errcode.IO, err, "back up %s", path)
		}
		res.Backup = bak
		if fresh {
			if err := writeAtomic(bak, old, mode); err != nil {
				return res, errcode.Wrap(errcode.IO, err, "back up %s", path)
			}
		}
	}
	if err := writeAtomic(target, data, mode); err != nil {
		return res, errcode.Wrap(errcode.IO, err, "write %s", path)
	}
	res.Added = added
	return res, nil
}

// backupPath is where the old bytes of target go: the first of
// target.bak, target.bak.1, target.bak.2… that does not exist (fresh), or
// the last existing one when it holds exactly old already.
func backupPath(target string, old []byte) (path string, fresh bool, err error) {
	last := ""
	for i := 0; ; i++ {
		p := target + ".bak"
		if i > 0 {
			p += fmt.Sprintf(".%d", i)
		}
		_, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			if last != "" {
				if data, err := os.ReadFile(last); err == nil && string(data) == string(old) {
					return last, false, nil
				}
			}
			return p, true, nil
		}
		if err != nil {
			return "", false, err
		}
		last = p
	}
}

// writeAtomic replaces target with data: a temp file in the same
// directory, fsynced, renamed over target, the directory fsynced. Claude
// Code reads the file at any moment; it must never see half of it.
func writeAtomic(target string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(target)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // best effort: the rename is done either way
		d.Close()
	}
	return nil
}

// ClientCommand is the hook command for the small client
// cmd/scriptorium-hook at client (which runs `scriptorium hook …` for
// whatever it does not answer itself).
func ClientCommand(client, stateDir string) string {
	parts := []string{shellQuote(client), "claude-code"}
	if stateDir != "" {
		parts = append(parts, "--state", shellQuote(stateDir))
	}
	return strings.Join(parts, " ")
}

// Command is the shell command the settings run: the binary, the verb and,
// when the state dir was chosen on the install command line, --state with
// its absolute path (hooks run in the project's directory, not this one).
func Command(binary, stateDir string) string {
	parts := []string{shellQuote(binary), "hook", "claude-code"}
	if stateDir != "" {
		parts = append(parts, "--state", shellQuote(stateDir))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for sh when it holds anything but safe characters:
// Claude Code runs the command through a shell.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_@%+=:,./-", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// SettingsPath is the Claude Code settings file of a scope: "user" is
// ~/.claude/settings.json, "project" is .claude/settings.json under dir.
func SettingsPath(scope, home, dir string) (string, error) {
	switch scope {
	case "user":
		if home == "" {
			return "", fmt.Errorf("no home directory for ~/.claude/settings.json")
		}
		return filepath.Join(home, ".claude", "settings.json"), nil
	case "project":
		return filepath.Join(dir, ".claude", "settings.json"), nil
	}
	return "", fmt.Errorf("unknown settings scope %q (want user or project)", scope)
}
