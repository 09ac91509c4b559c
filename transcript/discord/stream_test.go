package discord

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
	res, err := Stream(bytes.NewReader(data), "export.json", chunkBytes, func(turns []transcript.Turn) error {
		chunks = append(chunks, turns)
		return nil
	})
	for _, c := range chunks {
		res.Turns = append(res.Turns, c...)
	}
	return chunks, res, err
}

// sameAsParse checks that data streamed a turn at a time and in one chunk
// gives Parse's turns, order, skips and error, each turn's parent in an
// earlier chunk or its own, and that ParseFiles of the file alone agrees.
func sameAsParse(t *testing.T, name string, data []byte) {
	want, wantErr := Parse(bytes.NewReader(data), "export.json")
	if len(want.Turns) == 0 {
		want.Turns = nil
	}
	for _, size := range []int{1, 1 << 30} {
		chunks, got, err := streamAll(data, size)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s, chunks of %d: streamed error %v, parsed %v", name, size, err, wantErr)
		}
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, chunks of %d: streamed\n%s\nparsed\n%s", name, size, transcripttest.Render(got), transcripttest.Render(want))
		}
		seen := map[string]bool{}
		for _, c := range chunks {
			if len(c) == 0 {
				t.Fatalf("%s: an empty chunk", name)
			}
			for _, tr := range c {
				if tr.Parent != "" && !seen[tr.Session+"/"+tr.Parent] {
					t.Fatalf("%s: turn %s/%s before its parent %s", name, tr.Session, tr.ID, tr.Parent)
				}
				seen[tr.Session+"/"+tr.ID] = true
			}
		}
		if size == 1<<30 && len(chunks) > 1 {
			t.Errorf("%s: %d chunks for one large chunk", name, len(chunks))
		}
	}
	if wantErr != nil || !Sniff(data[:min(len(data), sniffBytes)]) {
		return
	}
	files, err := ParseFiles([]transcript.File{{Name: "export.json", Data: data}}, "")
	if err != nil {
		t.Fatalf("%s: ParseFiles: %v", name, err)
	}
	if len(files.Turns) == 0 {
		files.Turns = nil
	}
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("%s: ParseFiles of the file alone\n%s\nParse\n%s", name, transcripttest.Render(files), transcripttest.Render(want))
	}
}

// TestStream_SameAsParse: every fixture, the channel written after its
// messages, and a generated channel of 2 MiB stream as they parse.
func TestStream_SameAsParse(t *testing.T) {
	for path, data := range fixtures(t) {
		sameAsParse(t, path, data)
	}
	late := []byte(`{"messages":[{"id":"3","type":"Default","timestamp":"2024-01-01T00:00:00Z","author":{"id":"4"},"content":"hi"},` +
		`{"id":"5","type":"Default","timestamp":"2024-01-01T00:01:00Z","author":{"id":"4"},"content":"again"}],"channel":{"id":"2","name":"c"}}`)
	sameAsParse(t, "channel last", late)
	if res := parse(t, late); len(res.Turns) != 2 || res.Turns[1].Parent != "3" || res.Turns[0].Title != "c" {
		t.Errorf("channel last:\n%s", transcripttest.Render(res))
	}
	var gen bytes.Buffer
	_, turns, err := scale.DiscordExport(&gen, 2<<20, scale.DiscordSeed)
	if err != nil {
		t.Fatal(err)
	}
	sameAsParse(t, "generated", gen.Bytes())
	if res := parse(t, gen.Bytes()); len(res.Turns) != turns {
		t.Errorf("generated: %d turns, the generator says %d", len(res.Turns), turns)
	}
}

// TestStream_Errors: a broken export fails with Parse's error, after the
// chunks before the break were emitted; an error of emit ends the stream.
func TestStream_Errors(t *testing.T) {
	data := fixtures(t)["testdata/general.json"]
	for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 10} {
		broken := data[:cut]
		_, want := Parse(bytes.NewReader(broken), "export.json")
		chunks, _, got := streamAll(broken, 1)
		if want == nil || got == nil || got.Error() != want.Error() || len(chunks) == 0 {
			t.Fatalf("cut at %d: streamed %v after %d chunks, parsed %v", cut, got, len(chunks), want)
		}
	}
	stop := io.ErrClosedPipe
	calls := 0
	_, err := Stream(bytes.NewReader(data), "export.json", 1, func([]transcript.Turn) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Fatalf("emit's error: %v after %d calls", err, calls)
	}
}

// TestStream_BoundedMemory: a 64 MiB channel streamed in chunks holds a
// chunk and its ids, not the file: the live heap, sampled as the file is
// read and at each chunk, stays a fraction of what the whole parse holds.
func TestStream_BoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 64 MiB")
	}
	var streamed, whole heapProbe
	_, err := Stream(whole.export(), "export.json", 0, func(chunk []transcript.Turn) error {
		whole.sample()
		runtime.KeepAlive(chunk)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	streamed, whole = whole, heapProbe{}
	res, err := Parse(whole.export(), "export.json")
	whole.sample()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d turns; live heap at most %.1f MiB streamed, %.1f MiB parsed whole",
		len(res.Turns), mib(streamed.peak), mib(whole.peak))
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
		_, _, err := scale.DiscordExport(pw, 64<<20, scale.DiscordSeed)
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
