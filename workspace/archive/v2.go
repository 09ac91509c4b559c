package archive

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Marker is the first line of every v2 archive, starting at byte 0.
const Marker = "<!-- openprogram-source-archive:v2 -->"

// TimeLayout is the only time format of v2 record headers: RFC 3339 in UTC
// with second precision and a literal Z.
const TimeLayout = "2006-01-02T15:04:05Z"

// Frame header lines, without their LF.
const (
	anchorPrefix      = `<a id="source-`
	anchorSuffix      = `"></a>`
	sourceIDPrefix    = "<!-- source-id:"
	speakerIDPrefix   = "<!-- speaker-id:"
	trustPrefix       = "<!-- trust:"
	pendingLine       = "<!-- trust:pending -->"
	recordLinesPrefix = "<!-- record-lines:"
	forgottenPrefix   = "<!-- forgotten:"
	commentSuffix     = " -->"
)

// SpeakerKind says which identity a v2 frame carries.
type SpeakerKind int

const (
	// SpeakerNone is a speakerless frame: no speaker-id marker, and the
	// label is the role. Web, CLI, TUI and assistant turns are speakerless.
	SpeakerNone SpeakerKind = iota
	// SpeakerDisplayOnly is a trusted display-only identity: an empty
	// speaker-id marker, and the label is the display name.
	SpeakerDisplayOnly
	// SpeakerWithID is a trusted speaker id carried in the speaker-id marker.
	SpeakerWithID
)

// String returns "none", "display-only" or "id".
func (k SpeakerKind) String() string {
	switch k {
	case SpeakerNone:
		return "none"
	case SpeakerDisplayOnly:
		return "display-only"
	case SpeakerWithID:
		return "id"
	}
	return "SpeakerKind(" + strconv.Itoa(int(k)) + ")"
}

// AnchorFor returns the HTML anchor of a source-id: "source-" and the first
// 8 lowercase hex digits of its SHA-256.
func AnchorFor(sourceID string) string {
	sum := sha256.Sum256([]byte(sourceID))
	// One allocation, not two: every frame parsed computes its anchor.
	var b [len("source-") + 8]byte
	copy(b[:], "source-")
	hex.Encode(b[len("source-"):], sum[:4])
	return string(b[:])
}

// Record is one message as a writer hands it to the archive.
//
// The speaker fields decide the frame's identity: a non-empty SpeakerID gives
// a speaker-id marker (trusted id); otherwise a SpeakerDisplay that is not
// empty after normalisation gives the empty, display-only marker; otherwise
// the record is speakerless and its label is Role.
type Record struct {
	// SourceID is <provider>/<thread>/<message-id> (see ParseSourceID).
	SourceID string
	// Role labels a speakerless record ("user", "assistant"). It is not
	// stored for records with a speaker.
	Role string
	// SpeakerID is the trusted sender id from the channel, raw (unencoded).
	SpeakerID string
	// SpeakerDisplay is the trusted sender display name, raw.
	SpeakerDisplay string
	// Time is when the message was sent; it is stored in UTC to the second.
	Time time.Time
	// Content is the message, stored byte-exact.
	Content string
	// Pending marks a record from an unpaired sender (trust:pending).
	Pending bool
}

// speaker returns the identity the record's frame carries and its label.
func (r Record) speaker() (SpeakerKind, string) {
	switch {
	case r.SpeakerID != "":
		return SpeakerWithID, SpeakerLabel(r.SpeakerDisplay, r.SpeakerID)
	case NormalizeLabelPart(r.SpeakerDisplay) != "":
		// A display name that normalises to nothing identifies nobody, so it
		// does not make a display-only identity.
		return SpeakerDisplayOnly, NormalizeLabelPart(r.SpeakerDisplay)
	}
	return SpeakerNone, r.Role
}

