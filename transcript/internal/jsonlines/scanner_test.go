package jsonlines

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

type got struct {
	Line    string
	N       int
	TooLong bool
}

func scanAll(t *testing.T, in string, max int) []got {
	t.Helper()
	s := NewScanner(iotest.OneByteReader(strings.NewReader(in)), max)
	var out []got
	for s.Scan() {
		out = append(out, got{string(s.Bytes()), s.Line(), s.TooLong()})
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestScanner(t *testing.T) {
	cases := []struct {
		name, in string
		max      int
		want     []got
	}{
		{"empty", "", 10, nil},
		{"one line no LF", "ab", 10, []got{{"ab", 1, false}}},
		{"final LF adds no line", "ab\n", 10, []got{{"ab", 1, false}}},
		{"blank lines kept", "a\n\nb", 10, []got{{"a", 1, false}, {"", 2, false}, {"b", 3, false}}},
		{"CRLF", "a\r\nb\r\n", 10, []got{{"a", 1, false}, {"b", 2, false}}},
		{"lone CR inside kept", "a\rb\n", 10, []got{{"a\rb", 1, false}}},
		{"BOM on line 1 only", "\xef\xbb\xbfa\n\xef\xbb\xbfb", 10, []got{{"a", 1, false}, {"\xef\xbb\xbfb", 2, false}}},
		{"exactly max", "abcd\nx", 4, []got{{"abcd", 1, false}, {"x", 2, false}}},
		{"too long then fine", "abcde\nx", 4, []got{{"", 1, true}, {"x", 2, false}}},
		{"too long last line", "x\nabcdefgh", 4, []got{{"x", 1, false}, {"", 2, true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if g := scanAll(t, c.in, c.max); !reflect.DeepEqual(g, c.want) {
				t.Errorf("got %+v, want %+v", g, c.want)
			}
		})
	}
}

// TestScanner_LongLineAcrossBuffer: a line longer than the reader's own
// buffer is assembled whole.
func TestScanner_LongLineAcrossBuffer(t *testing.T) {
	long := strings.Repeat("é", 100<<10)
	s := NewScanner(strings.NewReader(long+"\nz"), 1<<20)
	if !s.Scan() || string(s.Bytes()) != long || !s.Scan() || string(s.Bytes()) != "z" || s.Scan() {
		t.Fatal("long line not read whole")
	}
}

func TestScanner_ReadError(t *testing.T) {
	boom := errors.New("boom")
	s := NewScanner(iotest.ErrReader(boom), 10)
	if s.Scan() || !errors.Is(s.Err(), boom) || s.Line() != 1 {
		t.Fatalf("scan = %v, err = %v, line = %d", s.Bytes(), s.Err(), s.Line())
	}
}

func TestScanner_Offset(t *testing.T) {
	in := "ab\n\ncd\r\nef"
	s := NewScannerAt(iotest.OneByteReader(strings.NewReader(in)), 10, 100, 7)
	type at struct {
		line string
		n    int
		off  int64
		nl   bool
	}
	var out []at
	for s.Scan() {
		out = append(out, at{string(s.Bytes()), s.Line(), s.Offset(), s.Terminated()})
	}
	want := []at{{"ab", 8, 103, true}, {"", 9, 104, true}, {"cd", 10, 108, true}, {"ef", 11, 110, false}}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("got %+v, want %+v", out, want)
	}
}
