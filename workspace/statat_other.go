//go:build !linux

package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
)

// statAt is the lstat information of the entry name of the directory d
// (at path dir).
func statAt(_ *os.File, dir, name string) (fs.FileInfo, error) {
	return os.Lstat(filepath.Join(dir, name))
}
