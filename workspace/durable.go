package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The durable steps of an install's journal: each leaves, after a crash
// at any point, either the old state or the new one, never a torn file.

// WriteSynced creates p (it must not exist) with data, fsynced, through
// fsys.
func WriteSynced(fsys FS, p string, data []byte) error {
	f, err := fsys.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, PrivateFile)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// MkdirAllSynced creates dir and its missing parents below root, fsyncing
// each new directory's parent so the new entries survive a crash.
func MkdirAllSynced(fsys FS, root, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir && strings.HasPrefix(parent, root) {
		if err := MkdirAllSynced(fsys, root, parent); err != nil {
			return err
		}
	}
	if err := fsys.Mkdir(dir, PrivateDir); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return fsys.SyncDir(parent)
}

// CopyInto puts src's bytes at target through a synced temp file beside
// target (a rename within one filesystem), then removes src: a rename
// that cannot cross filesystems, done so that a crash at any step leaves
// target old or new and src still there to replay.
func CopyInto(fsys FS, src, target string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	tmp, err := fsys.CreateTemp(filepath.Dir(target), ".tmp-"+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(PrivateFile)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = fsys.Rename(name, target)
	}
	if err != nil {
		_ = fsys.Remove(name)
		return err
	}
	if err := fsys.SyncDir(filepath.Dir(target)); err != nil {
		return err
	}
	return fsys.Remove(src)
}
