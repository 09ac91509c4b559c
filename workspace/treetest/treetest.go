// Package treetest copies and compares workspace trees on disk for tests:
// fixtures are copied before a workspace is opened (opening creates
// .scriptorium/), and "nothing changed" is checked by comparing digests of
// every file before and after.
package treetest

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// CopyTree copies the directory tree src to dst; symlinks are copied as
// symlinks, never followed.
func CopyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.IsDir():
			return os.MkdirAll(target, 0o700) // a memory is private, as the engine makes it
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o600)
	})
}

// State maps every file under dir (slash paths) to a digest of its bytes,
// and every symlink to "symlink:" + its target. Top-level names in skip are
// not walked. Directories are not part of the state: opening a workspace
// creates empty ones, and git keeps none.
func State(dir string, skip ...string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		for _, s := range skip {
			if rel == s {
				return filepath.SkipDir
			}
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "symlink:" + link
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			out[rel] = hex.EncodeToString(sum[:])
		}
		return nil
	})
	return out, err
}

// Diff lists how two states differ, one sorted line per path ("+ " only
// in b, "- " only in a, "~ " changed); "" when they are equal.
func Diff(a, b map[string]string) string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, "- "+k)
		} else if w != v {
			out = append(out, "~ "+k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "+ "+k)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][2:] < out[j][2:] })
	return strings.Join(out, "\n")
}
