package forget

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"scriptorium/engine/records"
	"scriptorium/engine/result"
)

// fileChange is a history row's recorded bytes of one file (the core's
// JSON of history.files).
type fileChange struct {
	Before []byte `json:"before"`
	After  []byte `json:"after"`
}

// The state.db part of a forget's clean-up: history rows, sleep pass
// reports and events that kept a copy of the forgotten text.

// copyReader reads the rows that may hold a copy: the store for a dry
// run, the scrubber's pinned connection for the real one.
type copyReader interface {
	Copies(ctx context.Context, skip int64) (records.CopyRows, error)
}

// scrubNote replaces a diff that held forgotten text.
func scrubNote(rev int64) string { return fmt.Sprintf("(removed by forget at revision %d)\n", rev) }

// scrubState finds, and given a *records.Scrubber scrubs, the state.db
// rows that hold a needle: history rows lose the recorded bytes and diffs
// of those files (and are marked scrubbed by rev, so revert refuses them),
// pass reports the diffs, events their data. It returns one line per row.
func scrubState(ctx context.Context, src copyReader, rev int64, nd needles) ([]string, error) {
	w, apply := src.(*records.Scrubber)
	rows, err := src.Copies(ctx, rev)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range rows.History {
		var diffs map[string]string
		var files map[string]fileChange
		_ = json.Unmarshal([]byte(h.Diffs), &diffs)
		_ = json.Unmarshal([]byte(h.Files), &files)
		var hit []string
		for _, p := range unionKeys(diffs, files) {
			fc := files[p]
			if nd.hit(diffs[p]) || nd.hitBytes(fc.Before) || nd.hitBytes(fc.After) {
				hit = append(hit, p)
				delete(files, p)
				if _, ok := diffs[p]; ok {
					diffs[p] = scrubNote(rev)
				}
			}
		}
		if len(hit) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("history revision %d (%s): the recorded bytes and diffs of %s", h.Revision, h.Kind, strings.Join(hit, ", ")))
		if !apply {
			continue
		}
		dj, _ := json.Marshal(diffs)
		fj := []byte("{}")
		if len(files) > 0 {
			fj, _ = json.Marshal(files)
		}
		if err := w.SetHistory(ctx, h.Revision, string(dj), string(fj), rev); err != nil {
			return nil, fmt.Errorf("scrub history revision %d: %w", h.Revision, err)
		}
	}
	for _, p := range rows.Passes {
		var changed []result.FileDiff
		_ = json.Unmarshal([]byte(p.Changed), &changed)
		var hit []string
		for i, c := range changed {
			if nd.hit(c.Diff) {
				hit = append(hit, c.Path)
				changed[i].Diff = scrubNote(rev)
			}
		}
		errText := p.Error
		if nd.hit(errText) {
			hit, errText = append(hit, "its error"), strings.TrimSpace(scrubNote(rev))
		}
		if len(hit) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("sleep pass #%d: the diffs of %s", p.ID, strings.Join(hit, ", ")))
		if !apply {
			continue
		}
		cj, _ := json.Marshal(changed)
		if err := w.SetPass(ctx, p.ID, string(cj), errText); err != nil {
			return nil, fmt.Errorf("scrub sleep pass %d: %w", p.ID, err)
		}
	}
	for _, ev := range rows.Events {
		if !jsonHolds([]byte(ev.Data), nd) {
			continue
		}
		out = append(out, fmt.Sprintf("event %d (%s): its data", ev.ID, ev.Kind))
		if !apply {
			continue
		}
		data, _ := json.Marshal(map[string]any{"kind": ev.Kind, "scrubbed_by": rev})
		if err := w.SetEvent(ctx, ev.ID, string(data)); err != nil {
			return nil, fmt.Errorf("scrub event %d: %w", ev.ID, err)
		}
	}
	return out, nil
}

func unionKeys(diffs map[string]string, files map[string]fileChange) []string {
	set := map[string]bool{}
	for p := range diffs {
		set[p] = true
	}
	for p := range files {
		set[p] = true
	}
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// jsonHolds reports whether any string of a JSON document, or the bytes a
// base64 string encodes ([]byte fields), holds a needle. Matching decoded
// strings finds text that JSON escaping hides from a byte search.
func jsonHolds(data []byte, nd needles) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return nd.hitBytes(data)
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			if nd.hit(x) {
				return true
			}
			if len(x) >= 4 && len(x)%4 == 0 {
				if b, err := base64.StdEncoding.DecodeString(x); err == nil && nd.hitBytes(b) {
					return true
				}
			}
		case []any:
			for _, y := range x {
				if walk(y) {
					return true
				}
			}
		case map[string]any:
			for k, y := range x {
				if nd.hit(k) || walk(y) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}
