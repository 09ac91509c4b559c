package discord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"scriptorium/scale"
	"scriptorium/transcript"
	"scriptorium/transcript/internal/transcripttest"
)

// genMessage is a message of a generated export, as the exporter writes it.
type genMessage struct {
	ID              string  `json:"id"`
	Type            string  `json:"type"`
	Timestamp       string  `json:"timestamp"`
	TimestampEdited *string `json:"timestampEdited"`
	Content         string  `json:"content"`
	Author          struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"author"`
	Reference *struct {
		MessageID string `json:"messageId"`
	} `json:"reference,omitempty"`
}

// overlapping writes a random folder of overlapping exports of a few
// channels: copies edited or not, exports dated alike or not, duplicates
// inside a file, sometimes a file out of time order, ids that are not
// snowflakes, a downloaded attachment, and, when broken, a bad message.
func overlapping(r *rand.Rand, broken bool) []transcript.File {
	var files []transcript.File
	base := time.Date(2024, 3, 4, 10, 0, 0, 0, time.UTC)
	for ch := range 1 + r.IntN(3) {
		chID := fmt.Sprint(838021943394304000 + ch*7)
		odd := r.IntN(6) == 0 // ids not all snowflakes
		n := 1 + r.IntN(40)
		pool := make([]genMessage, n)
		at := base
		for i := range pool {
			if r.IntN(4) != 0 {
				at = at.Add(time.Duration(r.IntN(90)) * time.Second) // some share a time
			}
			m := &pool[i]
			m.ID = fmt.Sprint(1200000000000000000 + int64(i)*1000 + int64(r.IntN(900)))
			if odd && r.IntN(3) == 0 {
				m.ID = fmt.Sprintf("m%d", r.IntN(1000))
			}
			m.Timestamp = at.Format(time.RFC3339Nano)
			m.Type = []string{"Default", "Default", "Default", "Reply", "GuildMemberJoin", "Bogus"}[r.IntN(6)]
			m.Content = fmt.Sprintf("message %d of %s", i, chID)
			if r.IntN(10) == 0 {
				m.Content = " "
			}
			m.Author.ID, m.Author.Name = fmt.Sprint(400+r.IntN(3)), []string{"ana", "bo", "cy"}[r.IntN(3)]
			if m.Type == "Reply" && i > 0 {
				m.Reference = &struct {
					MessageID string `json:"messageId"`
				}{pool[r.IntN(i)].ID}
			}
		}
		for k := range 1 + r.IntN(4) {
			lo := r.IntN(n)
			hi := lo + 1 + r.IntN(n-lo)
			var msgs []genMessage
			for _, m := range pool[lo:hi] {
				for range 1 + r.IntN(8)/7 { // now and then twice in one file
					c := m
					if r.IntN(3) == 0 {
						e := base.Add(time.Duration(r.IntN(5)) * time.Hour).Format(time.RFC3339Nano)
						c.TimestampEdited = &e
						c.Content += fmt.Sprintf(" (edited %s, export %d)", e, k)
					}
					msgs = append(msgs, c)
				}
			}
			if r.IntN(8) == 0 {
				r.Shuffle(len(msgs), func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })
			}
			typeError := false
			if broken && r.IntN(3) == 0 {
				if r.IntN(2) == 0 {
					msgs[r.IntN(len(msgs))].Timestamp = "yesterday"
				} else {
					typeError = true
				}
			}
			exported := []string{"2026-01-05T20:00:00+00:00", "2026-01-06T20:00:00+01:00", ""}[r.IntN(3)]
			names := []string{"general", "general (after)", "dev", "z export", "a export"}
			name := fmt.Sprintf("%s %s-%d.json", names[r.IntN(len(names))], chID, k)
			title := []string{"general", "renamed"}[r.IntN(2)] // a channel renamed between two exports
			data := exportJSON(chID, title, exported, msgs)
			if typeError { // a message whose content is a number: an error only a whole decode sees
				at := bytes.Index(data, []byte(`"content": "`))
				data = append(data[:at:at], append([]byte(`"content": 5, "was": "`), data[at+len(`"content": "`):]...)...)
			}
			files = append(files, transcript.File{Name: name, Data: data})
		}
	}
	if r.IntN(3) == 0 {
		files = append(files, transcript.File{Name: "general.json_Files/photo.png", Data: []byte("\x89PNG\r\n\x1a\n")})
	}
	r.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	return files
}

