package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

var samples = []string{
	`{}`, `[]`, `{"a":1,"b":[true,false,null,"x\n\"\\\/\b\f\r\t\u00e9"],"c":{"d":-0.5e+10}}`,
	` { "a" : [ 1 , 2 ] } `, `"plain"`, `"caf\u00e9 \ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`,
	`"\udc00\ud800"`, "\"\xff\xfe ok\"", "\"\xe2\x82\"", `0`, `-0`, `01`, `1.`, `.5`, `1e`, `1E+2`,
	`-`, `tru`, `nul`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a":1 "b":2}`,
	`"\x"`, `"\u12g4"`, `"\'"`, "\"a\tb\"", "\"a\x00\"", `"unterminated`, `{"a":1`, `[`,
	`{"a":"b"}}`, `[1] [2]`, strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
}

// valid is Value over a whole text, as json.Valid reads one.
func valid(b []byte) bool {
	i := Space(b, 0)
	end := Value(b, i)
	return end >= 0 && Space(b, end) == len(b)
}

// TestValue_AsEncodingJSON: Value accepts what json.Valid accepts, but for
// nesting deeper than MaxDepth, which it refuses.
func TestValue_AsEncodingJSON(t *testing.T) {
	for _, s := range samples {
		want := json.Valid([]byte(s)) && !strings.HasPrefix(s, strings.Repeat("[", MaxDepth+1))
		if got := valid([]byte(s)); got != want {
			t.Errorf("%.60q: Value says %v, encoding/json %v", s, got, want)
		}
	}
}

// TestUnquote_AsEncodingJSON: every valid string decodes as encoding/json
// decodes it.
func TestUnquote_AsEncodingJSON(t *testing.T) {
	n := 0
	for _, s := range samples {
		if len(s) == 0 || s[0] != '"' || !json.Valid([]byte(s)) {
			continue
		}
		n++
		checkUnquote(t, []byte(s))
	}
	if n < 6 {
		t.Fatalf("only %d strings", n)
	}
}

func checkUnquote(t *testing.T, tok []byte) {
	t.Helper()
	end, esc := String(tok, 0)
	var want string
	if end < 0 {
		// No prefix of tok is a string, so tok is not one either.
		if json.Unmarshal(tok, &want) == nil {
			t.Fatalf("%q: String refuses it, encoding/json reads %q", tok, want)
		}
		return
	}
	if err := json.Unmarshal(tok[:end], &want); err != nil {
		t.Fatalf("%q: String accepts %d bytes, encoding/json: %v", tok, end, err)
	}
	got, ok := Unquote(tok[:end], esc)
	if !ok || got != want {
		t.Fatalf("%q: Unquote %q %v, encoding/json %q", tok, got, ok, want)
	}
}

func FuzzValue(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if strings.Count(string(b), "[")+strings.Count(string(b), "{") > MaxDepth {
			return
		}
		if got, want := valid(b), json.Valid(b); got != want {
			t.Fatalf("%q: Value says %v, encoding/json %v", b, got, want)
		}
	})
}

func FuzzUnquote(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			b = append([]byte{'"'}, b...)
		}
		checkUnquote(t, b)
	})
}
