package claudecode

import (
	"encoding/binary"
	"errors"
	"sort"
)

// State is where a Stream of a transcript stopped: the byte offset just
// after the last whole line it read, that line's number, and what the
// lines read so far tell the lines after them (each line's nearest kept
// turn above it, which a later line's parentUuid may name). It is what a
// hook stores to import only what a transcript gained since.
type State struct {
	Offset int64
	Line   int
	seen   map[string]link
}

// stateVersion starts an encoded State; another version does not decode.
const stateVersion = 1

// flags of an encoded link.
const (
	flagDetached = 1 << iota
	flagKeptSelf // kept is the line's own uuid: a kept turn
	flagKeptNone // kept is "": nothing kept above
)

// MarshalBinary encodes the State compactly: sessions are written once
// and a kept turn's link is a flag. Entries are sorted, so the same State
// gives the same bytes.
func (s State) MarshalBinary() ([]byte, error) {
	sessions := map[string]uint64{"": 0}
	var names []string
	uuids := make([]string, 0, len(s.seen))
	for u, l := range s.seen {
		uuids = append(uuids, u)
		if _, ok := sessions[l.session]; !ok {
			names = append(names, l.session)
			sessions[l.session] = uint64(len(names))
		}
	}
	sort.Strings(uuids)
	b := []byte{stateVersion}
	b = binary.AppendUvarint(b, uint64(s.Offset))
	b = binary.AppendUvarint(b, uint64(s.Line))
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = appendString(b, n)
	}
	b = binary.AppendUvarint(b, uint64(len(uuids)))
	for _, u := range uuids {
		l := s.seen[u]
		var f byte
		if l.detached {
			f |= flagDetached
		}
		switch l.kept {
		case u:
			f |= flagKeptSelf
		case "":
			f |= flagKeptNone
		}
		b = appendString(b, u)
		b = append(b, f)
		if f&(flagKeptSelf|flagKeptNone) == 0 {
			b = appendString(b, l.kept)
		}
		b = binary.AppendUvarint(b, sessions[l.session])
	}
	return b, nil
}

var errBadState = errors.New("claudecode: damaged parse state")

// UnmarshalBinary decodes what MarshalBinary wrote.
func (s *State) UnmarshalBinary(data []byte) error {
	d := decoder{b: data}
	if len(data) == 0 || data[0] != stateVersion {
		return errBadState
	}
	d.b = d.b[1:]
	off, line, nSess := d.uvarint(), d.uvarint(), d.uvarint()
	if d.bad || nSess > uint64(len(d.b)) {
		return errBadState
	}
	names := make([]string, nSess+1)
	for i := uint64(1); i <= nSess; i++ {
		names[i] = d.string()
	}
	n := d.uvarint()
	if d.bad || n > uint64(len(d.b)) {
		return errBadState
	}
	seen := make(map[string]link, n)
	for range n {
		u := d.string()
		f := d.byte()
		var l link
		l.detached = f&flagDetached != 0
		switch {
		case f&flagKeptSelf != 0:
			l.kept = u
		case f&flagKeptNone != 0:
		default:
			l.kept = d.string()
		}
		i := d.uvarint()
		if d.bad || i >= uint64(len(names)) {
			return errBadState
		}
		l.session = names[i]
		seen[u] = l
	}
	if d.bad || len(d.b) != 0 || off > 1<<62 || line > 1<<40 {
		return errBadState
	}
	*s = State{Offset: int64(off), Line: int(line), seen: seen}
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// decoder reads an encoded State; any short read sets bad.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.bad = true
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) byte() byte {
	if len(d.b) == 0 {
		d.bad = true
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) string() string {
	n := d.uvarint()
	if d.bad || n > uint64(len(d.b)) {
		d.bad = true
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}
