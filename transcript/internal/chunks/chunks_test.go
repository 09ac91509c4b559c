package chunks

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"scriptorium/transcript"
)

func TestEmit(t *testing.T) {
	var turns []transcript.Turn
	for i := range 10 {
		turns = append(turns, transcript.Turn{ID: strconv.Itoa(i), Content: strings.Repeat("x", i*100)})
	}
	want := append([]transcript.Turn(nil), turns...)
	for _, size := range []int{1, 1500, 1 << 30} {
		in := append([]transcript.Turn(nil), want...)
		var got []transcript.Turn
		n := 0
		err := Emit(in, size, func(c []transcript.Turn) error {
			if len(c) == 0 {
				t.Fatal("an empty chunk")
			}
			n++
			got = append(got, c...)
			return nil
		})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("size %d: %v, %+v", size, err, got)
		}
		if size == 1 && n != 10 || size == 1<<30 && n != 1 || size == 1500 && (n < 3 || n > 6) {
			t.Errorf("size %d: %d chunks", size, n)
		}
		if in[0].ID != "" {
			t.Error("an emitted turn was not cleared")
		}
	}
	stop := errors.New("stop")
	calls := 0
	if err := Emit(append([]transcript.Turn(nil), want...), 1, func([]transcript.Turn) error { calls++; return stop }); err != stop || calls != 1 {
		t.Fatalf("emit's error: %v after %d calls", err, calls)
	}
}

// TestHandOver: with no emit the Result is the read's; with one, its turns
// go to emit and the Result keeps the skips; a read's error stops both.
func TestHandOver(t *testing.T) {
	read := func() transcript.Result {
		return transcript.Result{Turns: []transcript.Turn{{ID: "a"}, {ID: "b"}}, Skipped: map[string]int{"x": 1}}
	}
	res, err := HandOver(read(), nil, 0, nil)
	if err != nil || len(res.Turns) != 2 {
		t.Fatalf("no emit: %v %+v", err, res)
	}
	var got []transcript.Turn
	res, err = HandOver(read(), nil, 1, func(c []transcript.Turn) error { got = append(got, c...); return nil })
	if err != nil || res.Turns != nil || len(got) != 2 || res.Skipped["x"] != 1 {
		t.Fatalf("emit: %v %+v %+v", err, res, got)
	}
	bad := errors.New("bad line")
	called := false
	if _, err = HandOver(read(), bad, 1, func([]transcript.Turn) error { called = true; return nil }); err != bad || called {
		t.Fatalf("read error: %v, emit called %v", err, called)
	}
}

// TestBuffer: turns come out in order, in chunks that close once they
// hold Bytes, the last one at Flush; with no Emit every turn stays in
// Turns; an error of Emit is returned by the Add that filled the chunk.
func TestBuffer(t *testing.T) {
	turn := func(i int) transcript.Turn {
		return transcript.Turn{ID: strconv.Itoa(i), Content: strings.Repeat("x", 100)}
	}
	var sizes []int
	var got []transcript.Turn
	b := Buffer{Bytes: 3 * (100 + Overhead), Emit: func(c []transcript.Turn) error {
		sizes = append(sizes, len(c))
		got = append(got, c...)
		return nil
	}}
	for i := range 7 {
		if err := b.Add(turn(i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sizes, []int{3, 3, 1}) || len(got) != 7 || got[6].ID != "6" || len(b.Turns) != 0 {
		t.Fatalf("chunks %v, %d turns, %d left", sizes, len(got), len(b.Turns))
	}
	keep := Buffer{Bytes: 1}
	for i := range 5 {
		keep.Add(turn(i))
	}
	if keep.Flush() != nil || len(keep.Turns) != 5 {
		t.Fatalf("no emit: %d turns kept", len(keep.Turns))
	}
	stop := errors.New("store failed")
	bad := Buffer{Bytes: 1, Emit: func([]transcript.Turn) error { return stop }}
	if err := bad.Add(turn(0)); err != stop {
		t.Fatalf("emit's error: %v", err)
	}
}
