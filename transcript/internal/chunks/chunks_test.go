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
