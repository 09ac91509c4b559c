package viewcache

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"scriptorium/render"
)

// always is a SaveShare that saves after any render that rendered a topic.
const always = 1 << 30

// topics draws n topics whose blocks are trusted or not as trust says.
func topics(r *rand.Rand, n int) map[string]render.Topic {
	out := map[string]render.Topic{}
	for i := range n {
		p := fmt.Sprintf("topics/t%d.md", i)
		t := render.Topic{Path: p}
		for j := range 1 + r.IntN(4) {
			id := fmt.Sprintf("%08x", r.IntN(30))
			b := render.Block{ID: id, Text: fmt.Sprintf("Block %d of %s, see [x](a.md#^%08x).", j, p, r.IntN(30)),
				Trusted: r.IntN(4) > 0, Links: []string{fmt.Sprintf("%08x", r.IntN(30))}}
			b.Footnotes = []render.Footnote{{Label: "e-1", Date: fmt.Sprintf("2025-01-%02d", 1+r.IntN(9)),
				Sources: []render.Citation{{SourceID: fmt.Sprintf("chat/t/m%d", r.IntN(8))}}}}
			t.Blocks = append(t.Blocks, b)
		}
		out[p] = t
	}
	return out
}

// data stands for a topic's bytes: the key hashes them with the trust.
func data(t render.Topic) []byte {
	var b strings.Builder
	for _, bl := range t.Blocks {
		b.WriteString(bl.ID + bl.Text + bl.Footnotes[0].Date + "\n")
	}
	return []byte(b.String())
}

func trust(t render.Topic) []bool {
	var out []bool
	for _, b := range t.Blocks {
		out = append(out, b.Trusted)
	}
	return out
}

// render sets every topic through a store loaded from dir and returns the
// views and how many topics were rendered rather than merged.
func renderVia(dir string, ts map[string]render.Topic) (map[string][]byte, int) {
	s, v := Load(dir), render.NewViewSet()
	for _, p := range slices.Sorted(maps.Keys(ts)) {
		t := ts[p]
		s.Set(v, p, data(t), trust(t), func() render.Topic { return t })
	}
	misses := s.misses
	s.Finish(v)
	return views(v), misses
}

func views(v *render.ViewSet) map[string][]byte {
	out := maps.Clone(v.Timeline())
	out["recent_events.jsonl"], out["relations.json"] = v.RecentEvents(), v.Relations()
	return out
}

func full(ts map[string]render.Topic) map[string][]byte {
	v := render.NewViewSet()
	for _, t := range ts {
		v.Set(t)
	}
	return views(v)
}

// TestStore_MatchesFullRender: over random edits, trust changes and
// removals, each a fresh process's render through the store, the views are
// a full render's, and an unchanged topic is merged, not rendered.
func TestStore_MatchesFullRender(t *testing.T) {
	defer func(old int) { SaveShare = old }(SaveShare)
	for _, share := range []int{always, 4, 1} {
		SaveShare = share
		r := rand.New(rand.NewPCG(uint64(share), 26))
		dir := t.TempDir()
		ts := topics(r, 12)
		for step := range 40 {
			got, misses := renderVia(dir, ts)
			if !maps.EqualFunc(got, full(ts), bytes.Equal) {
				t.Fatalf("share %d step %d: the views differ from a full render", share, step)
			}
			if step > 0 && share == always && misses > 2 {
				t.Fatalf("step %d: %d topics rendered after one change", step, misses)
			}
			p := fmt.Sprintf("topics/t%d.md", r.IntN(14))
			switch tp, ok := ts[p]; {
			case ok && r.IntN(4) == 0:
				delete(ts, p)
			case ok && r.IntN(2) == 0: // a promotion or a new pending citation: the trust alone changes
				tp.Blocks = slices.Clone(tp.Blocks)
				i := r.IntN(len(tp.Blocks))
				tp.Blocks[i].Trusted = !tp.Blocks[i].Trusted
				ts[p] = tp
			default:
				ts[p] = topics(r, 14)[p]
			}
		}
	}
}

// TestStore_PendingNeverSaved: a block that is not trusted (it cites a
// pending source) is in no view and not in the file; when its source is
// promoted the trust, and with it the key, changes and it is rendered.
func TestStore_PendingNeverSaved(t *testing.T) {
	dir := t.TempDir()
	tp := render.Topic{Path: "topics/a.md", Blocks: []render.Block{
		{ID: "0000000a", Text: "Trusted words.", Trusted: true, Footnotes: []render.Footnote{{Label: "e-1", Date: "2025-01-02"}}},
		{ID: "0000000b", Text: "Pending secret words.", Trusted: false, Footnotes: []render.Footnote{{Label: "e-2", Date: "2025-01-03"}}}}}
	ts := map[string]render.Topic{tp.Path: tp}
	SaveShareWas := SaveShare
	defer func() { SaveShare = SaveShareWas }()
	SaveShare = always
	got, _ := renderVia(dir, ts)
	file, err := os.ReadFile(filepath.Join(dir, Name))
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range got {
		if bytes.Contains(b, []byte("secret")) {
			t.Fatalf("%s holds pending text", name)
		}
	}
	if bytes.Contains(file, []byte("secret")) {
		t.Fatal("the cache holds pending text")
	}
	tp.Blocks = slices.Clone(tp.Blocks)
	tp.Blocks[1].Trusted = true // promoted: same bytes, other trust
	ts[tp.Path] = tp
	got, misses := renderVia(dir, ts)
	if misses != 1 || !bytes.Contains(got["recent_events.jsonl"], []byte("secret")) {
		t.Fatalf("after the promotion: %d rendered, events %s", misses, got["recent_events.jsonl"])
	}
}

