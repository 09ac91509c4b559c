package depcache

import (
	"encoding/binary"

	"scriptorium/engine/deps"
)

// One deps.Topic is encoded as: the block count, then per block a byte
// (1 = Defined) and its citation count followed by each citation's key
// and source-id; then Targets, Refs and IDs, each a count and its strings.
// Every count and string length is a uvarint.

func appendStrings(out []byte, list []string) []byte {
	out = binary.AppendUvarint(out, uint64(len(list)))
	for _, s := range list {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	return out
}

func encodeTopic(out []byte, d *deps.Topic) []byte {
	out = binary.AppendUvarint(out, uint64(len(d.Blocks)))
	for _, b := range d.Blocks {
		def := byte(0)
		if b.Defined {
			def = 1
		}
		out = append(out, def)
		out = binary.AppendUvarint(out, uint64(len(b.Keys)))
		for i := range b.Keys {
			out = binary.AppendUvarint(out, uint64(len(b.Keys[i])))
			out = append(out, b.Keys[i]...)
			out = binary.AppendUvarint(out, uint64(len(b.Refs[i])))
			out = append(out, b.Refs[i]...)
		}
	}
	for _, list := range [][]string{d.Targets, d.Refs, d.IDs} {
		out = appendStrings(out, list)
	}
	return out
}

// decoder reads an encoded deps.Topic; its strings are substrings of the
// input. Any malformed or truncated input sets bad.
type decoder struct {
	s   string
	bad bool
}

func (r *decoder) uvarint() uint64 {
	var n uint64
	for k := 0; k < len(r.s) && k < binary.MaxVarintLen64; k++ {
		n |= uint64(r.s[k]&0x7f) << (7 * k)
		if r.s[k] < 0x80 {
			r.s = r.s[k+1:]
			return n
		}
	}
	r.bad, r.s = true, ""
	return 0
}

// count reads a count of items each at least one byte long.
func (r *decoder) count() int {
	n := r.uvarint()
	if n > uint64(len(r.s)) {
		r.bad, r.s = true, ""
		return 0
	}
	return int(n)
}

func (r *decoder) str() string {
	n := r.count()
	out := r.s[:n]
	r.s = r.s[n:]
	return out
}

func (r *decoder) strings() []string {
	n := r.count()
	if n == 0 {
		return []string{}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

// decodeTopic decodes enc; ok is false for "" (no entry) or a malformed one.
func decodeTopic(enc string) (*deps.Topic, bool) {
	if enc == "" {
		return nil, false
	}
	r := &decoder{s: enc}
	d := &deps.Topic{}
	if n := r.count(); n > 0 {
		d.Blocks = make([]deps.BlockCites, n)
	}
	for i := range d.Blocks {
		if r.s == "" || r.s[0] > 1 {
			return nil, false
		}
		b := &d.Blocks[i]
		b.Defined, r.s = r.s[0] == 1, r.s[1:]
		if n := r.count(); n > 0 {
			b.Keys, b.Refs = make([]string, n), make([]string, n)
			for j := range n {
				b.Keys[j], b.Refs[j] = r.str(), r.str()
			}
		}
	}
	d.Targets, d.Refs, d.IDs = r.strings(), r.strings(), r.strings()
	if r.bad || r.s != "" {
		return nil, false
	}
	return d, true
}
