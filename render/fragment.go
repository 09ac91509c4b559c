package render

import (
	"encoding/binary"
	"errors"
	"slices"
)

// FragmentVersion names the encoding of a fragment and the rendering it
// holds (excerpts, timeline items, event lines). Bump it whenever Set
// would render a topic's entries differently: a fragment saved by another
// version must never be merged (TestFragment_VersionGolden fails until it
// is bumped).
const FragmentVersion = 1

// errFragment is a fragment that does not decode: the caller renders the
// topic instead.
var errFragment = errors.New("render: malformed view fragment")

// AppendFragment appends to dst what the ViewSet holds for the topic at
// path (its trusted entries and their rendered lines), for SetFragment in
// another process (issue 26: a fresh process re-renders only the topics
// that changed). ok is false when path is not set.
func (v *ViewSet) AppendFragment(dst []byte, path string) (out []byte, ok bool) {
	vt, ok := v.files[path]
	if !ok {
		return dst, false
	}
	str := func(s string) { dst = binary.AppendUvarint(dst, uint64(len(s))); dst = append(dst, s...) }
	list := func(l []string) {
		dst = binary.AppendUvarint(dst, uint64(len(l)))
		for _, s := range l {
			str(s)
		}
	}
	dst = binary.AppendUvarint(dst, uint64(len(vt.entries)))
	for i := range vt.entries {
		e := &vt.entries[i]
		str(e.id)
		str(e.text)
		str(e.item)
		list(e.links)
		list(e.sources)
		list(e.dates)
		list(e.evs)
	}
	return dst, true
}

// SetFragment sets the topic at path from a fragment AppendFragment made
// of it: the ViewSet then holds what Set of that topic would have given.
// The entries' strings are substrings of frag, so a caller decoding many
// fragments of one string allocates no string per entry. A malformed
// fragment is an error and changes nothing.
func (v *ViewSet) SetFragment(path, frag string) error {
	vt := &vsTopic{path: path, events: map[string][]byte{}, lines: map[string][]byte{}}
	d := fragDecoder{s: frag}
	n := d.count()
	if d.err == nil {
		vt.entries = make([]vsEntry, 0, n)
	}
	for i := 0; i < n && d.err == nil; i++ {
		e := vsEntry{id: d.str(), text: d.str(), item: d.str(), links: d.list(), sources: d.list(), dates: d.list(), evs: d.list()}
		// Set gives a dated entry its item and one event line per date,
		// an undated one neither.
		if d.err == nil && (len(e.evs) != len(e.dates) || (len(e.dates) == 0) != (e.item == "") || e.id == "") {
			d.err = errFragment
		}
		if d.err != nil {
			break
		}
		for j, dt := range e.dates {
			vt.events[dt] = append(vt.events[dt], e.evs[j]...)
			vt.lines[dt] = append(vt.lines[dt], e.item...)
		}
		vt.entries = append(vt.entries, e)
	}
	if d.err == nil && d.s != "" {
		d.err = errFragment
	}
	if d.err != nil {
		return d.err
	}
	v.Remove(path)
	for dt := range vt.events {
		vt.dates = append(vt.dates, dt)
	}
	slices.Sort(vt.dates)
	v.files[path] = vt
	v.paths = insertString(v.paths, path)
	for _, dt := range vt.dates {
		v.addDatePath(dt, path)
	}
	v.eventsDirty = v.eventsDirty || len(vt.dates) > 0
	v.rel.addTopic(vt)
	return nil
}

type fragDecoder struct {
	s   string
	err error
}

func (d *fragDecoder) count() int {
	if d.err != nil {
		return 0
	}
	var n uint64
	for k := 0; k < len(d.s) && k < binary.MaxVarintLen64; k++ {
		c := d.s[k]
		n |= uint64(c&0x7f) << (7 * k)
		if c < 0x80 {
			if n > uint64(len(d.s)) { // every item takes at least a byte
				break
			}
			d.s = d.s[k+1:]
			return int(n)
		}
	}
	d.err = errFragment
	return 0
}

func (d *fragDecoder) str() string {
	n := d.count()
	if d.err != nil || n > len(d.s) {
		d.err = errFragment
		return ""
	}
	s := d.s[:n]
	d.s = d.s[n:]
	return s
}

func (d *fragDecoder) list() []string {
	n := d.count()
	if n == 0 {
		return nil
	}
	l := make([]string, 0, n)
	for i := 0; i < n && d.err == nil; i++ {
		l = append(l, d.str())
	}
	return l
}
