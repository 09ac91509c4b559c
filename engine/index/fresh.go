package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"scriptorium/workspace/manifest"
	"sort"
	"strconv"
	"strings"
)

// Whether the index still describes the files is recorded in its meta,
// in the same batch as the documents: the fingerprint of the file
// versions indexed, and the content hash of every file that was "racy"
// then (changed within the clock's granularity of the recording, so its
// signature alone cannot be trusted; git's word for it).

// Meta keys the engine writes with every batch.
const (
	FingerprintKey = "fingerprint" // the fingerprint of the files indexed
	RacyKey        = "racy"        // a Racy record, as JSON
)

// Racy is the value stored under RacyKey.
type Racy struct {
	Stamp int64             `json:"stamp"` // unix ns when the record was made
	Files map[string]string `json:"files"` // path → hex sha256 of the content indexed
}

// ParseRacy reads a Racy record; ok is false for a missing or damaged one.
func ParseRacy(meta string) (r Racy, ok bool) {
	if meta == "" || json.Unmarshal([]byte(meta), &r) != nil || r.Files == nil {
		return Racy{}, false
	}
	return r, true
}

// String is the record as stored.
func (r Racy) String() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// HashContent is the hash a Racy record keeps of a file's content.
func HashContent(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// RacyHold reports whether every racy file recorded in meta still holds
// the content it held then. content returns a file's current bytes; a
// record that cannot be read holds nothing.
func RacyHold(meta string, content func(p string) ([]byte, bool)) bool {
	rec, ok := ParseRacy(meta)
	if !ok {
		return false
	}
	paths := make([]string, 0, len(rec.Files))
	for p := range rec.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		data, ok := content(p)
		if !ok || HashContent(data) != rec.Files[p] {
			return false
		}
	}
	return true
}

// Describes reports whether the index is a fresh build of the files whose
// fingerprint is fp: not marked for a rebuild, the same fingerprint, and
// every racy file recorded with it unchanged (content reads them).
func (ix *Index) Describes(fp string, content func(p string) ([]byte, bool)) bool {
	if ix.NeedsRebuild() {
		return false
	}
	if have, err := ix.Meta(FingerprintKey); err != nil || have != fp {
		return false
	}
	racy, err := ix.Meta(RacyKey)
	return err == nil && RacyHold(racy, content)
}

// FileSig is one memory file of a fingerprint: its path and signature.
type FileSig struct {
	Path string
	Sig  manifest.Sig
}

// Fingerprint summarises the files an index derives from (topics first,
// then archives, each in path order, as given) and the promoted
// source-ids. A zero signature (a file written in memory) is stat'ed
// under root.
func Fingerprint(root string, files []FileSig, promoted map[string]bool) string {
	h := sha256.New()
	// The lines are appended by hand, not with fmt: the same bytes, and a
	// one-shot recall hashes one per memory file (2,525 at 100k records).
	var line []byte
	for _, f := range files {
		sig := f.Sig
		if sig == (manifest.Sig{}) {
			fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(f.Path)))
			if err != nil {
				fmt.Fprintf(h, "%s missing\n", f.Path)
				continue
			}
			sig = manifest.SigOf(fi)
		}
		line = append(append(line[:0], f.Path...), ' ') // "%s %d %d %d %d\n"
		line = append(strconv.AppendInt(line, sig.Size, 10), ' ')
		line = append(strconv.AppendInt(line, sig.MtimeNS, 10), ' ')
		line = append(strconv.AppendInt(line, sig.CtimeNS, 10), ' ')
		line = append(strconv.AppendUint(line, sig.Ino, 10), '\n')
		h.Write(line)
	}
	ids := make([]string, 0, len(promoted))
	for id := range promoted {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(h, "promoted %s\n", id)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// RecordFingerprint is the fingerprint of the files a record names, as a
// snapshot of exactly those versions would have it.
func RecordFingerprint(root string, rec Files) string {
	paths := make([]string, 0, len(rec.Sigs))
	for p := range rec.Sigs {
		paths = append(paths, p)
	}
	// A snapshot's fingerprint lists topics first, then archives.
	sort.Slice(paths, func(i, j int) bool {
		ti, tj := strings.HasPrefix(paths[i], "topics/"), strings.HasPrefix(paths[j], "topics/")
		if ti != tj {
			return ti
		}
		return paths[i] < paths[j]
	})
	files := make([]FileSig, len(paths))
	for i, p := range paths {
		files[i] = FileSig{p, rec.Sigs[p]}
	}
	promoted := make(map[string]bool, len(rec.Promoted))
	for _, id := range rec.Promoted {
		promoted[id] = true
	}
	return Fingerprint(root, files, promoted)
}