// Validate reports whether the record can be archived. Errors wrap
// ErrInvalidRecord: a bad source-id, a zero time or one outside years
// 0000–9999, a speaker id that is not valid UTF-8, a speaker whose label
// normalises to nothing, or (for speakerless records) a role that is empty,
// holds a space, or is changed by NormalizeLabelPart.
func (r Record) Validate() error {
	if err := ValidateSourceID(r.SourceID); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidRecord, err)
	}
	if r.Time.IsZero() {
		return fmt.Errorf("%w: source %q: zero time", ErrInvalidRecord, r.SourceID)
	}
	if y := r.Time.UTC().Year(); y < 0 || y > 9999 {
		return fmt.Errorf("%w: source %q: year %d out of range", ErrInvalidRecord, r.SourceID, y)
	}
	if !utf8.ValidString(r.SpeakerID) {
		return fmt.Errorf("%w: source %q: speaker id is not valid UTF-8", ErrInvalidRecord, r.SourceID)
	}
	kind, label := r.speaker()
	switch {
	case kind != SpeakerNone && label == "":
		return fmt.Errorf("%w: source %q: speaker label is empty after normalisation", ErrInvalidRecord, r.SourceID)
	case kind == SpeakerNone && !validRole(r.Role):
		return fmt.Errorf("%w: source %q: role %q is not a plain label", ErrInvalidRecord, r.SourceID, r.Role)
	}
	return nil
}

// validRole reports whether role can stand as a label on its own.
func validRole(role string) bool {
	return role != "" && !strings.Contains(role, " ") && NormalizeLabelPart(role) == role
}

// Frame returns the frame the record becomes (Line is 0). Call Validate
// first: the frame of an invalid record may not parse back.
func (r Record) Frame() Frame {
	kind, label := r.speaker()
	stamp := r.Time.UTC().Format(TimeLayout)
	// Parsing the stamp back gives exactly the time ParseV2 will return.
	t, _ := time.Parse(TimeLayout, stamp)
	f := Frame{
		SourceID: r.SourceID,
		Anchor:   AnchorFor(r.SourceID),
		Speaker:  kind,
		Pending:  r.Pending,
		Text:     "[" + stamp + "] " + label + ": " + r.Content,
		Time:     t,
		Label:    label,
		Content:  r.Content,
	}
	if kind == SpeakerWithID {
		f.SpeakerID = r.SpeakerID
	}
	f.RecordLines = 1 + strings.Count(f.Text, "\n")
	return f
}

// Frame is one v2 frame, as parsed or about to be written.
type Frame struct {
	// SourceID is the frame's source-id.
	SourceID string
	// Anchor is "source-" plus 8 hex digits; always AnchorFor(SourceID).
	Anchor string
	// Speaker is the identity the frame carries.
	Speaker SpeakerKind
	// SpeakerID is the decoded trusted id (Speaker == SpeakerWithID only).
	SpeakerID string
	// Pending is true when the frame has the trust:pending marker.
	Pending bool
	// Forgotten marks a tombstone: the record was forgotten by the owner.
	// Only SourceID, Anchor, Time and Line are set; the speaker, trust,
	// label and content are gone with the record's bytes. (Beside Pending:
	// two bools in one word; a 1M snapshot holds a million frames.)
	Forgotten bool
	// Text is the record text exactly, without the LF that ends the frame.
	// RenderV2 writes Text; Time, Label and Content are its parts.
	Text string
	// Time is the record time, UTC.
	Time time.Time
	// Label is the speaker label, or the role for speakerless frames.
	Label string
	// Content is the message, byte-exact (may hold CR, LF, U+2028, …).
	Content string
	// Line is the 1-based line of the anchor (0 for a frame not in a file).
	Line int
	// RecordLines is the record-lines count: 1 + the LFs in Text; 0 for a
	// tombstone, which has no record text.
	RecordLines int
}

