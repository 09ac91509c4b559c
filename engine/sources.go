package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"scriptorium/workspace/archive"
)

// archiveBatch computes the new bytes of every v2 archive a batch of
// records lands in. The whole batch is rejected, before any directory or
// file is touched, when a provider or thread name is unsafe or is
// NFC+casefold-equal to an existing or co-batched name spelled differently
// (SPEC §3.1): two spellings of one name would split one conversation over
// two files on a case-insensitive filesystem, or merge two on another.
// Records whose source-id the v2 archive already holds are skipped.
func (e *Engine) archiveBatch(s *snapshot, recs []archive.Record) (map[string][]byte, []archive.Frame, error) {
	var bad []Violation
	known := e.existingNames()
	byFile := map[string][]archive.Record{}
	var files []string
	for _, r := range recs {
		if err := r.Validate(); err != nil {
			bad = append(bad, Violation{Code: "bad_record", Path: r.SourceID, Message: err.Error()})
			continue
		}
		provider, thread, _, err := archive.ParseSourceID(r.SourceID)
		if err != nil {
			bad = append(bad, Violation{Code: "bad_record", Path: r.SourceID, Message: err.Error()})
			continue
		}
		if msg := known.claim("provider", "", provider); msg != "" {
			bad = append(bad, Violation{Code: "name_collision", Path: "sources/" + provider, Message: msg})
			continue
		}
		if msg := known.claim("thread", provider, thread); msg != "" {
			bad = append(bad, Violation{Code: "name_collision", Path: "sources/" + provider + "/_v2/" + thread + ".md", Message: msg})
			continue
		}
		p := "sources/" + provider + "/_v2/" + thread + ".md"
		if _, ok := byFile[p]; !ok {
			files = append(files, p)
		}
		byFile[p] = append(byFile[p], r)
	}
	if len(bad) > 0 {
		return nil, nil, &Error{Code: CodeRejected, Violations: bad,
			Message: fmt.Sprintf("source batch rejected: %d problem(s); nothing was archived", len(bad))}
	}
	sort.Strings(files)
	out := map[string][]byte{}
	var added []archive.Frame
	for _, p := range files {
		var existing []byte
		if a, ok := s.archives[p]; ok {
			existing = a.data
		}
		data, fr, err := archive.Append(existing, byFile[p])
		if err != nil {
			return nil, nil, &Error{Code: CodeRejected, Err: err,
				Message: fmt.Sprintf("cannot append to %s: %v; run verify and repair the archive first", p, err)}
		}
		if len(fr) > 0 {
			out[p] = data
			added = append(added, fr...)
		}
	}
	return out, added, nil
}

// nameSet tracks provider and thread names by their folded key.
type nameSet struct {
	folded map[string]string // scope + "\x00" + FoldKey(name) -> the spelling in use
}

func (n nameSet) claim(kind, scope, name string) string {
	if err := archive.ValidSegment(name); err != nil {
		return fmt.Sprintf("%s name %q is not a safe path segment: %v", kind, name, err)
	}
	key := kind + "\x00" + archive.FoldKey(scope) + "\x00" + archive.FoldKey(name)
	if have, ok := n.folded[key]; ok && have != name {
		return fmt.Sprintf("%s name %q collides with %q (equal after NFC and case folding)", kind, name, have)
	}
	n.folded[key] = name
	return ""
}

// existingNames reads the provider and thread names already on disk.
func (e *Engine) existingNames() nameSet {
	n := nameSet{folded: map[string]string{}}
	root := filepath.Join(e.ws.Root(), "sources")
	providers, _ := os.ReadDir(root)
	for _, p := range providers {
		if !p.IsDir() {
			continue
		}
		n.folded["provider\x00\x00"+archive.FoldKey(p.Name())] = p.Name()
		for _, dir := range []string{filepath.Join(root, p.Name()), filepath.Join(root, p.Name(), "_v2")} {
			threads, _ := os.ReadDir(dir)
			for _, t := range threads {
				if t.IsDir() || !strings.HasSuffix(t.Name(), ".md") {
					continue
				}
				name := strings.TrimSuffix(t.Name(), ".md")
				n.folded["thread\x00"+archive.FoldKey(p.Name())+"\x00"+archive.FoldKey(name)] = name
			}
		}
	}
	return n
}
