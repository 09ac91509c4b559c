// Package filewatch tells a long-lived holder when named files of one
// directory change, through the OS's file events instead of a poll: a
// process left up all day must cost nothing while nothing happens
// (BENCHMARKS.md, "A resident serve at rest").
package filewatch

import (
	"path/filepath"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Watch reports on changed whenever one of names in dir is created,
// written, removed, renamed or has its times set by any process of this
// machine, and when dir itself goes or the OS dropped events: the caller
// looks at the files again, so a report never means more than "look".
// Reports coalesce while one is unread. stop ends the watch and closes
// nothing the caller owns. An error means the OS cannot watch dir; the
// caller polls instead.
func Watch(dir string, names ...string) (changed <-chan struct{}, stop func(), err error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, nil, err
	}
	if err := w.Add(dir); err != nil {
		_ = w.Close()
		return nil, nil, err
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	self := filepath.Clean(dir)
	out := make(chan struct{}, 1)
	report := func() {
		select {
		case out <- struct{}{}:
		default:
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if filepath.Clean(ev.Name) == self || want[filepath.Base(ev.Name)] {
					report()
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				report() // an overflow: events were lost
			}
		}
	}()
	var once sync.Once
	return out, func() {
		once.Do(func() {
			_ = w.Close()
			<-done
		})
	}, nil
}
