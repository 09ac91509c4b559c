package search

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/workspace/archive"
	"scriptorium/workspace/manifest"
)

// readFramesIfSig reads an archive only as far as the frames wanted, and
// each frame it finds is the one FindFrame finds in the whole file: early,
// middle and last frames, several at once, a record whose text carries
// another frame's header lines (body, never a frame), a missing anchor
// (the whole file), and a file that is no longer the version stat'ed.
func TestReadFramesIfSig_AsTheWholeFile(t *testing.T) {
	var recs []archive.Record
	var data []byte
	cut := -1 // the frame whose record line the first read cuts in two
	for rep := 10; cut < 0 && rep < 20; rep++ {
		recs = recs[:0]
		t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
		for i := range 3000 {
			content := fmt.Sprintf("message %d %s", i, strings.Repeat("lorem ipsum ", rep))
			if i == 5 { // a body holding the header of frame 2500, before it
				f := archive.AnchorFor(fmt.Sprintf("slack/t1/m%04d", 2500))
				content = "quoted:\n<a id=\"" + f + "\"></a>\n<!-- source-id: slack/t1/m2500 -->\n<!-- record-lines: 1 -->\n2025-01-02T03:04:05Z fake: not this one"
			}
			recs = append(recs, archive.Record{SourceID: fmt.Sprintf("slack/t1/m%04d", i), Role: "user", Time: t0.Add(time.Duration(i) * time.Minute), Content: content})
		}
		var err error
		if data, _, err = archive.Append(nil, recs); err != nil {
			t.Fatal(err)
		}
		// The line the first read ends in: a record line, if it names one.
		start := bytes.LastIndexByte(data[:firstRead], '\n') + 1
		line := data[start : start+bytes.IndexByte(data[start:], '\n')]
		if at := bytes.Index(line, []byte("message ")); at >= 0 && start+at < firstRead {
			fmt.Sscanf(string(line[at:]), "message %d ", &cut)
		}
	}
	if cut < 0 {
		t.Fatal("no record line spans the first read")
	}
	if len(data) < 8*firstRead {
		t.Fatalf("archive of %d bytes: too small to read in part", len(data))
	}
	p := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	sig := manifest.SigOf(fi)
	anchor := func(i int) string { return archive.AnchorFor(fmt.Sprintf("slack/t1/m%04d", i)) }
	for _, want := range [][]int{{0}, {1}, {300}, {1500}, {2500}, {2999}, {10, 2000}, {2999, 3}, {cut}} {
		var anchors []string
		for _, i := range want {
			anchors = append(anchors, anchor(i))
		}
		var buf []byte
		got, ok := readFramesIfSig(p, sig, anchors, &buf)
		if !ok {
			t.Fatalf("%v: not read", want)
		}
		for _, a := range anchors {
			whole, ok1 := archive.FindFrame(data, a)
			part, ok2 := archive.FindFrame(got, a)
			if !ok1 || !ok2 || whole.Content != part.Content || whole.SourceID != part.SourceID {
				t.Fatalf("%v: frame %s from %d of %d bytes: %q, whole file: %q", want, a, len(got), len(data), part.Content, whole.Content)
			}
		}
		if want[0] < 1000 && len(want) == 1 && len(got) > len(data)/2 {
			t.Errorf("%v: read %d of %d bytes for an early frame", want, len(got), len(data))
		}
	}
	var buf []byte
	if got, ok := readFramesIfSig(p, sig, []string{"source-00000000"}, &buf); !ok || len(got) != len(data) {
		t.Fatalf("a missing anchor: %d bytes, %v; want the whole file", len(got), ok)
	}
	stale := sig
	stale.MtimeNS++
	if _, ok := readFramesIfSig(p, stale, []string{anchor(0)}, &buf); ok {
		t.Fatal("read a file whose signature is not the one given")
	}
}

// frameTexts reads archive after archive into one buffer: the texts taken
// from the first are still its own once the second has overwritten the
// buffer (a frame's strings alias the bytes they were found in).
func TestFrameTexts_BufferReused(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(name, word string) (string, manifest.Sig) {
		var recs []archive.Record
		for i := range 50 {
			recs = append(recs, archive.Record{SourceID: fmt.Sprintf("slack/%s/m%02d", name, i), Role: "user", Time: t0, Content: fmt.Sprintf("%s %d", word, i)})
		}
		data, _, err := archive.Append(nil, recs)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".md")
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return p, manifest.SigOf(fi)
	}
	pa, sa := write("a", "apple")
	pb, sb := write("b", "berry")
	var buf []byte
	aa, ab := archive.AnchorFor("slack/a/m07"), archive.AnchorFor("slack/b/m07")
	ta, ok := frameTexts(pa, sa, []string{aa, "source-00000000"}, &buf)
	if !ok {
		t.Fatal("a not read")
	}
	tb, ok := frameTexts(pb, sb, []string{ab}, &buf)
	if !ok {
		t.Fatal("b not read")
	}
	if ta[aa] != "apple 7" || tb[ab] != "berry 7" {
		t.Errorf("texts %q and %q, want \"apple 7\" and \"berry 7\"", ta[aa], tb[ab])
	}
	if _, ok := ta["source-00000000"]; ok || len(ta) != 1 {
		t.Errorf("a missing anchor has a text: %v", ta)
	}
}
