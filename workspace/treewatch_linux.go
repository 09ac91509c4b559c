package workspace

import (
	"io/fs"
	"path/filepath"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TreeWatch is an inotify instance over some directory trees, read
// without blocking: a long-lived engine drains it before each read and
// reuses its snapshot while no event moved the generation (the engine's
// snapshot_watch.go says why). The zero value is a watch that is off.
type TreeWatch struct {
	mu    sync.Mutex
	fd    int
	ok    bool
	gen   uint64
	dirs  map[int32]string // watch descriptor → directory
	roots map[int32]bool   // the trees' own roots
	buf   []byte
}

const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_MOVED_FROM |
	unix.IN_MOVED_TO | unix.IN_CREATE | unix.IN_DELETE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

// Start watches root/sub for each sub; on any failure the watch is off.
func (c *TreeWatch) Start(root string, subs ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return
	}
	c.fd, c.dirs, c.roots, c.buf = fd, map[int32]string{}, map[int32]bool{}, make([]byte, 64*1024)
	for _, sub := range subs {
		if !c.addTree(filepath.Join(root, sub), true) {
			c.closeLocked()
			return
		}
	}
	c.ok = true
}

// addTree watches dir and every directory below it.
func (c *TreeWatch) addTree(dir string, root bool) bool {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			wd, err := unix.InotifyAddWatch(c.fd, p, watchMask)
			if err != nil {
				return err
			}
			c.dirs[int32(wd)] = p
			if root && p == dir {
				c.roots[int32(wd)] = true
			}
		}
		return nil
	})
	return err == nil
}

// Poll drains the queued events and returns the generation (moved by
// every event) and whether the watch can be trusted.
func (c *TreeWatch) Poll() (uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.ok {
		n, err := unix.Read(c.fd, c.buf)
		if err == unix.EAGAIN || err == unix.EINTR {
			break
		}
		if err != nil || n <= 0 {
			c.ok = false
			break
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&c.buf[off]))
			name := ""
			if ev.Len > 0 {
				raw := c.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				for i, b := range raw {
					if b == 0 {
						raw = raw[:i]
						break
					}
				}
				name = string(raw)
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			c.gen++
			switch {
			case ev.Mask&unix.IN_Q_OVERFLOW != 0, ev.Mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0 && c.roots[ev.Wd]:
				c.ok = false // events were lost, or a watched root went away
			case ev.Mask&unix.IN_ISDIR != 0 && ev.Mask&(unix.IN_CREATE|unix.IN_MOVED_TO) != 0:
				// A directory made or moved in: watch it and everything in it.
				if dir, ok := c.dirs[ev.Wd]; ok && !c.addTree(filepath.Join(dir, name), false) {
					c.ok = false
				}
			case ev.Mask&unix.IN_IGNORED != 0:
				delete(c.dirs, ev.Wd)
				delete(c.roots, ev.Wd)
			}
		}
	}
	return c.gen, c.ok
}

func (c *TreeWatch) closeLocked() {
	if c.dirs != nil {
		unix.Close(c.fd)
		c.dirs = nil
	}
	c.ok = false
}

// Close ends the watch; Poll then reports it untrusted.
func (c *TreeWatch) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closeLocked()
}
