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
	} {
		inputs[fmt.Sprintf("odd-%d", i)] = []byte(odd + "\n" + `{"type":"summary"}` + "\n")
	}
	for name, data := range inputs {
		fastPath = true
		fast, ferr := Parse(bytes.NewReader(data), "f")
		fastPath = false
		general, gerr := Parse(bytes.NewReader(data), "f")
		fastPath = true
		if fmt.Sprint(ferr) != fmt.Sprint(gerr) || !reflect.DeepEqual(fast, general) {
			t.Errorf("%s: fast path %+v, %v\ngeneral %+v, %v", name, fast, ferr, general, gerr)
		}
	}
	if len(inputs) < 15 {
		t.Fatalf("only %d inputs", len(inputs))
	}
}
