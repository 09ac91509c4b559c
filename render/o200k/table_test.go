package o200k

import (
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

var writeTable = flag.Bool("write-table", false, "regenerate table.bin from tiktoken-go's o200k_base")

var ref = sync.OnceValue(codec.NewO200kBase)

// vocabulary returns the codec's tokens by rank ("" where a rank has none).
func vocabulary(t *testing.T) []string {
	t.Helper()
	c := ref()
	var toks []string
	misses := 0
	for r := uint(0); misses < 64; r++ {
		s, err := c.Decode([]uint{r})
		if err != nil {
			misses++
			toks = append(toks, "")
			continue
		}
		misses = 0
		toks = append(toks, s)
	}
	for len(toks) > 0 && toks[len(toks)-1] == "" {
		toks = toks[:len(toks)-1]
	}
	if len(toks) < 199000 {
		t.Fatalf("the codec decoded only %d tokens", len(toks))
	}
	return toks
}

// build lays out table.bin (see o200k.go) for toks.
func build(toks []string) []byte {
	slots := 1
	for slots < 2*len(toks) {
		slots <<= 1
	}
	var blob []byte
	offsets := make([]uint32, 0, len(toks)+1)
	slot := make([]uint32, slots)
	mask := uint64(slots - 1)
	for r, s := range toks {
		offsets = append(offsets, uint32(len(blob)))
		blob = append(blob, s...)
		if s == "" {
			continue
		}
		i := hash(s) & mask
		for slot[i] != 0 {
			i = (i + 1) & mask
		}
		slot[i] = uint32(r + 1)
	}
	offsets = append(offsets, uint32(len(blob)))
	var out bytes.Buffer
	out.WriteString("o2k1")
	le := binary.LittleEndian
	_ = binary.Write(&out, le, uint32(len(toks)))
	_ = binary.Write(&out, le, uint32(slots))
	_ = binary.Write(&out, le, offsets)
	_ = binary.Write(&out, le, slot)
	out.Write(blob)
	return out.Bytes()
}

// TestWriteTable regenerates table.bin with -write-table (go generate);
// without it, it checks that the embedded table is the one the codec's
// vocabulary builds.
func TestWriteTable(t *testing.T) {
	want := build(vocabulary(t))
	if *writeTable {
		if err := os.WriteFile("table.bin", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal([]byte(table), want) {
		t.Fatal("table.bin is not the codec's vocabulary: run go generate ./render/o200k")
	}
}

// TestRank_EveryToken looks up every token of the vocabulary.
func TestRank_EveryToken(t *testing.T) {
	toks := vocabulary(t)
	if nTokens != len(toks) {
		t.Fatalf("table holds %d ranks, the codec %d", nTokens, len(toks))
	}
	for r, s := range toks {
		if s == "" {
			continue
		}
		got, ok := rank(s)
		if !ok || int(got) != r {
			t.Fatalf("rank(%q) = %d, %v; want %d", s, got, ok, r)
		}
		if token(r) != s {
			t.Fatalf("token(%d) = %q, want %q", r, token(r), s)
		}
	}
	for _, s := range []string{"", "\x00\x01\x02qzx", "thisisnotatokenatall", "你好世界你好世界你好"} {
		if r, ok := rank(s); ok {
			t.Errorf("rank(%q) = %d, want no token", s, r)
		}
	}
}