// Tombstone returns the frame that replaces f when its record is
// forgotten: the same source-id, anchor and time, and nothing else. Its
// anchor keeps resolving, so citations of it elsewhere stay valid, and its
// source-id keeps Append from archiving the record again.
func (f Frame) Tombstone() Frame {
	t, _ := time.Parse(TimeLayout, f.Time.UTC().Format(TimeLayout))
	return Frame{SourceID: f.SourceID, Anchor: AnchorFor(f.SourceID), Time: t, Line: f.Line, Forgotten: true}
}

// SpeakerLabel returns the label of a frame with a speaker, "" for a
// speakerless one (whose label is only its role).
func (f Frame) SpeakerLabel() string {
	if f.Speaker == SpeakerNone {
		return ""
	}
	return f.Label
}

// SpeakerDisplay returns the normalised display name, derived from the
// label: for a frame with an id, the label without its " (<normalised id>)"
// suffix ("" when the label is only the id); for a display-only frame, the
// label; for a speakerless frame, "".
func (f Frame) SpeakerDisplay() string {
	switch f.Speaker {
	case SpeakerDisplayOnly:
		return f.Label
	case SpeakerWithID:
		id := NormalizeLabelPart(f.SpeakerID)
		if id == "" {
			return f.Label
		}
		if f.Label == id {
			return ""
		}
		if d, ok := strings.CutSuffix(f.Label, " ("+id+")"); ok {
			return d
		}
		// Only a hand-edited file gets here; the label is all there is.
		return f.Label
	}
	return ""
}

// Role returns the role of the record: the label of a speakerless frame, and
// "user" for a frame with a speaker, since only users have trusted speakers.
func (f Frame) Role() string {
	if f.Speaker == SpeakerNone {
		return f.Label
	}
	return "user"
}

// text returns the record text, composing it from its parts when a
// hand-built frame left Text empty.
func (f Frame) text() string {
	if f.Text != "" {
		return f.Text
	}
	return "[" + f.Time.UTC().Format(TimeLayout) + "] " + f.Label + ": " + f.Content
}

// appendTo appends the frame's lines, ending with the LF after the record
// text. The anchor and record-lines are recomputed, not copied from f.
func (f Frame) appendTo(b []byte) []byte {
	b = append(b, anchorPrefix...)
	b = append(b, AnchorFor(f.SourceID)[len("source-"):]...)
	b = append(b, anchorSuffix+"\n"...)
	b = append(b, sourceIDPrefix...)
	b = append(b, f.SourceID...)
	b = append(b, commentSuffix+"\n"...)
	if f.Forgotten {
		// A tombstone ends at its forgotten line: no speaker, no trust, no
		// record text.
		b = append(b, forgottenPrefix...)
		b = append(b, f.Time.UTC().Format(TimeLayout)...)
		return append(b, commentSuffix+"\n"...)
	}
	text := f.text()
	switch f.Speaker {
	case SpeakerWithID:
		b = append(b, speakerIDPrefix...)
		b = append(b, EncodeSpeakerID(f.SpeakerID)...)
		b = append(b, commentSuffix+"\n"...)
	case SpeakerDisplayOnly:
		b = append(b, speakerIDPrefix+commentSuffix+"\n"...)
	}
	if f.Pending {
		b = append(b, pendingLine+"\n"...)
	}
	b = append(b, recordLinesPrefix...)
	b = strconv.AppendInt(b, int64(1+strings.Count(text, "\n")), 10)
	b = append(b, commentSuffix+"\n"...)
	b = append(b, text...)
	return append(b, '\n')
}

// RenderV2 returns a complete v2 archive holding frames in order: the marker
// line, then each frame after one blank line. Zero frames give the marker
// line alone. Frames must be valid (as ParseV2 and Record.Frame make them);
// RenderV2(ParseV2(x)) reproduces x byte for byte unless x used one of the
// lenient endings.
func RenderV2(frames []Frame) []byte {
	b := make([]byte, 0, 64+len(frames)*160)
	b = append(b, Marker+"\n"...)
	for _, f := range frames {
		b = append(b, '\n')
		b = f.appendTo(b)
	}
	return b
}
