// Package sourceview turns one parsed source record, a v2 frame or a
// legacy record, into the result.SourceView every reader is shown. The
// core's snapshot keeps only a record's position and builds its view on
// demand: a million SourceViews held at once cost a fifth of a 1M
// snapshot (issue 26).
package sourceview

import (
	"time"

	"scriptorium/engine/result"
	"scriptorium/workspace/archive"
)

// Frame is the view of v2 frame f of the archive at path; pending is its
// trust now (the frame's marker and the promotion ledger).
func Frame(path string, f *archive.Frame, pending bool) result.SourceView {
	v := result.SourceView{Kind: "source", Ref: f.SourceID, Path: path, Anchor: f.Anchor, Time: formatTime(f.Time),
		Label: f.Label, Content: f.Content, Line: f.Line, Text: f.Text, Forgotten: f.Forgotten, Trust: "trusted",
		// An empty speaker-id marker is a trusted display-only identity
		// (SPEC §3.1): only speakerless frames have no trusted speaker.
		SpeakerTrusted: f.Speaker != archive.SpeakerNone, SpeakerDisplay: f.SpeakerDisplay(), SpeakerLabel: f.SpeakerLabel()}
	if f.Speaker == archive.SpeakerWithID {
		v.SpeakerID = f.SpeakerID
	}
	if pending {
		v.Trust = "pending"
	}
	return v
}

// Legacy is the view of legacy record r of the archive at path, with the
// source-id and anchor archive.LegacyID gives it. Legacy records are
// always trusted (SPEC §3.2).
func Legacy(path, ref, anchor string, r *archive.LegacyRecord) result.SourceView {
	v := result.SourceView{Kind: "source", Ref: ref, Path: path, Anchor: anchor, Time: formatTime(r.Time),
		Label: r.Label, Content: r.Content, Legacy: true, Line: r.Line, Trust: "trusted", Forgotten: archive.LegacyForgotten(*r)}
	if r.HasHint {
		v.SpeakerID, v.SpeakerDisplay = r.HintID, r.HintDisplay
		v.SpeakerLabel = archive.SpeakerLabel(r.HintDisplay, r.HintID)
	}
	return v
}

func formatTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
