package index

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"scriptorium/workspace/manifest"
)

// An index built from files can be brought up to date by re-indexing only
// the files that changed, if it knows which versions it holds. Files is
// that record: each file's signature and the promoted source-ids, written
// beside the index (filesName) after each write. It is not in bleve's
// batch, so it may lag a crash behind the index: whoever reads it checks
// it against the fingerprint the batch did record (the caller computes
// the fingerprint of the record and compares), and a record that does not
// match is no record.

// filesName is the record's name in the index directory.
const filesName = "files"

// Files is the record of the file versions the index describes.
type Files struct {
	Sigs     map[string]manifest.Sig // workspace path → signature indexed
	Promoted []string                // promoted source-ids, sorted
}

// WriteFiles replaces the record, best effort: a record that is missing
// or stale only costs the next sync a full rebuild.
func (ix *Index) WriteFiles(f Files) {
	if ix.readOnly {
		return
	}
	paths := make([]string, 0, len(f.Sigs))
	for p := range f.Sigs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b bytes.Buffer
	for _, p := range paths {
		s := f.Sigs[p]
		fmt.Fprintf(&b, "f %d %d %d %d %s\n", s.Size, s.MtimeNS, s.CtimeNS, s.Ino, p)
	}
	for _, id := range f.Promoted {
		fmt.Fprintf(&b, "p %s\n", id)
	}
	if err := writeFileAtomic(ix.dir, filesName, b.Bytes()); err != nil {
		_ = os.Remove(filepath.Join(ix.dir, filesName))
	}
}

// ReadFiles reads the record; ok is false when there is none or it does
// not parse.
func (ix *Index) ReadFiles() (f Files, ok bool) {
	data, err := os.ReadFile(filepath.Join(ix.dir, filesName))
	if err != nil {
		return f, false
	}
	f.Sigs = map[string]manifest.Sig{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "f "):
			// The path is the rest of the line, spaces and all.
			parts := strings.SplitN(line, " ", 6)
			var s manifest.Sig
			if len(parts) != 6 || parts[5] == "" {
				return Files{}, false
			}
			if _, err := fmt.Sscanf(strings.Join(parts[1:5], " "), "%d %d %d %d", &s.Size, &s.MtimeNS, &s.CtimeNS, &s.Ino); err != nil {
				return Files{}, false
			}
			f.Sigs[parts[5]] = s
		case strings.HasPrefix(line, "p "):
			f.Promoted = append(f.Promoted, line[2:])
		default:
			return Files{}, false
		}
	}
	if sc.Err() != nil {
		return Files{}, false
	}
	return f, true
}

// DocRef is a document as the index stores it: its id and ref.
type DocRef struct {
	ID, Ref, Kind string
}

// DocsIn lists the documents of the files named (workspace paths), by a
// lookup of each path's own term.
func (ix *Index) DocsIn(paths []string) ([]DocRef, error) { return ix.docsIn(paths, true) }

// DocIDsIn is DocsIn with the ids alone: it loads no stored field, which
// was most of its cost for a recall asking which blocks of core.md are
// indexed (BENCHMARKS.md, issue 26).
func (ix *Index) DocIDsIn(paths []string) ([]string, error) {
	refs, err := ix.docsIn(paths, false)
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	return ids, err
}

func (ix *Index) docsIn(paths []string, fields bool) ([]DocRef, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.idx == nil {
		return nil, ErrClosed
	}
	qs := make([]query.Query, 0, len(paths))
	for _, p := range paths {
		tq := bleve.NewTermQuery(cleanPath(p))
		tq.SetField(fieldPrefix)
		qs = append(qs, tq)
	}
	var out []DocRef
	err := ix.guard("docs", func() error {
		q := bleve.NewDisjunctionQuery(qs...)
		for from := 0; ; from += 1000 {
			req := bleve.NewSearchRequestOptions(q, 1000, from, false)
			if fields {
				req.Fields = []string{fieldRef, fieldKind}
			}
			req.Score = "none"
			req.SortBy([]string{"_id"})
			res, err := ix.idx.Search(req)
			if err != nil {
				return err
			}
			for _, h := range res.Hits {
				ref, _ := h.Fields[fieldRef].(string)
				kind, _ := h.Fields[fieldKind].(string)
				out = append(out, DocRef{ID: h.ID, Ref: ref, Kind: kind})
			}
			if len(res.Hits) < 1000 {
				return nil
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("documents of %d files: %w", len(paths), err)
	}
	return out, nil
}

// Changed compares the record with the files as they are now (now: each
// path's signature, zero when it is not known from disk; content: its
// bytes) and lists, sorted, the files the index does not hold as they
// are: new, gone, of another or unknown signature, or recorded as racy
// (racy: path → hex SHA-256 of the bytes indexed) with other bytes now.
// promoted lists the source-ids promoted now; the ids whose promotion
// changed are returned too.
func (f Files) Changed(now map[string]manifest.Sig, content func(p string) []byte, racy map[string]string, promoted []string) (files []string, ids map[string]bool) {
	for p, sig := range now {
		old, ok := f.Sigs[p]
		switch {
		case !ok || sig == (manifest.Sig{}) || old != sig:
		case racy[p] != "":
			if manifest.Hash(content(p)) == racy[p] {
				continue
			}
		default:
			continue
		}
		files = append(files, p)
	}
	for p := range f.Sigs {
		if _, ok := now[p]; !ok {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	ids = map[string]bool{}
	for _, id := range f.Promoted {
		ids[id] = true
	}
	for _, id := range promoted {
		if ids[id] {
			delete(ids, id)
		} else {
			ids[id] = true
		}
	}
	return files, ids
}
