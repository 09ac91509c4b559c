package archive

import (
	"fmt"
	"sort"

	"scriptorium/errcode"
)

// V2Path is the workspace path of the v2 archive of a thread.
func V2Path(provider, thread string) string { return "sources/" + provider + "/_v2/" + thread + ".md" }

// Names are the provider and thread names in use, by their folded key
// (NFC and case folding): two spellings of one name would split one
// conversation over two files on a case-insensitive filesystem, or merge
// two on another (SPEC §3.1).
type Names struct {
	folded map[string]string // kind + "\x00" + scope + "\x00" + FoldKey(name) → the spelling in use
}

// NewNames returns an empty set.
func NewNames() Names { return Names{folded: map[string]string{}} }

// AddProvider records a provider name found on disk.
func (n Names) AddProvider(name string) { n.folded["provider\x00\x00"+FoldKey(name)] = name }

// AddThread records a thread name of provider found on disk.
func (n Names) AddThread(provider, thread string) {
	n.folded["thread\x00"+FoldKey(provider)+"\x00"+FoldKey(thread)] = thread
}

// claim takes name for kind within scope; it says why not, or "".
func (n Names) claim(kind, scope, name string) string {
	if err := ValidSegment(name); err != nil {
		return fmt.Sprintf("%s name %q is not a safe path segment: %v", kind, name, err)
	}
	key := kind + "\x00" + FoldKey(scope) + "\x00" + FoldKey(name)
	if have, ok := n.folded[key]; ok && have != name {
		return fmt.Sprintf("%s name %q collides with %q (equal after NFC and case folding)", kind, name, have)
	}
	n.folded[key] = name
	return ""
}

// Batch computes the new bytes of every v2 archive a batch of records
// lands in, by workspace path, and the frames it adds; existing returns
// an archive's current bytes (nil: none yet). The whole batch is refused
// (REJECTED, with a violation per problem) when a record is invalid or a
// provider or thread name is unsafe or collides with one in names or in
// the batch spelled differently. Records whose source-id the archive
// already holds are skipped.
func Batch(names Names, recs []Record, existing func(p string) []byte) (map[string][]byte, []Frame, error) {
	var bad []errcode.Violation
	byFile := map[string][]Record{}
	var files []string
	for _, r := range recs {
		if err := r.Validate(); err != nil {
			bad = append(bad, errcode.Violation{Code: "bad_record", Path: r.SourceID, Message: err.Error()})
			continue
		}
		provider, thread, _, err := ParseSourceID(r.SourceID)
		if err != nil {
			bad = append(bad, errcode.Violation{Code: "bad_record", Path: r.SourceID, Message: err.Error()})
			continue
		}
		if msg := names.claim("provider", "", provider); msg != "" {
			bad = append(bad, errcode.Violation{Code: "name_collision", Path: "sources/" + provider, Message: msg})
			continue
		}
		p := V2Path(provider, thread)
		if msg := names.claim("thread", provider, thread); msg != "" {
			bad = append(bad, errcode.Violation{Code: "name_collision", Path: p, Message: msg})
			continue
		}
		if _, ok := byFile[p]; !ok {
			files = append(files, p)
		}
		byFile[p] = append(byFile[p], r)
	}
	if len(bad) > 0 {
		return nil, nil, &errcode.Error{Code: errcode.Rejected, Violations: bad,
			Message: fmt.Sprintf("source batch rejected: %d problem(s); nothing was archived", len(bad))}
	}
	sort.Strings(files)
	out := map[string][]byte{}
	var added []Frame
	for _, p := range files {
		data, fr, err := Append(existing(p), byFile[p])
		if err != nil {
			return nil, nil, &errcode.Error{Code: errcode.Rejected, Err: err,
				Message: fmt.Sprintf("cannot append to %s: %v; run verify and repair the archive first", p, err)}
		}
		if len(fr) > 0 {
			out[p] = data
			added = append(added, fr...)
		}
	}
	return out, added, nil
}
