package sessions

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"
)

// checkMetadataDecoded is checkMetadata as it was: every metadata decoded
// into a map. The fast path must answer the same.
func checkMetadataDecoded(raw json.RawMessage) (json.RawMessage, string) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}"), ""
	}
	var obj map[string]json.RawMessage
	if !utf8.Valid(raw) || json.Unmarshal(raw, &obj) != nil || obj == nil {
		return nil, "metadata is not a JSON object"
	}
	for _, k := range []string{MarkerKey, ForgottenKey} {
		if _, ok := obj[k]; ok {
			return nil, fmt.Sprintf("metadata sets %q, which only the store writes", k)
		}
	}
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return b.Bytes(), ""
}

var metadataSeeds = []string{
	``, ` `, `{}`, ` {"a":1} `, "\t{\n\"title\": \"x\"}", `null`, ` null `, `[1]`, `"x"`, `1`, `true`,
	`{"a":1}{`, `{"a":1} x`, `{"a":`, `{"a":1,}`, `{"a":"\x"}`, "{\"a\":\"\xff\"}", `{"a":"\u00e9"}`,
	`{"memory_written_scriptorium":"ws"}`, `{"memory_forgotten_scriptorium":1}`,
	`{"memory\u005fwritten_scriptorium":"ws"}`, `{"a":{"memory_written_scriptorium":"ws"}}`,
	`{"a":"memory_written_scriptorium"}`, `{"Memory_Written_Scriptorium":1}`, `{"title":"a\nb"}`,
	`{"a":1,"a":2}`, `{"reply_to":"12","title":"Team"}`, `{"x":[{"y":null}]}`, `[{"memory_written_scriptorium":1}]`,
}

func TestCheckMetadata_SameAsDecoded(t *testing.T) {
	for _, s := range metadataSeeds {
		gotRaw, got := checkMetadata(json.RawMessage(s))
		wantRaw, want := checkMetadataDecoded(json.RawMessage(s))
		if got != want || !bytes.Equal(gotRaw, wantRaw) {
			t.Errorf("%q: %q %q, want %q %q", s, gotRaw, got, wantRaw, want)
		}
	}
}

func FuzzCheckMetadata(f *testing.F) {
	for _, s := range metadataSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gotRaw, got := checkMetadata(json.RawMessage(s))
		wantRaw, want := checkMetadataDecoded(json.RawMessage(s))
		if got != want || !bytes.Equal(gotRaw, wantRaw) {
			t.Errorf("%q: %q %q, want %q %q", s, gotRaw, got, wantRaw, want)
		}
	})
}
