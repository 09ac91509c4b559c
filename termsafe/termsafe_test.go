package termsafe

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "plain text, 中文, émoji 🙂", "plain text, 中文, émoji 🙂"},
		{"newline and tab stay", "a\tb\nc", "a\tb\nc"},
		{"CSI erase line", "ok\x1b[2K\x1b[1Aidentity verified", "ok␛[2K␛[1Aidentity verified"},
		{"OSC 52 clipboard, BEL", "\x1b]52;c;cm0gLXJmIH4=\x07", "␛]52;c;cm0gLXJmIH4=␇"},
		{"OSC 52, ST", "\x1b]52;c;eA==\x1b\\", "␛]52;c;eA==␛\\"},
		{"CR overwrites", "pending review\rtrusted       ", "pending review␍trusted       "},
		{"CRLF is shown", "line\r\n", "line␍\n"},
		{"NUL and DEL", "a\x00b\x7f", "a␀b␡"},
		{"C1 CSI", "a\u009b2Kb", "a<U+009B>2Kb"},
		{"C1 OSC and ST", "\u009d0;title\u009c", "<U+009D>0;title<U+009C>"},
		{"RLO", "abc\u202edcba", "abc<U+202E>dcba"},
		{"isolates", "\u2066x\u2069 \u2067y\u2068", "<U+2066>x<U+2069> <U+2067>y<U+2068>"},
		{"marks", "\u200e\u200f\u061c", "<U+200E><U+200F><U+061C>"},
		{"embeddings", "\u202a\u202b\u202c\u202d", "<U+202A><U+202B><U+202C><U+202D>"},
		{"invalid byte", "a\x9bb\xff", "a<0x9B>b<0xFF>"},
		{"a real U+FFFD stays", "a\uFFFDb", "a\uFFFDb"},
		{"neighbours of the bidi range stay", "\u2029\u202f\u2065\u206a", "\u2029\u202f\u2065\u206a"},
	}
	for _, c := range cases {
		if got := String(c.in); got != c.want {
			t.Errorf("%s: String(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
		if i := Index(String(c.in)); i >= 0 {
			t.Errorf("%s: String's output is not safe at %d: %q", c.name, i, String(c.in))
		}
		if (Index(c.in) < 0) != (c.in == c.want) {
			t.Errorf("%s: Index(%q) = %d disagrees with String", c.name, c.in, Index(c.in))
		}
	}
}

func TestWriter_SplitSequences(t *testing.T) {
	in := "ok \u202e \u009b x\x1b[2K 中 \xff end"
	want := String(in)
	// Every way of cutting the input in two writes gives the same output.
	for cut := 0; cut <= len(in); cut++ {
		var out bytes.Buffer
		w := NewWriter(&out)
		for _, part := range []string{in[:cut], in[cut:]} {
			if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
				t.Fatalf("cut %d: Write = %d, %v", cut, n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("cut %d: %q, want %q", cut, out.String(), want)
		}
	}
	// A sequence the stream ends in the middle of is shown, not lost.
	var out bytes.Buffer
	w := NewWriter(&out)
	w.Write([]byte("a\xe2\x80"))
	w.Flush()
	if out.String() != "a<0xE2><0x80>" {
		t.Errorf("cut-off sequence: %q", out.String())
	}
	if Unwrap(w) != &out || Unwrap(&out) != &out {
		t.Error("Unwrap does not return the underlying writer")
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]52;c;eA==\x07", "a\r\nb", "\u202e\u009b\xff", "中\u2066"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := String(s)
		if Index(got) >= 0 {
			t.Fatalf("String(%q) = %q is not safe", s, got)
		}
		if strings.Count(got, "\n") != strings.Count(s, "\n") || strings.Count(got, "\t") != strings.Count(s, "\t") {
			t.Fatalf("String(%q) changed newlines or tabs: %q", s, got)
		}
		if Index(s) < 0 && got != s {
			t.Fatalf("safe %q changed to %q", s, got)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("String(%q) = %q is not UTF-8", s, got)
		}
		// Written through a Writer in two parts, the same.
		var out bytes.Buffer
		w := NewWriter(&out)
		w.Write([]byte(s[:len(s)/2]))
		w.Write([]byte(s[len(s)/2:]))
		w.Flush()
		if out.String() != got {
			t.Fatalf("Writer(%q) = %q, String = %q", s, out.String(), got)
		}
	})
}
