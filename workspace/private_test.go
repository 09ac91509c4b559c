package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// A memory copied or generated into a state dir (topics/ and sources/, no
// .scriptorium/ yet) is tightened by the first verb, before that verb
// records any signature; a memory/ holding neither is not ours.
func TestTightenStateDir_MemoryNotYetOpened(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dirs  []string
		wants bool
	}{
		{"topics", []string{"topics"}, true},
		{"sources", []string{"sources/telegram"}, true},
		{"opened", []string{MetaDir}, true},
		{"other", []string{"notes"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			mem := MemoryDir(state)
			dir := filepath.Join(mem, filepath.FromSlash(tc.dirs[0]))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, "a.md")
			if err := os.WriteFile(f, []byte("# A\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{state, mem, dir} {
				if err := os.Chmod(p, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			notice, err := TightenStateDir(state)
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm() == 0o600; got != tc.wants || (notice != "") != tc.wants {
				t.Errorf("file mode %v, notice %q; want tightened: %v", fi.Mode().Perm(), notice, tc.wants)
			}
		})
	}
}
