package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Forgetting is the one sanctioned exception to append-only archives: the
// owner's forget replaces records in place. A v2 record becomes a
// tombstone frame that keeps its source-id, anchor and time, so citations
// elsewhere still resolve and the record is never archived again; a
// legacy record keeps its header time and its line count, so the line-
// based ids of the records after it do not move. Every other byte of the
// file stays as it was.

// ForgottenLabel is the label a forgotten legacy record is left with.
const ForgottenLabel = "forgotten"

// Removed is one record Forget or ForgetLegacy took out of an archive.
type Removed struct {
	// SourceID is the record's source-id ("" for an unframed legacy record,
	// which the caller names by its line).
	SourceID string
	// Line is the record's frame line (v2) or header line (legacy).
	Line int
	// SHA256 is the hex SHA-256 of the bytes removed: the whole v2 frame,
	// or the legacy record from its label to its end. It lets a ledger
	// prove what was removed without keeping it.
	SHA256 string
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Forget returns data with every valid frame whose source-id is in ids
// replaced by its tombstone, and the records removed (in file order).
// Frames already forgotten are left alone and not reported; so is anything
// after the first invalid frame, which no reader sees. When nothing is
// removed, out is data itself.
func Forget(data []byte, ids map[string]bool) (out []byte, removed []Removed) {
	var spans []span
	frames, _, _ := parseV2Spans(data, &spans)
	out = data
	// Splice back to front so the earlier spans stay where they are.
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		if f.Forgotten || !ids[f.SourceID] {
			continue
		}
		sp := spans[i]
		removed = append(removed, Removed{SourceID: f.SourceID, Line: f.Line, SHA256: digest(data[sp.start:sp.end])})
		tomb := f.Tombstone().appendTo(nil)
		next := make([]byte, 0, len(out)-(sp.end-sp.start)+len(tomb))
		next = append(next, out[:sp.start]...)
		next = append(next, tomb...)
		out = append(next, out[sp.end:]...)
	}
	for i, j := 0, len(removed)-1; i < j; i, j = i+1, j-1 {
		removed[i], removed[j] = removed[j], removed[i]
	}
	return out, removed
}

// LegacyForgotten reports whether a legacy record is one ForgetLegacy left:
// labelled ForgottenLabel with nothing but line breaks for content.
func LegacyForgotten(r LegacyRecord) bool {
	return r.Label == ForgottenLabel && strings.Trim(r.Content, "\n") == ""
}

// ForgetLegacy returns a legacy archive with the records whose header line
// is in lines blanked: the header keeps its time as written, the label
// becomes ForgottenLabel, every content line is emptied and a speaker-id
// frame line above it loses its value. The file keeps its number of lines,
// so an unframed record's line-based id, and every anchor, stays valid.
// Records already forgotten are left alone and not reported.
func ForgetLegacy(data []byte, lines map[int]bool) (out []byte, removed []Removed) {
	recs, spans := parseLegacy(data)
	out = data
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if !lines[r.Line] || LegacyForgotten(r) {
			continue
		}
		sp := spans[i]
		removed = append(removed, Removed{SourceID: r.SourceID, Line: r.Line, SHA256: digest(data[sp.label:sp.end])})
		head := bytes.LastIndexByte(out[:sp.label], '\n') + 1 // start of the header line
		var b []byte
		b = append(b, out[:sp.frames]...)
		b = append(b, blankSpeakerIDs(out[sp.frames:head])...)
		b = append(b, out[head:sp.label]...)
		b = append(b, ForgottenLabel+": "...)
		b = append(b, strings.Repeat("\n", strings.Count(r.Content, "\n"))...)
		out = append(b, out[sp.end:]...)
	}
	for i, j := 0, len(removed)-1; i < j; i, j = i+1, j-1 {
		removed[i], removed[j] = removed[j], removed[i]
	}
	return out, removed
}

// blankSpeakerIDs empties the value of every speaker-id comment among a
// legacy record's frame lines, keeping each line (and so the line count).
func blankSpeakerIDs(frameLines []byte) []byte {
	var b []byte
	for _, line := range bytes.SplitAfter(frameLines, []byte{'\n'}) {
		if bytes.HasPrefix(line, []byte(speakerIDPrefix)) {
			line = []byte(speakerIDPrefix + commentSuffix + "\n")
		}
		b = append(b, line...)
	}
	return b
}
