package gemini

import (
	"bytes"
	"io"
	"os"
	"testing"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

func streamer(r io.Reader, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	return Stream(r, "session.jsonl", chunkBytes, emit)
}

func parseWhole(r io.Reader) (transcript.Result, error) { return Parse(r, "session.jsonl") }

// TestStream_SameAsParse: streamed a turn at a time or in one chunk, every
// fixture gives Parse's turns in Parse's order and its skips, or its
// error; each parent in an earlier chunk or its own. (FuzzParse checks
// the same on its corpus.)
func TestStream_SameAsParse(t *testing.T) {
	for _, path := range fixtures(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		transcripttest.CheckStream(t, path, data, parseWhole, streamer)
		// Cut anywhere: a truncated last line, or an error.
		for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 3} {
			transcripttest.CheckStream(t, path, data[:cut], parseWhole, streamer)
		}
	}
}

// TestStream_Errors: an error of emit ends the stream with it.
func TestStream_Errors(t *testing.T) {
	data := []byte(lines(head, u1, g1, `{"$rewindTo":"u1"}`, u2, g2))
	stop := io.ErrClosedPipe
	calls := 0
	_, err := Stream(bytes.NewReader(data), "session.jsonl", 1, func([]transcript.Turn) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("emit's error: %v after %d calls", err, calls)
	}
}
