package claudecode

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"scriptorium/transcript"
)

// TestStream_ResumeAnywhere: a transcript read up to any byte (as a hook
// finds it while Claude Code writes), then resumed from the stored State
// once it is whole, gives exactly the turns of one whole parse, with the
// same parents: none lost, none twice.
func TestStream_ResumeAnywhere(t *testing.T) {
	for _, name := range []string{"session.jsonl", "agent-5e0c41aa.jsonl"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		// The testdata ends with a truncated line: keep the whole lines.
		data = data[:bytes.LastIndexByte(data, '\n')+1]
		whole, err := Parse(bytes.NewReader(data), name)
		if err != nil {
			t.Fatal(err)
		}
		// Every line end, just after it and in the middle of the next.
		cuts := []int{0, len(data)}
		for i, c := range data {
			if c == '\n' {
				cuts = append(cuts, i, i+1, min(i+40, len(data)))
			}
		}
		for _, cut := range cuts {
			var got []transcript.Turn
			keep := func(ts []transcript.Turn) error { got = append(got, ts...); return nil }
			_, st, err := Stream(bytes.NewReader(data[:cut]), name, StreamOptions{ChunkBytes: 1}, keep)
			if err != nil {
				t.Fatalf("%s cut at %d: %v", name, cut, err)
			}
			enc, _ := st.MarshalBinary()
			var back State
			if err := back.UnmarshalBinary(enc); err != nil {
				t.Fatalf("%s cut at %d: decode state: %v", name, cut, err)
			}
			if back.Offset > int64(cut) || (back.Offset > 0 && data[back.Offset-1] != '\n') {
				t.Fatalf("%s cut at %d: offset %d is not a line end", name, cut, back.Offset)
			}
			res, _, err := Stream(bytes.NewReader(data[back.Offset:]), name, StreamOptions{From: &back}, keep)
			if err != nil {
				t.Fatalf("%s cut at %d, resumed at %d: %v", name, cut, back.Offset, err)
			}
			if res.Skipped[ReasonParentNotInFile] != whole.Skipped[ReasonParentNotInFile] && cut == 0 {
				t.Fatalf("%s: skips differ", name)
			}
			if !reflect.DeepEqual(got, whole.Turns) {
				t.Fatalf("%s cut at %d (resumed at %d): %d turns, want %d:\n%+v\nwant\n%+v", name, cut, back.Offset, len(got), len(whole.Turns), got, whole.Turns)
			}
		}
	}
}

// TestStream_Chunks: turns come in chunks of about ChunkBytes of text,
// and ErrStop ends the parse at a line end that a resumed Stream goes on
// from.
func TestStream_Chunks(t *testing.T) {
	data, err := os.ReadFile("testdata/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	data = data[:bytes.LastIndexByte(data, '\n')+1]
	whole, _ := Parse(bytes.NewReader(data), "s")
	var first []transcript.Turn
	_, st, err := Stream(bytes.NewReader(data), "s", StreamOptions{ChunkBytes: 1}, func(ts []transcript.Turn) error {
		first = append(first, ts...)
		return ErrStop
	})
	if err != nil || len(first) != 1 {
		t.Fatalf("stop after the first chunk: %d turns, %v", len(first), err)
	}
	if st.Offset <= 0 || st.Offset >= int64(len(data)) || data[st.Offset-1] != '\n' {
		t.Fatalf("stopped at %d of %d", st.Offset, len(data))
	}
	rest := first
	_, _, err = Stream(bytes.NewReader(data[st.Offset:]), "s", StreamOptions{From: &st}, func(ts []transcript.Turn) error {
		rest = append(rest, ts...)
		return nil
	})
	if err != nil || !reflect.DeepEqual(rest, whole.Turns) {
		t.Fatalf("resumed: %d turns (%v), want %d", len(rest), err, len(whole.Turns))
	}
	boom := errors.New("boom")
	if _, _, err := Stream(bytes.NewReader(data), "s", StreamOptions{ChunkBytes: 1}, func([]transcript.Turn) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("emit error: %v", err)
	}
}

// TestState_Damaged: a damaged state never decodes into a partial one.
func TestState_Damaged(t *testing.T) {
	data, _ := os.ReadFile("testdata/session.jsonl")
	_, st, _ := Stream(bytes.NewReader(data), "s", StreamOptions{}, func([]transcript.Turn) error { return nil })
	enc, _ := st.MarshalBinary()
	for i := range enc {
		var s State
		if err := s.UnmarshalBinary(enc[:i]); err == nil {
			t.Fatalf("a state cut at %d of %d decoded", i, len(enc))
		}
	}
	var s State
	if err := s.UnmarshalBinary([]byte(strings.Repeat("\x01\xff", 10))); err == nil {
		t.Fatal("garbage decoded")
	}
}
