package slack

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"scriptorium/scale"
	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// streamAll runs Stream over files with chunkBytes and returns the chunks
// it emitted and its result with every chunk's turns put back in order.
// It fails the test if a file is opened twice or while another is open.
func streamAll(t testing.TB, files []transcript.File, chunkBytes int) ([][]transcript.Turn, transcript.Result, error) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	opened := map[int]bool{}
	open := 0
	var chunks [][]transcript.Turn
	res, err := Stream(names, func(i int) (io.ReadCloser, error) {
		if opened[i] || open > 0 {
			t.Fatalf("%s opened twice, or with another file open", names[i])
		}
		opened[i] = true
		open++
		return closer{bytes.NewReader(files[i].Data), &open}, nil
	}, "x.zip", chunkBytes, func(turns []transcript.Turn) error {
		chunks = append(chunks, turns)
		return nil
	})
	if open != 0 {
		t.Fatalf("%d files left open", open)
	}
	for _, c := range chunks {
		res.Turns = append(res.Turns, c...)
	}
	return chunks, res, err
}

type closer struct {
	io.Reader
	open *int
}

func (c closer) Close() error { *c.open--; return nil }

// sameAsParse checks that files streamed a turn at a time and in one chunk
// give ParseFiles' turns, order, skips and error, each turn's parent in an
// earlier chunk or its own.
func sameAsParse(t testing.TB, files []transcript.File) {
	want, wantErr := ParseFiles(files, "x.zip")
	if len(want.Turns) == 0 {
		want.Turns = nil
	}
	for _, size := range []int{1, 1 << 30} {
		chunks, got, err := streamAll(t, files, size)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("chunks of %d: streamed error %v, parsed %v", size, err, wantErr)
		}
		if err != nil {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("chunks of %d: streamed\n%s\nparsed\n%s", size, transcripttest.Render(got), transcripttest.Render(want))
		}
		seen := map[string]bool{}
		for _, c := range chunks {
			if len(c) == 0 {
				t.Fatal("an empty chunk")
			}
			for _, tr := range c {
				if tr.Parent != "" && !seen[tr.Session+"/"+tr.Parent] {
					t.Fatalf("turn %s/%s before its parent %s", tr.Session, tr.ID, tr.Parent)
				}
				seen[tr.Session+"/"+tr.ID] = true
			}
		}
		if size == 1<<30 && len(chunks) > 1 {
			t.Errorf("%d chunks for one large chunk", len(chunks))
		}
	}
}

// TestStream_SameAsParse: the fixture exports and a generated one of 2 MiB
// stream as they parse, each file opened once and one at a time.
func TestStream_SameAsParse(t *testing.T) {
	for name, files := range exports(t) {
		t.Run(name, func(t *testing.T) { sameAsParse(t, files) })
	}
	dir := t.TempDir()
	_, turns, err := scale.SlackExport(dir, 2<<20, scale.SlackSeed)
	if err != nil {
		t.Fatal(err)
	}
	files := readExport(t, dir)
	sameAsParse(t, files)
	if res := parse(t, files); len(res.Turns) != turns {
		t.Errorf("generated: %d turns, the generator says %d", len(res.Turns), turns)
	}
}

// TestStream_Errors: an export with a broken day file fails with
// ParseFiles' error, after the chunks before it were emitted; an error of
// emit ends the stream.
func TestStream_Errors(t *testing.T) {
	files := exports(t)["acme"]
	var broken []transcript.File
	for _, f := range files {
		if filepath.ToSlash(f.Name) == "general/2024-03-05.json" {
			f.Data = f.Data[:len(f.Data)/2]
		}
		broken = append(broken, f)
	}
	_, want := ParseFiles(broken, "x.zip")
	chunks, _, got := streamAll(t, broken, 1)
	if want == nil || got == nil || got.Error() != want.Error() || len(chunks) == 0 {
		t.Fatalf("streamed %v after %d chunks, parsed %v", got, len(chunks), want)
	}
	calls := 0
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	_, err := Stream(names, func(i int) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(files[i].Data)), nil
	}, "x.zip", 1, func([]transcript.Turn) error {
		calls++
		return io.ErrClosedPipe
	})
	if err != io.ErrClosedPipe || calls != 1 {
		t.Fatalf("emit's error: %v after %d calls", err, calls)
	}
}

// TestStream_BoundedMemory: a 48 MiB export read from disk a file at a
// time holds a day and a chunk, not the export: the live heap, sampled at
// every file opened and every chunk, stays well under the export's size.
func TestStream_BoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 48 MiB")
	}
	dir := t.TempDir()
	size, _, err := scale.SlackExport(dir, 48<<20, scale.SlackSeed)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var peak uint64
	sample := func() {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapAlloc)
	}
	n := 0
	_, err = Stream(names, func(i int) (io.ReadCloser, error) {
		if n++; n%50 == 0 {
			sample()
		}
		return os.Open(filepath.Join(dir, names[i]))
	}, "gen", 0, func(chunk []transcript.Turn) error {
		sample()
		runtime.KeepAlive(chunk)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%.1f MiB in %d files; live heap at most %.1f MiB", float64(size)/(1<<20), len(names), float64(peak)/(1<<20))
	if peak > 20<<20 {
		t.Errorf("live heap %.1f MiB streaming a %.1f MiB export", float64(peak)/(1<<20), float64(size)/(1<<20))
	}
}