// TestLoad_DamagedOrOtherVersionIgnored: every truncation, a flipped byte
// in each place, another version's header and a fragment that decodes but
// holds another rendering all mean rendering every topic, and the views
// stay a full render's.
func TestLoad_DamagedOrOtherVersionIgnored(t *testing.T) {
	defer func(old int) { SaveShare = old }(SaveShare)
	SaveShare = always
	dir := t.TempDir()
	ts := topics(rand.New(rand.NewPCG(1, 2)), 4)
	want := full(ts)
	renderVia(dir, ts)
	path := filepath.Join(dir, Name)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, b []byte, wantMisses int) {
		t.Helper()
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		SaveShare = 0 // never save: the damaged file stays for the next case
		got, misses := renderVia(dir, ts)
		SaveShare = always
		if !maps.EqualFunc(got, want, bytes.Equal) {
			t.Fatalf("%s: the views differ from a full render", what)
		}
		if misses != wantMisses {
			t.Fatalf("%s: %d of %d topics rendered, want %d", what, misses, len(ts), wantMisses)
		}
	}
	check("the file as saved", good, 0)
	for n := 0; n < len(good); n += 1 + n/7 {
		check(fmt.Sprintf("cut at %d", n), good[:n], len(ts))
	}
	for i := 0; i < len(good); i += 1 + i/5 {
		b := slices.Clone(good)
		b[i] ^= 0x20
		check(fmt.Sprintf("byte %d flipped", i), b, len(ts))
	}
	other := binary.AppendUvarint([]byte(magic), render.FragmentVersion+1)
	b := append(other, good[len(other):]...)
	check("another version", b, len(ts))
	// Another binary's rendering under the same version: every event line
	// changed, the checksum made again.
	body := bytes.ReplaceAll(good[:len(good)-4], []byte(`"visibility"`), []byte(`"visibilitx"`))
	check("another rendering", binary.LittleEndian.AppendUint32(body, crc32c(body)), len(ts))
}

// TestFinish_KillLeavesOldOrNew: a process killed at any moment while it
// saves leaves the file it replaces or the new one, whole.
func TestFinish_KillLeavesOldOrNew(t *testing.T) {
	if dir := os.Getenv("VIEWCACHE_SAVER"); dir != "" {
		saveForever(dir)
		return
	}
	dir := t.TempDir()
	var files [2][]byte
	for i := range files {
		d := t.TempDir()
		renderVia2(d, i)
		files[i], _ = os.ReadFile(filepath.Join(d, Name))
	}
	if bytes.Equal(files[0], files[1]) {
		t.Fatal("the two stores are the same")
	}
	r := rand.New(rand.NewPCG(7, 7))
	for round := range 12 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFinish_KillLeavesOldOrNew$")
		cmd.Env = append(os.Environ(), "VIEWCACHE_SAVER="+dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(20+r.IntN(80)) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		b, err := os.ReadFile(filepath.Join(dir, Name))
		if os.IsNotExist(err) {
			continue // killed before its first save
		}
		if !bytes.Equal(b, files[0]) && !bytes.Equal(b, files[1]) {
			t.Fatalf("round %d: the file is neither store (%d bytes)", round, len(b))
		}
		if decode(b) == nil {
			t.Fatalf("round %d: the file does not decode", round)
		}
	}
}

// renderVia2 saves store i of two that differ, into dir.
func renderVia2(dir string, i int) {
	defer func(old int) { SaveShare = old }(SaveShare)
	SaveShare = always
	ts := topics(rand.New(rand.NewPCG(uint64(i), 3)), 300)
	renderVia(dir, ts)
}

func saveForever(dir string) {
	for i := 0; ; i++ {
		renderVia2(dir, i%2) // the other store's keys: every topic rendered and saved
	}
}

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// TestLoad_CountsEntries: a loaded store knows how many trusted blocks
// its fragments hold, which sizes the ViewSet before the first merge; a
// damaged file counts none.
func TestLoad_CountsEntries(t *testing.T) {
	defer func(old int) { SaveShare = old }(SaveShare)
	SaveShare = always
	dir := t.TempDir()
	ts := topics(rand.New(rand.NewPCG(3, 26)), 40)
	renderVia(dir, ts)
	want := 0
	for _, tp := range ts {
		for _, b := range tp.Blocks {
			if b.Trusted {
				want++
			}
		}
	}
	if got := Load(dir).entries; got != want || want == 0 {
		t.Fatalf("%d entries counted, want %d", got, want)
	}
	p := filepath.Join(dir, Name)
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	raw[len(raw)/2] ^= 0xff
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if s := Load(dir); s.entries != 0 || len(s.saved) != 0 {
		t.Fatalf("a damaged store: %d entries, %d fragments", s.entries, len(s.saved))
	}
}
