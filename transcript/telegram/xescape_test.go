package telegram

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
	"testing/iotest"
)

// xEscapeByByte is the reader's rule a byte at a time, the reference for
// its run-copying rewrite.
func xEscapeByByte(in []byte) []byte {
	var out []byte
	inString, escaped := false, false
	for _, c := range in {
		switch {
		case escaped:
			escaped = false
			if c == 'x' {
				out = append(out, 'u', '0', '0')
				continue
			}
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		}
		out = append(out, c)
	}
	return out
}

// TestXEscapeRuns: random text dense in quotes, backslashes and x, read
// whole, a byte at a time and in odd pieces, rewrites as the byte rule does.
func TestXEscapeRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte(`"\x\\ab{}:,u0`)
	for n := range 300 {
		in := make([]byte, rng.IntN(200))
		for i := range in {
			in[i] = alphabet[rng.IntN(len(alphabet))]
		}
		want := xEscapeByByte(in)
		readers := map[string]io.Reader{
			"whole":    bytes.NewReader(in),
			"one byte": iotest.OneByteReader(bytes.NewReader(in)),
			"half":     iotest.HalfReader(bytes.NewReader(in)),
		}
		for name, r := range readers {
			got, err := io.ReadAll(newXEscapeReader(r))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("input %d %q read %s: got %q, %v; want %q", n, in, name, got, err, want)
			}
		}
	}
}
