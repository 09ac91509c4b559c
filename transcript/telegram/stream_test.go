package telegram

import (
	"bytes"
	"io"
	"reflect"
	"runtime"
	"testing"

	"scriptorium/scale"
	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// streamAll runs Stream with chunkBytes and returns the chunks it emitted
// and its result with every chunk's turns put back in order.
func streamAll(data []byte, chunkBytes int) ([][]transcript.Turn, transcript.Result, error) {
	var chunks [][]transcript.Turn
	res, err := Stream(bytes.NewReader(data), "result.json", Options{}, chunkBytes, func(turns []transcript.Turn) error {
		chunks = append(chunks, turns)
		return nil
	})
	for _, c := range chunks {
		res.Turns = append(res.Turns, c...)
	}
	return chunks, res, err
}

// TestStream_SameAsParse: streamed a turn at a time or in one chunk, every
// fixture gives Parse's turns in Parse's order and its skips, each turn's
// parent in an earlier chunk or its own.
func TestStream_SameAsParse(t *testing.T) {
	for path, data := range fixtures(t) {
		want := parseBytes(t, data, Options{})
		for _, size := range []int{1, 1 << 30} {
			chunks, got, err := streamAll(data, size)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if len(want.Turns) == 0 {
				want.Turns = nil
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, chunks of %d: streamed\n%s\nparsed\n%s", path, size,
					transcripttest.Render(got), transcripttest.Render(want))
			}
			// A turn's parent is in its chunk or an earlier one.
			seen := map[string]bool{}
			for _, c := range chunks {
				if len(c) == 0 {
					t.Fatalf("%s: an empty chunk", path)
				}
				for _, tr := range c {
					if tr.Parent != "" && !seen[tr.Session+"/"+tr.Parent] {
						t.Fatalf("%s: turn %s/%s before its parent %s", path, tr.Session, tr.ID, tr.Parent)
					}
					seen[tr.Session+"/"+tr.ID] = true
				}
			}
			if size == 1<<30 && len(chunks) > 1 {
				t.Errorf("%s: %d chunks for one large chunk", path, len(chunks))
			}
		}
	}
}

// TestStream_Errors: a broken export fails with Parse's error, after the
// chunks before the break were emitted; an error of emit ends the stream.
func TestStream_Errors(t *testing.T) {
	data := fixtures(t)["testdata/account.json"]
	for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 10} {
		broken := data[:cut]
		_, want := Parse(bytes.NewReader(broken), "result.json", Options{})
		_, _, got := streamAll(broken, 1)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Fatalf("cut at %d: streamed %v, parsed %v", cut, got, want)
		}
	}
	stop := io.ErrClosedPipe
	calls := 0
	_, err := Stream(bytes.NewReader(data), "result.json", Options{}, 1, func([]transcript.Turn) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("emit's error: %v after %d calls", err, calls)
	}
}

// TestStream_BoundedMemory: a 64 MiB account export streamed in chunks
// holds a chunk and a chat, not the file: the live heap, sampled as the
// file is read and at each chunk, stays a fraction of what the whole parse
// holds.
func TestStream_BoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 64 MiB")
	}
	var streamed, whole heapProbe
	text := 0
	_, err := Stream(whole.export(), "result.json", Options{}, 0, func(chunk []transcript.Turn) error {
		for _, tr := range chunk {
			text += len(tr.Content)
		}
		whole.sample()
		runtime.KeepAlive(chunk)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	streamed, whole = whole, heapProbe{}
	res, err := Parse(whole.export(), "result.json", Options{})
	whole.sample()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d turns, %.1f MiB of text; live heap at most %.1f MiB streamed, %.1f MiB parsed whole",
		len(res.Turns), float64(text)/(1<<20), mib(streamed.peak), mib(whole.peak))
	runtime.KeepAlive(res)
	if streamed.peak > 20<<20 || streamed.peak > whole.peak/2 {
		t.Errorf("streamed: live heap %.1f MiB (whole: %.1f MiB)", mib(streamed.peak), mib(whole.peak))
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// heapProbe reads a generated export and samples the live heap every 2 MiB
// read.
type heapProbe struct {
	r        io.Reader
	read, at int
	peak     uint64
}

func (h *heapProbe) export() io.Reader {
	pr, pw := io.Pipe()
	go func() {
		_, _, err := scale.TelegramExport(pw, 64<<20, scale.TelegramSeed)
		pw.CloseWithError(err)
	}()
	h.r = pr
	return h
}

func (h *heapProbe) Read(b []byte) (int, error) {
	n, err := h.r.Read(b)
	if h.read += n; h.read-h.at >= 2<<20 {
		h.at = h.read
		h.sample()
	}
	return n, err
}

func (h *heapProbe) sample() {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	h.peak = max(h.peak, ms.HeapAlloc)
}
