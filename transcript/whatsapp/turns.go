package whatsapp

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
)

// turns decides the date order, then gives every kept entry its id, time
// and parent, in file order, handing them to emit a chunk of about
// chunkBytes at a time (or keeping them all in the result when emit is
// nil). An entry's text is let go once its turn is made, so that a chunk
// the store has taken is freed.
func (p *parser) turns(chunkBytes int, emit func([]transcript.Turn) error) error {
	order := p.opts.DateOrder
	if order == DateOrderAuto {
		var err error
		if order, err = guessOrder(p.stamps, p.shape); err != nil {
			return &transcript.Error{File: p.name, Message: err.Error() + " (set the date order explicitly)"}
		}
	}
	session := p.opts.Session
	if session == "" {
		sum := sha256.Sum256([]byte(strings.Join(p.seed, "\n")))
		session = "wa-" + hex.EncodeToString(sum[:8])
	}
	title := p.opts.Title
	if title == "" {
		title = p.title
	}
	if title == "" {
		for _, s := range p.systemSenders {
			if !p.senders[s] {
				title = s // iOS writes a group's system lines under its name
				break
			}
		}
	}
	group := p.evidence || len(p.senders) >= 3
	if p.opts.Group != nil {
		group = *p.opts.Group
	}

	buf := chunks.Buffer{Emit: emit, Bytes: chunkBytes}
	if emit == nil {
		kept := 0
		for _, e := range p.entries {
			if e.content != "" {
				kept++
			}
		}
		buf.Turns = make([]transcript.Turn, 0, kept)
	}
	// An entry's ordinal within its second (or minute): a packed key, as
	// a long chat has as many as it has messages.
	seen := map[uint64]int{}
	parent := ""
	var id []byte
	for i, e := range p.entries {
		st := p.stamps[i]
		h := st.header(p.shape)
		y, m, d, err := resolve(h, order)
		if err != nil {
			return p.errorf(st.line, "%v", err)
		}
		k := uint64(y)<<40 | uint64(m)<<32 | uint64(d)<<24 | uint64(h.hour)<<16 | uint64(h.minute)<<8 | uint64(h.second)
		seen[k]++
		if e.content == "" {
			continue
		}
		p.entries[i] = entry{}
		// "20231231T2115-2", or with seconds "20231231T211507-2".
		id = appendPadded(id[:0], y, 4)
		id = appendPadded(id, m, 2)
		id = appendPadded(id, d, 2)
		id = append(id, 'T')
		id = appendPadded(id, h.hour, 2)
		id = appendPadded(id, h.minute, 2)
		if p.shape.seconds {
			id = appendPadded(id, h.second, 2)
		}
		id = append(id, '-')
		id = strconv.AppendInt(id, int64(seen[k]), 10)
		t := time.Date(y, time.Month(m), d, h.hour, h.minute, h.second, 0, p.opts.Location).UTC()
		if t.Year() < 1 || t.Year() > 9999 {
			return p.errorf(st.line, "time %s is out of range in UTC", t)
		}
		sid := string(id)
		if err := buf.Add(transcript.Turn{
			Provider: Provider, Session: session, ID: sid, Parent: parent,
			Role: transcript.RoleUser, Content: e.content, SpeakerDisplay: e.sender,
			Time: t, Group: group, Title: title,
		}); err != nil {
			return err
		}
		parent = sid
	}
	if emit == nil {
		p.res.Turns = buf.Turns
		return nil
	}
	return buf.Flush()
}

// appendPadded appends n in decimal, zero-padded to width digits, as
// fmt's %0*d does for the non-negative numbers of a date.
func appendPadded(b []byte, n, width int) []byte {
	var digits [20]byte
	s := strconv.AppendInt(digits[:0], int64(n), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
