package workspace

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TightenStateDir makes a state dir private when it is not: a state dir
// made before memories were private (or by hand) holds conversations
// readable by other users. When the state dir, its memory dir or the
// memory's .scriptorium is open to group or others, every directory and
// file under the state dir loses its group and other permissions (0755
// becomes 0700, 0644 becomes 0600); symlinks are not followed. notice
// says what was done ("" when nothing was loose): the caller shows it, a
// change to someone's files is never silent. A state dir that does not
// exist is left alone.
func TightenStateDir(stateDir string) (notice string, err error) {
	mem := MemoryDir(stateDir)
	loose := false
	for _, p := range []string{stateDir, mem, filepath.Join(mem, MetaDir)} {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		if fi.IsDir() && fi.Mode().Perm()&0o077 != 0 {
			loose = true
		}
	}
	if !loose {
		return "", nil
	}
	dirs, files := 0, 0
	err = filepath.WalkDir(stateDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		perm := fi.Mode().Perm()
		if perm&0o077 == 0 {
			return nil
		}
		if err := os.Chmod(p, perm&^0o077); err != nil {
			return err
		}
		if d.IsDir() {
			dirs++
		} else {
			files++
		}
		return nil
	})
	notice = fmt.Sprintf("%s was open to other users: tightened %d director%s and %d file%s to owner-only (a memory is private)",
		stateDir, dirs, plural(dirs, "y", "ies"), files, plural(files, "", "s"))
	if err != nil {
		return notice, fmt.Errorf("tighten %s: %w", stateDir, err)
	}
	return notice, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
