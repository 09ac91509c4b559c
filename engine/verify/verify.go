// Package verify holds the per-file rules of SPEC §3–§4 over parsed files:
// an archive's frames, a topic file's problems and block ids, a citation
// that does not resolve, a block link. It is pure: the core walks its
// snapshot, hands each parsed file here and answers the lookups a rule
// needs across files through Workspace.
package verify

import (
	"fmt"
	"strings"

	"scriptorium/errcode"
	"scriptorium/workspace/archive"
	"scriptorium/workspace/topic"
)

// Workspace answers the cross-file lookups of the rules: the parsed
// workspace the core holds.
type Workspace interface {
	// TopicFile is the parsed topic file at path.
	TopicFile(path string) (*topic.File, bool)
	// IsArchive reports a source archive at path.
	IsArchive(path string) bool
	// AnchorRef is the source-id of the valid frame at path#anchor.
	AnchorRef(path, anchor string) (string, bool)
	// ArchiveAnchor is the anchor under which the archive at path holds
	// the source-id ref.
	ArchiveAnchor(path, ref string) (string, bool)
}

// Archive checks one v2 archive's frames: where parsing stopped, and
// source-ids already archived elsewhere (firstSeen maps a source-id to its
// first archive and is filled in, archive by archive in path order).
func Archive(p string, stop *archive.FrameError, frames []archive.Frame, firstSeen map[string]string) []errcode.Violation {
	var out []errcode.Violation
	if stop != nil {
		where := ""
		if fl := stop.FrameLine; fl > 0 && fl != stop.Line {
			where = fmt.Sprintf(" (the frame starts at line %d)", fl)
		}
		out = append(out, errcode.Violation{Code: "invalid_frame", Path: p, Line: stop.Line,
			Message: "invalid or truncated frame" + where + "; parsing stops here and nothing after it is read: " + stop.Reason})
	}
	for _, f := range frames {
		if prev, dup := firstSeen[f.SourceID]; dup {
			out = append(out, errcode.Violation{Code: "duplicate_source", Path: p, Line: f.Line,
				Message: fmt.Sprintf("source-id %s is already archived in %s", f.SourceID, prev)})
			continue
		}
		firstSeen[f.SourceID] = p
	}
	return out
}

// Loc is where a block id was first seen.
type Loc struct {
	Path string
	Line int
}

// Topic checks one topic file on its own: its parse problems (warnings are
// style, not a rule of SPEC §4) and block ids already used in another
// file (seen is filled in, file by file in path order).
func Topic(p string, problems []topic.Problem, f *topic.File, seen map[string]Loc) []errcode.Violation {
	var out []errcode.Violation
	for _, pr := range problems {
		if pr.Severity == topic.SeverityWarning {
			continue
		}
		out = append(out, errcode.Violation{Code: pr.Code, Path: p, Line: pr.Line, Message: pr.Message})
	}
	for _, b := range f.Blocks() {
		if first, dup := seen[b.BlockID]; dup && first.Path != p {
			out = append(out, errcode.Violation{Code: "duplicate_block_id", Path: p, Line: b.Line,
				Message: fmt.Sprintf("block id ^%s is already used at %s:%d", b.BlockID, first.Path, first.Line)})
		} else if !dup {
			seen[b.BlockID] = Loc{p, b.Line}
		}
	}
	return out
}

// Unresolved is the violation of a footnote citation c that does not
// resolve; target is the archive path it points to ("" when the path
// leaves the workspace). The message names exactly what does not resolve.
func Unresolved(w Workspace, p string, line int, c topic.Citation, target string) errcode.Violation {
	return errcode.Violation{Code: "unresolved_source", Path: p, Line: line, Message: whyUnresolved(w, c, target)}
}

func whyUnresolved(w Workspace, c topic.Citation, target string) string {
	prefix := fmt.Sprintf("footnote cites [%s](%s#%s): ", c.SourceID, c.Path, c.Anchor)
	if target == "" {
		return prefix + "the path leaves the workspace"
	}
	if !w.IsArchive(target) {
		return prefix + "no source archive at " + target
	}
	if ref, ok := w.AnchorRef(target, c.Anchor); ok {
		return prefix + fmt.Sprintf("anchor %s in %s holds source-id %s", c.Anchor, target, ref)
	}
	if anchor, ok := w.ArchiveAnchor(target, c.SourceID); ok {
		return prefix + fmt.Sprintf("%s holds %s under anchor %s", target, c.SourceID, anchor)
	}
	return prefix + fmt.Sprintf("%s has no valid frame with anchor %s", target, c.Anchor)
}

// Link checks one block link of the topic file from: the file must exist
// under topics/ and, with #^id, hold that block; a source-frame link must
// reach a valid frame.
func Link(w Workspace, from string, l topic.Link) (errcode.Violation, bool) {
	if strings.HasPrefix(l.Anchor, "source-") {
		if _, ok := w.AnchorRef(topic.ResolvePath(from, l.Path), l.Anchor); !ok {
			return errcode.Violation{Code: "broken_link", Path: from, Line: l.Line,
				Message: fmt.Sprintf("link (%s) points to a source frame that does not exist", l.Target)}, true
		}
		return errcode.Violation{}, false
	}
	if l.Path != "" && !strings.HasSuffix(l.Path, ".md") {
		return errcode.Violation{}, false // not a topic link; files outside topics are not our business
	}
	target := from
	if l.Path != "" {
		target = topic.ResolvePath(from, l.Path)
	}
	f, ok := w.TopicFile(target)
	if !ok && w.IsArchive(target) && l.Anchor == "" {
		return errcode.Violation{}, false // a link to a whole source archive
	}
	if !ok {
		return errcode.Violation{Code: "broken_link", Path: from, Line: l.Line,
			Message: fmt.Sprintf("link (%s) points to a missing topic file", l.Target)}, true
	}
	if l.BlockID == "" {
		return errcode.Violation{}, false
	}
	for _, b := range f.Blocks() {
		if b.BlockID == l.BlockID {
			return errcode.Violation{}, false
		}
	}
	return errcode.Violation{Code: "broken_link", Path: from, Line: l.Line,
		Message: fmt.Sprintf("link (%s) points to block ^%s, which %s does not hold", l.Target, l.BlockID, target)}, true
}
