package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// ErrCorrupt is returned when the index on disk turns out to be damaged
// after it was opened: bleve panicked, reported an inconsistency, or a
// read failed. The handle then reports NeedsRebuild and its format stamp
// is removed, so this and every other process rebuild the cache instead
// of trusting it again.
var ErrCorrupt = errors.New("index: damaged")

// guard runs fn, turning a panic inside bleve (zap and bolt panic on
// garbage rather than returning errors) into ErrCorrupt. Only panics on
// the calling goroutine can be caught; checkSegments keeps damaged
// segments from reaching bleve's own goroutines.
func (ix *Index) guard(op string, fn func() error) (err error) {
	// Segments are memory-mapped: a file cut short under a live mapping
	// faults on access, which without this kills the process outright.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = ix.markBroken(op, fmt.Errorf("panic: %v", r))
		}
	}()
	return fn()
}

// markBroken records that the index is damaged and returns the ErrCorrupt
// describing it. The stamp goes so that the next Open, in any process,
// discards the directory even if this process dies before rebuilding.
func (ix *Index) markBroken(op string, cause error) error {
	msg := truncate(cause.Error(), 200)
	ix.setRebuild(true, "damaged index: "+msg)
	if !ix.readOnly { // a reader leaves the repair to the next writable open
		_ = removeIfExists(filepath.Join(ix.dir, formatFile))
	}
	return fmt.Errorf("%w (%s: %s)", ErrCorrupt, op, msg)
}

// zapFooterCRC is the size of the CRC-32 that ends every zap segment: the
// IEEE checksum of every byte before it.
const zapFooterCRC = 4

// checkSegments verifies the checksum of every segment file of the bleve
// index at path before bleve maps them. bleve trusts segment bytes: a
// flipped byte makes it panic, sometimes in a goroutine of its own where
// no recover can reach, or return wrong hits. A segment is immutable once
// written, so a mismatch always means damage.
func checkSegments(path string) error {
	store := filepath.Join(path, "store")
	entries, err := os.ReadDir(store)
	if errors.Is(err, os.ErrNotExist) {
		return nil // bleve reports a missing store itself
	}
	if err != nil {
		return fmt.Errorf("read segments: %w", err)
	}
	var buf []byte // made at the first segment checked: a verified index needs none
	known := readVerified(path)
	rec := map[string]segSig{}
	changed := false
	now := time.Now()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".zap") {
			continue
		}
		p := filepath.Join(store, e.Name())
		var sig segSig
		if fi, err := os.Lstat(p); err == nil {
			sig = segSigOf(fi)
		}
		if s, ok := known[e.Name()]; ok && s == sig && sig.ctime != 0 {
			rec[e.Name()] = s
			continue
		}
		if buf == nil {
			buf = make([]byte, 1<<20)
		}
		if err := checkSegment(p, buf); err != nil {
			return fmt.Errorf("segment %s: %w", e.Name(), err)
		}
		edge := now.Add(-verifiedRacy).UnixNano()
		if sig.ctime != 0 && sig.mtime < edge && sig.ctime < edge {
			rec[e.Name()] = sig
			changed = true
		}
	}
	if changed || len(rec) != len(known) {
		writeVerified(path, rec)
	}
	return nil
}

// checkSegment compares one segment's stored CRC with its content.
func checkSegment(p string, buf []byte) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return errors.New("not a regular file")
	}
	size := fi.Size()
	if size <= zapFooterCRC {
		return fmt.Errorf("truncated (%d bytes)", size)
	}
	h := crc32.NewIEEE()
	if _, err := io.CopyBuffer(h, io.LimitReader(f, size-zapFooterCRC), buf); err != nil {
		return err
	}
	var want [zapFooterCRC]byte
	if _, err := io.ReadFull(f, want[:]); err != nil {
		return err
	}
	if got := h.Sum32(); got != binary.BigEndian.Uint32(want[:]) {
		return fmt.Errorf("checksum mismatch (stored %08x, content %08x)", binary.BigEndian.Uint32(want[:]), got)
	}
	return nil
}

// probeQuery looks up a term no document holds (analysed terms have no
// NUL) in the dictionary of every field a search scores or filters on.
func probeQuery() query.Query {
	var qs []query.Query
	for _, f := range []string{fieldText, fieldWho, fieldCtx, fieldDate, fieldKind, fieldPrefix, fieldSpeaker} {
		q := bleve.NewTermQuery("\x00")
		q.SetField(f)
		qs = append(qs, q)
	}
	return bleve.NewDisjunctionQuery(qs...)
}
