package transcripttest

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"scriptorium/transcript"
)

// StreamFunc is a parser's Stream with its file name and options bound.
type StreamFunc func(r io.Reader, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error)

// CheckStream checks that stream gives what parse gives on data: streamed
// a turn at a time and in one chunk, the same turns in the same order,
// the same skips, or the same error; no chunk empty, each turn's parent
// in its chunk or an earlier one, one large chunk for a large chunkBytes.
// A nil emit must be parse itself. It reports under label.
func CheckStream(t testing.TB, label string, data []byte, parse func(io.Reader) (transcript.Result, error), stream StreamFunc) {
	t.Helper()
	want, wantErr := parse(bytes.NewReader(data))
	if len(want.Turns) == 0 {
		want.Turns = nil
	}
	for _, size := range []int{1, 1 << 30} {
		var chunks [][]transcript.Turn
		got, err := stream(bytes.NewReader(data), size, func(turns []transcript.Turn) error {
			chunks = append(chunks, turns)
			return nil
		})
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s, chunks of %d: streamed error %v, parsed %v", label, size, err, wantErr)
		}
		if err != nil {
			continue
		}
		if len(got.Turns) != 0 {
			t.Fatalf("%s: Stream with emit kept %d turns in its result", label, len(got.Turns))
		}
		for _, c := range chunks {
			got.Turns = append(got.Turns, c...)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, chunks of %d: streamed\n%s\nparsed\n%s", label, size, Render(got), Render(want))
		}
		seen := map[string]bool{}
		for _, c := range chunks {
			if len(c) == 0 {
				t.Fatalf("%s: an empty chunk", label)
			}
			for _, tr := range c {
				if tr.Parent != "" && !seen[tr.Session+"/"+tr.Parent] {
					t.Fatalf("%s: turn %s/%s before its parent %s", label, tr.Session, tr.ID, tr.Parent)
				}
				seen[tr.Session+"/"+tr.ID] = true
			}
		}
		if size == 1<<30 && len(chunks) > 1 {
			t.Errorf("%s: %d chunks for one large chunk", label, len(chunks))
		}
	}
	// Parse is Stream with no emit.
	whole, err := stream(bytes.NewReader(data), 1, nil)
	if len(whole.Turns) == 0 {
		whole.Turns = nil
	}
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() || err == nil && !reflect.DeepEqual(whole, want) {
		t.Fatalf("%s: Stream with no emit differs from Parse (%v, %v)", label, err, wantErr)
	}
}