func exportJSON(chID, title, exported string, msgs []genMessage) []byte {
	ex := map[string]any{
		"guild":    map[string]string{"id": "1", "name": "Makers"},
		"channel":  map[string]string{"id": chID, "type": "GuildTextChat", "name": title},
		"messages": msgs,
	}
	if exported != "" {
		ex["exportedAt"] = exported
	}
	// The exporter's key order: guild and channel first.
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range []string{"guild", "channel", "exportedAt", "messages"} {
		v, ok := ex[k]
		if !ok {
			continue
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		data, _ := json.MarshalIndent(v, "  ", "  ")
		fmt.Fprintf(&b, "%q: %s", k, data)
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// streamFiles runs StreamFiles over files held in memory, putting every
// chunk's turns back in order; opened counts the files open at once, at
// most.
func streamFiles(files []transcript.File, o FilesOptions) (res transcript.Result, chunks int, err error) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	var got []transcript.Turn
	res, err = StreamFiles(names, func(i int) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(files[i].Data)), nil
	}, "dir", o, func(turns []transcript.Turn) error {
		if len(turns) == 0 {
			return errors.New("an empty chunk")
		}
		chunks++
		got = append(got, turns...)
		return nil
	})
	res.Turns = got
	return res, chunks, err
}

// sameAsParseFiles checks StreamFiles against ParseFiles on files: the
// same turns in the same order, the same skips, the same error.
func sameAsParseFiles(t *testing.T, what string, files []transcript.File) {
	t.Helper()
	want, wantErr := ParseFiles(files, "dir")
	for _, size := range []int{1, 1 << 30} {
		got, _, err := streamFiles(files, FilesOptions{ChunkBytes: size})
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Fatalf("%s: streamed error %v, parsed %v", what, err, wantErr)
		}
		if err != nil {
			continue
		}
		if len(want.Turns) == 0 {
			want.Turns = nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, chunks of %d: streamed\n%s\nparsed\n%s", what, size, transcripttest.Render(got), transcripttest.Render(want))
		}
	}
}

// TestStreamFiles_SameAsParseFiles: random folders of overlapping exports
// stream as ParseFiles merges them whole, files in any order.
func TestStreamFiles_SameAsParseFiles(t *testing.T) {
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 26))
		files := overlapping(r, seed%4 == 3)
		sameAsParseFiles(t, fmt.Sprintf("seed %d", seed), files)
	}
	sameAsParseFiles(t, "the overlap fixture", folder(t, "testdata/overlap"))
	var all []transcript.File
	for name, data := range fixtures(t) {
		all = append(all, transcript.File{Name: name, Data: data})
		sameAsParseFiles(t, name, []transcript.File{{Name: name, Data: data}})
	}
	sameAsParseFiles(t, "every fixture", all)
	sameAsParseFiles(t, "no export", []transcript.File{{Name: "a.png", Data: []byte("\x89PNG")}})
}

// TestStreamFiles_Streams: overlapping exports of one channel in time
// order are merged as they are read, the first chunk handed on before
// the second pass has read the exports to their ends; exports out of
// order are merged whole, and beyond MaxWholeBytes refused.
func TestStreamFiles_Streams(t *testing.T) {
	var b bytes.Buffer
	if _, _, err := scale.DiscordExport(&b, 384<<10, scale.DiscordSeed); err != nil {
		t.Fatal(err)
	}
	var whole map[string]json.RawMessage
	if err := json.Unmarshal(b.Bytes(), &whole); err != nil {
		t.Fatal(err)
	}
	var msgs []json.RawMessage
	if err := json.Unmarshal(whole["messages"], &msgs); err != nil {
		t.Fatal(err)
	}
	// Three exports of one channel, each later and a fifth of it further
	// on: each holds the copies that win of its first fifth.
	var files []transcript.File
	n := len(msgs)
	for i := range 3 {
		ex := maps.Clone(whole)
		ex["messages"], _ = json.Marshal(msgs[i*n/5 : (i+3)*n/5])
		ex["exportedAt"] = fmt.Appendf(nil, `"2026-01-0%dT20:00:00+00:00"`, 5+i)
		files = append(files, transcript.File{Name: fmt.Sprintf("general-%d.json", i), Data: exportJSONRaw(ex)})
	}
	sameAsParseFiles(t, "three overlapping", files)
	names := []string{files[0].Name, files[1].Name, files[2].Name}
	var pass2 []*bytes.Reader
	opens := 0
	sawEarly := false
	_, err := StreamFiles(names, func(i int) (io.ReadCloser, error) {
		opens++
		r := bytes.NewReader(files[i].Data)
		if opens > len(files) {
			pass2 = append(pass2, r)
		}
		return io.NopCloser(r), nil
	}, "dir", FilesOptions{ChunkBytes: 1}, func([]transcript.Turn) error {
		if len(pass2) == len(files) && pass2[0].Len() > 0 && pass2[1].Len() > 0 && pass2[2].Len() > 0 {
			sawEarly = true
		}
		return nil
	})
	if err != nil || !sawEarly {
		t.Fatalf("merge: %v; a chunk before the exports' ends: %v", err, sawEarly)
	}

	// An error of emit ends the stream with it.
	stop := errors.New("the store is full")
	calls := 0
	_, err = StreamFiles(names, func(i int) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(files[i].Data)), nil
	}, "dir", FilesOptions{ChunkBytes: 1}, func([]transcript.Turn) error { calls++; return stop })
	if err != stop || calls != 1 {
		t.Fatalf("emit's error: %v after %d calls", err, calls)
	}

	// The third export's messages reversed: merged whole, same result; and
	// refused when the channel's exports are more than the bound.
	last := msgs[2*n/5 : n]
	slices.Reverse(last)
	ex := maps.Clone(whole)
	ex["messages"], _ = json.Marshal(last)
	files[2].Data = exportJSONRaw(ex)
	sameAsParseFiles(t, "one export reversed", files)
	_, _, err = streamFiles(files, FilesOptions{MaxWholeBytes: 256 << 10})
	if err == nil || !strings.Contains(err.Error(), "merged whole") {
		t.Fatalf("beyond the bound: %v", err)
	}
}

