package whatsapp

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

func streamer(opts Options) transcripttest.StreamFunc {
	return func(r io.Reader, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
		return Stream(r, "_chat.txt", opts, chunkBytes, emit)
	}
}

func parseWith(opts Options) func(io.Reader) (transcript.Result, error) {
	return func(r io.Reader) (transcript.Result, error) { return Parse(r, "_chat.txt", opts) }
}

// TestStream_SameAsParse: streamed a turn at a time or in one chunk, every
// fixture (and each with its options forced) gives Parse's turns in
// Parse's order and its skips, each parent in an earlier chunk or its own.
func TestStream_SameAsParse(t *testing.T) {
	yes := true
	for path, data := range fixtures(t) {
		for _, opts := range []Options{{}, {DateOrder: YearMonthDay}, {Session: "chat-1", Title: "T", Group: &yes}} {
			transcripttest.CheckStream(t, path, data, parseWith(opts), streamer(opts))
		}
	}
}

// TestStream_Errors: a date that cannot exist on the last line is found
// only once the turns are made, after chunks were emitted: the stream
// fails with Parse's error (nothing of the file should be imported); an
// error of emit ends the stream with it.
func TestStream_Errors(t *testing.T) {
	data := fixtures(t)["testdata/android-en-us.txt"]
	broken := append(bytes.Clone(data), "2/30/24, 9:15 PM - Ana: no such day\n"...)
	_, want := Parse(bytes.NewReader(broken), "_chat.txt", Options{})
	if want == nil || !strings.Contains(want.Error(), "not a date") {
		t.Fatalf("parsed: %v", want)
	}
	chunks := 0
	_, got := Stream(bytes.NewReader(broken), "_chat.txt", Options{}, 1, func([]transcript.Turn) error {
		chunks++
		return nil
	})
	if got == nil || got.Error() != want.Error() || chunks == 0 {
		t.Fatalf("streamed: %v after %d chunks, parsed %v", got, chunks, want)
	}
	stop := io.ErrClosedPipe
	calls := 0
	_, err := Stream(bytes.NewReader(data), "_chat.txt", Options{}, 1, func([]transcript.Turn) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("emit's error: %v after %d calls", err, calls)
	}
}
