package workspace

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// StateEnv is the environment variable that names the state directory when
// --state is not given.
const StateEnv = "SCRIPTORIUM_STATE"

// defaultStateName is the state directory under the home directory; a
// profile appends "-NAME".
const defaultStateName = ".openprogram"

// ResolveStateDir picks the state directory (SPEC §2). In order:
//
//  1. flagState (--state DIR);
//  2. profile (--profile NAME) selects home/.openprogram-NAME;
//  3. $SCRIPTORIUM_STATE (read through getenv);
//  4. home/.openprogram.
//
// Giving both --state and --profile is an error (ErrConflictingFlags):
// they name two different directories and silently dropping one could make
// a user write into the memory they did not mean. --profile beats the
// environment variable because an explicit flag beats ambient
// configuration. An empty flag or variable counts as not given. A leading
// "~" or "~/" in --state or $SCRIPTORIUM_STATE expands to home (flags such
// as --state=~/x reach us unexpanded by the shell). The result is cleaned
// and absolute. The profile name must be a safe path segment
// (CheckSegment).
func ResolveStateDir(flagState, profile string, getenv func(string) string, home string) (string, error) {
	if flagState != "" && profile != "" {
		return "", ErrConflictingFlags
	}
	if flagState != "" {
		return stateFromPath(flagState, home)
	}
	if profile != "" {
		if err := CheckSegment(profile); err != nil {
			return "", fmt.Errorf("profile: %w", err)
		}
		if home == "" {
			return "", fmt.Errorf("profile %q: %w", profile, ErrNoHome)
		}
		return absClean(filepath.Join(home, defaultStateName+"-"+profile))
	}
	if getenv != nil {
		if env := getenv(StateEnv); env != "" {
			return stateFromPath(env, home)
		}
	}
	if home == "" {
		return "", fmt.Errorf("default state directory: %w", ErrNoHome)
	}
	return absClean(filepath.Join(home, defaultStateName))
}

// stateFromPath expands a leading ~ and makes p absolute.
func stateFromPath(p, home string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		if home == "" {
			return "", fmt.Errorf("expand %q: %w", p, ErrNoHome)
		}
		p = filepath.Join(home, p[1:])
	}
	return absClean(p)
}

func absClean(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("state directory %q: %w", p, err)
	}
	return abs, nil
}

// MemoryDir returns the memory workspace inside a state directory.
func MemoryDir(state string) string { return filepath.Join(state, "memory") }

// SessionsDB returns the conversation store inside a state directory.
func SessionsDB(state string) string { return filepath.Join(state, "sessions.db") }

// ConfigPath returns the optional configuration file inside a state directory.
func ConfigPath(state string) string { return filepath.Join(state, "config.toml") }

// SupersededDir returns the directory that receives the old layout moved
// out of the memory workspace: a sibling of memory/, so nothing moved there
// is ever listed as memory content again.
func SupersededDir(state string) string { return filepath.Join(state, "memory-superseded") }

// CheckSegment reports whether name is usable as one path segment: a
// profile, provider or thread name. It rejects the empty name, "." and
// "..", any "/", "\", ".." or NUL, control characters (C0, DEL, C1) and
// invalid UTF-8. The returned error wraps ErrUnsafeName.
func CheckSegment(name string) error {
	bad := func(why string) error { return fmt.Errorf("%w: %q %s", ErrUnsafeName, name, why) }
	switch {
	case name == "":
		return bad("is empty")
	case !utf8.ValidString(name):
		return bad("is not valid UTF-8")
	case strings.Contains(name, ".."):
		return bad(`contains ".."`)
	case name == ".":
		return bad("is the current directory")
	case strings.ContainsAny(name, `/\`):
		return bad("contains a path separator")
	}
	for _, r := range name {
		if r == 0 || unicode.IsControl(r) {
			return bad("contains a control character")
		}
	}
	return nil
}
