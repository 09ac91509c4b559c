package workspace

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"scriptorium/errcode"
)

// Watch reports changes to the workspace at root (whose state dir is
// stateDir) made by any process: installs (the revision file), promotions
// (derived views are rewritten), hand edits under topics/ and sources/,
// and edits of config.toml. Bursts are coalesced: one value per quiet
// period of debounce. The channel closes when ctx ends.
func Watch(ctx context.Context, root, stateDir string, debounce time.Duration) (<-chan struct{}, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "watch workspace")
	}
	state := stateDir
	// The state dir itself only for config.toml: a new budget re-renders
	// core.md in a running TUI.
	dirs := []string{root, filepath.Join(root, MetaDir), state}
	for _, sub := range []string{"topics", "sources"} {
		_ = filepath.WalkDir(filepath.Join(root, sub), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, p)
			}
			return nil
		})
	}
	for _, d := range dirs {
		_ = w.Add(d) // a folder that does not exist yet is picked up on create
	}
	out := make(chan struct{}, 1)
	go func() {
		defer close(out)
		defer w.Close()
		var timer <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if ev.Op&fsnotify.Create != 0 {
					if isDir(ev.Name) && !strings.Contains(ev.Name, string(filepath.Separator)+"runtime") {
						_ = w.Add(ev.Name)
					}
				}
				if filepath.Dir(ev.Name) == filepath.Clean(state) && filepath.Base(ev.Name) != "config.toml" {
					continue // sessions.db and its journal: conversations, not memory
				}
				if strings.Contains(ev.Name, string(filepath.Separator)+"runtime") ||
					strings.HasSuffix(ev.Name, "-wal") || strings.HasSuffix(ev.Name, "-shm") ||
					strings.Contains(ev.Name, string(filepath.Separator)+"index") {
					continue // our own scratch files and caches, not changes of memory
				}
				timer = time.After(debounce)
			case <-w.Errors:
			case <-timer:
				timer = nil
				select {
				case out <- struct{}{}:
				default:
				}
			}
		}
	}()
	return out, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