// exportJSONRaw writes an export's keys back, guild and channel first.
func exportJSONRaw(ex map[string]json.RawMessage) []byte {
	var b bytes.Buffer
	b.WriteString("{")
	for i, k := range []string{"guild", "channel", "exportedAt", "messages"} {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "%q: %s", k, ex[k])
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// TestStreamFiles_GeneratedOverlap: scale's overlapping exports (the
// import benchmark's) stream as they merge, with the turns it counts, the
// repeated messages counted as duplicates and their edits kept.
func TestStreamFiles_GeneratedOverlap(t *testing.T) {
	dir := t.TempDir()
	_, turns, err := scale.DiscordOverlap(dir, 1<<20, scale.DiscordOverlapSeed)
	if err != nil {
		t.Fatal(err)
	}
	files := folder(t, dir)
	if len(files) != scale.DiscordOverlapFiles {
		t.Fatalf("%d files", len(files))
	}
	sameAsParseFiles(t, "generated", files)
	res, err := ParseFiles(files, "dir")
	edited := 0
	for _, tr := range res.Turns {
		if strings.HasPrefix(tr.Content, "(edited) ") {
			edited++
		}
	}
	if err != nil || len(res.Turns) != turns || res.Skipped[ReasonDuplicate] < turns/4 || edited < turns/100 {
		t.Fatalf("%d turns of %d, skips %v, %d edited: %v", len(res.Turns), turns, res.Skipped, edited, err)
	}
}

// TestStreamFiles_BoundedMemory: a 48 MiB folder of four overlapping
// exports streams with a live heap of a few MiB (a chunk, the open
// exports' decoders, the per-message state), where ParseFiles holds the
// files and every message.
func TestStreamFiles_BoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 48 MiB")
	}
	dir := t.TempDir()
	if _, _, err := scale.DiscordOverlap(dir, 48<<20, scale.DiscordOverlapSeed); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var streamed heapProbe
	_, err := StreamFiles(paths, func(i int) (io.ReadCloser, error) {
		f, err := os.Open(paths[i])
		if err != nil {
			return nil, err
		}
		return readCloser{probed{f, &streamed}, f}, nil
	}, "dir", FilesOptions{}, func(chunk []transcript.Turn) error {
		streamed.sample()
		runtime.KeepAlive(chunk)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var whole heapProbe
	var files []transcript.File
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, transcript.File{Name: filepath.Base(p), Data: data})
	}
	res, err := ParseFiles(files, "dir")
	whole.sample()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d turns; live heap at most %.1f MiB streamed, %.1f MiB merged whole",
		len(res.Turns), mib(streamed.peak), mib(whole.peak))
	runtime.KeepAlive(res)
	runtime.KeepAlive(files)
	if streamed.peak > 20<<20 || streamed.peak > whole.peak/4 {
		t.Errorf("streamed: live heap %.1f MiB (whole: %.1f MiB)", mib(streamed.peak), mib(whole.peak))
	}
}

type readCloser struct {
	io.Reader
	io.Closer
}

// probed samples h's live heap every 2 MiB read from r and the other
// files h probes.
type probed struct {
	r io.Reader
	h *heapProbe
}

func (p probed) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	if p.h.read += n; p.h.read-p.h.at >= 2<<20 {
		p.h.at = p.h.read
		p.h.sample()
	}
	return n, err
}
