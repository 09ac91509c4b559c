// Package o200k counts o200k_base tokens without building the encoding's
// 200,000-entry map: the ranks are an open-addressing hash table laid out
// at generation time and embedded in the binary (table.bin), so a process
// that counts one answer pays page faults for the slots it probes instead
// of 35 ms of map inserts at its first count (issue 26: the vocabulary
// load was 14–17% of a cold recall's CPU).
//
// The split of the text into pieces is the tokenizer's own (the same
// pattern, compiled by regexp2 to the code tiktoken-go generated for it),
// and the byte-pair merge is the same algorithm as tiktoken-go's codec, so
// the counts are the codec's: the tests compare both on every token of the
// vocabulary and on the fixtures' text.
package o200k

import (
	_ "embed"
	"math"
	"sync"

	"github.com/dlclark/regexp2/v2"
	// The codec's init registers the generated matcher of splitPattern,
	// which MustCompile below then picks up instead of interpreting it.
	_ "github.com/tiktoken-go/tokenizer/codec"
)

//go:generate go test -run TestWriteTable -write-table

// splitPattern is o200k_base's pre-tokenization pattern (tiktoken-go's
// codec.NewO200kBase).
const splitPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

// table.bin, little-endian:
//
//	"o2k1" | n uint32 | slots uint32 (a power of two)
//	offsets [n+1]uint32: token r is bytes[offsets[r]:offsets[r+1]] ("" : no token r)
//	slot [slots]uint32: rank+1 of the token hashed there, 0 for an empty slot
//	bytes
//
// A token lives in the first free slot from hash(token)&(slots-1) on
// (linear probing), so a lookup stops at the token or at an empty slot.
//
//go:embed table.bin
var table string

const headerLen = 12

var (
	nTokens   = u32(4)
	nSlots    = u32(8)
	offsetsAt = headerLen
	slotsAt   = offsetsAt + 4*(nTokens+1)
	bytesAt   = slotsAt + 4*nSlots
)

func u32(at int) int {
	return int(uint32(table[at]) | uint32(table[at+1])<<8 | uint32(table[at+2])<<16 | uint32(table[at+3])<<24)
}

// hash is 64-bit FNV-1a.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// token returns the bytes of token r.
func token(r int) string {
	return table[bytesAt+u32(offsetsAt+4*r) : bytesAt+u32(offsetsAt+4*r+4)]
}

// rank returns the rank of the token s, if s is one.
func rank(s string) (uint32, bool) {
	mask := uint64(nSlots - 1)
	for i := hash(s) & mask; ; i = (i + 1) & mask {
		v := u32(slotsAt + 4*int(i))
		if v == 0 {
			return 0, false
		}
		if token(v-1) == s {
			return uint32(v - 1), true
		}
	}
}

// split is compiled on first use, keeping the package's init empty.
var split = sync.OnceValue(func() *regexp2.Regexp { return regexp2.MustCompile(splitPattern, regexp2.None) })

// Count returns the number of o200k_base tokens of s, or false when the
// splitter fails (only on a regexp timeout, which is not set).
func Count(s string) (int, bool) {
	n := 0
	re := split()
	m, err := re.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		piece := m.String()
		if _, ok := rank(piece); ok {
			n++
			continue
		}
		if len(piece) < heapFrom {
			n += merged(piece)
		} else {
			n += mergedHeap(piece)
		}
	}
	return n, err == nil
}

// heapFrom is the piece length from which the merge keeps its candidates
// in a heap (the codec's mergeHeapThreshold): a long run of spaces or
// symbols is one piece, and the scan is quadratic in it.
const heapFrom = 96

// merged returns how many tokens byte-pair encoding merges piece into:
// repeatedly merge the leftmost adjacent pair whose concatenation has the
// lowest rank (the codec's mergePairsScan).
func merged(piece string) int {
	type part struct {
		at   int
		rank uint32
	}
	parts := make([]part, len(piece)+1)
	for i := range parts {
		parts[i] = part{i, math.MaxUint32}
	}
	rankOf := func(i, skip int) uint32 {
		if i+skip+2 < len(parts) {
			if r, ok := rank(piece[parts[i].at:parts[i+skip+2].at]); ok {
				return r
			}
		}
		return math.MaxUint32
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = rankOf(i, 0)
	}
	for len(parts) > 1 {
		minRank, at := uint32(math.MaxUint32), 0
		for i, p := range parts[:len(parts)-1] {
			if p.rank < minRank {
				minRank, at = p.rank, i
			}
		}
		if minRank == math.MaxUint32 {
			break
		}
		parts[at].rank = rankOf(at, 1)
		if at > 0 {
			parts[at-1].rank = rankOf(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	return len(parts) - 1
}
