package claudecode

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestFastPath_SameAsGeneral: the one-pass decode gives exactly what the
// general path gives (turns, skips, errors) on every test transcript, the
// fuzz corpus, and lines whose fields have unexpected types.
func TestFastPath_SameAsGeneral(t *testing.T) {
	inputs := map[string][]byte{}
	files, _ := filepath.Glob("testdata/*.jsonl")
	corpus, _ := filepath.Glob("testdata/fuzz/FuzzParse/*")
	for _, f := range append(files, corpus...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(data, []byte("go test fuzz v1")) {
			// A corpus entry: []byte("…") on its second line.
			var s string
			if _, err := fmt.Sscanf(string(bytes.SplitN(data, []byte("\n"), 2)[1]), "[]byte(%q)", &s); err != nil {
				continue
			}
			data = []byte(s)
		}
		inputs[f] = data
	}
	const base = `"uuid":"u1","sessionId":"s","timestamp":"2025-01-01T00:00:00Z"`
	for i, odd := range []string{
		`{"type":"user",` + base + `,"message":{"role":"user","content":"hi"},"isMeta":"true"}`,
		`{"type":"user",` + base + `,"message":"text","cwd":5}`,
		`{"type":"user",` + base + `,"message":null}`,
		`{"type":"user",` + base + `,"message":{"role":7,"content":"x"}}`,
		`{"type":"user",` + base + `,"isSidechain":1,"message":{"role":"user","content":"x"}}`,
		`{"type":["user"],` + base + `}`,
		`{"type":"progress","uuid":3,"parentUuid":"u0"}`,
		`{"type":"assistant",` + base + `,"parentUuid":null,"message":{"role":"assistant","model":"<synthetic>","content":[]}}`,
		` {"TYPE":"user",` + base + `,"Message":{"role":"user","content":"case"}}`,
		`null`, `[1]`, `{"type":"user",`,
		// What the one-pass scanner leaves to the general path, which must
		// then decide as before: repeated, folded or escaped keys, content
		// and blocks of unexpected shapes, strings that need decoding.
		`{"type":"user",` + base + `,"uuid":"u2","message":{"content":"dup"}}`,
		`{"type":"user",` + base + `,"message":{"content":"a"},"message":{"model":"m"}}`,
		`{"type":"user",` + base + `,"ſessionId":"t","message":{"content":"fold"}}`,
		`{"type":"user",` + base + `,"\u0063wd":"/x","message":{"content":"esc"}}`,
		`{"type":"user",` + base + `,"message":{"Content":"x","content":"y"}}`,
		`{"type":"user",` + base + `,"message":{"content":[{"type":"text"}]}}`,
		`{"type":"user",` + base + `,"message":{"content":[{"type":"text","text":null},{"type":"text","text":"b"}]}}`,
		`{"type":"user",` + base + `,"message":{"content":[{"type":"text","text":5}]}}`,
		`{"type":"user",` + base + `,"message":{"content":[{"type":"image","text":5},null,{"TEXT":"t","type":"text","text":"k"}]}}`,
		`{"type":"user",` + base + `,"message":{"content":[{"type":null,"text":"x"},{"type":7}]}}`,
		`{"type":"user",` + base + `,"message":{"content":[1]}}`,
		`{"type":"user",` + base + `,"message":{"content":5}}`,
		`{"type":"user",` + base + `,"message":{"content":{"type":"text"}}}`,
		`{"type":"user",` + base + `,"message":{"content":" \ud83d\ude00 caf\u00e9\n\ud800 ÿ\t"}}`,
		`{"type":"user",` + base + `,"message":{"content":[{"type":"text","text":"a\u0000b"}]}}`,
		`{"type":"assistant",` + base + `,"isApiErrorMessage":null,"isMeta":false,"message":{"model":null,"content":[{"text":"k","type":"text","extra":{"a":[1,{"b":null}]}}]}}`,
		`{"type":"user",` + base + `,"message":{"content":"x"}} x`,
		`{"type":"user",` + base + `,"message":{"content":"x"},}`,
		`{"type":"user",` + base + `,"toolUseResult":{"stdout":"\x"},"message":{"content":"x"}}`,
	} {
		inputs[fmt.Sprintf("odd-%d", i)] = []byte(odd + "\n" + `{"type":"summary"}` + "\n")
	}
	for name, data := range inputs {
		if msg := sameOnBothPaths(data); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
	if len(inputs) < 30 {
		t.Fatalf("only %d inputs", len(inputs))
	}
}

// sameOnBothPaths parses data with the one-pass scanner and with the
// general path and says how they differ, or "".
func sameOnBothPaths(data []byte) string {
	fastPath = true
	fast, ferr := Parse(bytes.NewReader(data), "f")
	fastPath = false
	general, gerr := Parse(bytes.NewReader(data), "f")
	fastPath = true
	if fmt.Sprint(ferr) != fmt.Sprint(gerr) || !reflect.DeepEqual(fast, general) {
		return fmt.Sprintf("fast path %+v, %v\ngeneral %+v, %v", fast, ferr, general, gerr)
	}
	return ""
}

// FuzzFastPath: on any input, the one-pass scanner and the general path
// give the same turns, skips and errors.
func FuzzFastPath(f *testing.F) {
	for _, path := range fixtures(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(u1 + "\n" + a1))
	f.Add([]byte(`{"type":"user","uuid":"u","sessionId":"s","timestamp":"2025-01-01T00:00:00Z","message":{"content":[{"type":"text","text":"a\n\u00e9"},{"type":"tool_result","content":[{"x":1.5e3}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if msg := sameOnBothPaths(data); msg != "" {
			t.Fatal(msg)
		}
	})
}
