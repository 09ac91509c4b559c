package discord

// The second pass of StreamFiles over a channel several exports hold:
// merged as they are read, or whole.

import (
	"fmt"
	"io"
	"iter"

	"scriptorium/transcript"
)

// cursor reads one export of a merge, a message at a time.
type cursor struct {
	f    *exportFile
	rc   io.Closer
	next func() (*message, bool)
	stop func()
	err  error // the read's, once next is done
	idx  int   // of the next message
	head *message
}

// merge hands on the winning copies of a channel's exports in time, then
// id order: each export is in that order, so the next is one of their
// next winners.
func (s *folderStream) merge(c *chain, cf *channelFiles) error {
	curs := make([]*cursor, 0, len(cf.files))
	defer func() {
		for _, cur := range curs {
			cur.stop()
			cur.rc.Close()
		}
	}()
	for _, f := range cf.files {
		rc, err := s.open(f.index)
		if err != nil {
			return fmt.Errorf("%s: %w", f.display, err)
		}
		cur := &cursor{f: f, rc: rc}
		cur.next, cur.stop = iter.Pull(func(yield func(*message) bool) {
			ex := &export{}
			cur.err = read(newJSONFile(rc, f.display), ex, func(m *message) error {
				if !yield(m) {
					return errStopped
				}
				return nil
			})
			if cur.err == nil && ex.channel.ID != f.channel.ID {
				cur.err = changed(f)
			}
		})
		curs = append(curs, cur)
		if err := s.advance(c, cf, cur); err != nil {
			return err
		}
	}
	for {
		var low *cursor
		for _, cur := range curs {
			if cur.head != nil && (low == nil || compareMessages(cur.head, low.head) < 0) {
				low = cur
			}
		}
		if low == nil {
			return nil
		}
		if err := c.add(low.head); err != nil {
			return err
		}
		if err := s.advance(c, cf, low); err != nil {
			return err
		}
	}
}

// advance moves cur to its export's next winning copy (nil at its end),
// counting the copies it passes as duplicates.
func (s *folderStream) advance(c *chain, cf *channelFiles, cur *cursor) error {
	for {
		m, ok := cur.next()
		if !ok {
			cur.head = nil
			if cur.err != nil {
				return cur.err
			}
			if cur.idx != cur.f.messages {
				return changed(cur.f)
			}
			return nil
		}
		win, err := cf.wins(cur.f, cur.idx, m)
		if err != nil {
			return err
		}
		cur.idx++
		if win {
			cur.head = m
			return nil
		}
		c.res.Skip(ReasonDuplicate)
	}
}

// whole merges a channel's exports as ParseFiles does, holding them.
func (s *folderStream) whole(c *chain, cf *channelFiles) error {
	var total int64
	for _, f := range cf.files {
		total += f.bytes
	}
	if total > s.o.MaxWholeBytes {
		return &transcript.Error{File: s.name, Message: fmt.Sprintf(
			"the %d exports of channel %s must be merged whole (they are not each in time order, or are more than %d), "+
				"and hold more than %d MiB: import them one by one", len(cf.files), cf.info.channel.ID, maxMergeFiles, s.o.MaxWholeBytes>>20)}
	}
	exports := make([]*export, 0, len(cf.files))
	for _, f := range cf.files {
		ex, err := s.readWhole(f)
		if err != nil {
			return err
		}
		exports = append(exports, ex)
	}
	for _, m := range mergeCopies(exports, &c.res) {
		if err := c.add(m); err != nil {
			return err
		}
	}
	return nil
}

func (s *folderStream) readWhole(f *exportFile) (*export, error) {
	rc, err := s.open(f.index)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.display, err)
	}
	defer rc.Close()
	ex, err := readExport(newJSONFile(rc, f.display), f.order)
	if err == nil && (len(ex.messages) != f.messages || ex.channel.ID != f.channel.ID) {
		err = changed(f)
	}
	return ex, err
}
