package archive

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Seed inputs live in testdata/fuzz/<target>/; the f.Add calls below keep a
// few essentials in the code so a missing corpus cannot silently weaken them.

func FuzzParseV2(f *testing.F) {
	f.Add([]byte(archiveOf(frameBytes("p/t/1", []string{"<!-- speaker-id:u1 -->"}, 1, stamp0+"A (u1): x"))))
	f.Add([]byte(Marker))
	f.Fuzz(func(t *testing.T, data []byte) {
		frames, err := ParseV2(data)
		var fe *FrameError
		if err != nil && (!errors.As(err, &fe) || fe.Line < 1) {
			t.Fatalf("error %v is not a *FrameError with a line", err)
		}
		out := RenderV2(frames)
		again, err2 := ParseV2(out)
		if err2 != nil {
			t.Fatalf("rendered frames do not parse: %v\n%q", err2, out)
		}
		if !reflect.DeepEqual(again, frames) {
			t.Fatalf("re-parse differs:\n%+v\n%+v", again, frames)
		}
		if err != nil {
			return
		}
		// A valid archive is its own rendering, up to the lenient endings.
		_, end, _ := parseV2(data)
		want := data
		switch end {
		case endNoLF:
			want = append(bytes.Clone(data), '\n')
		case endBlankLn:
			want = data[:len(data)-1]
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("render of a valid archive differs:\n%q\n%q", out, data)
		}
		// And it accepts appends that keep its bytes.
		rec := Record{SourceID: "fuzz/t/new", Role: "user", Time: t0, Content: "x"}
		appended, added, err := Append(data, []Record{rec})
		if err != nil || !bytes.HasPrefix(appended, data) {
			t.Fatalf("Append: %v", err)
		}
		all, err := ParseV2(appended)
		if err != nil || !reflect.DeepEqual(all, append(frames, added...)) {
			t.Fatalf("after Append: %v", err)
		}
	})
}

func FuzzParseLegacy(f *testing.F) {
	f.Add([]byte("[2026-08-10T12:00:00Z] user: [B (u1)] hi\n<!-- source-id:p/t/m -->\n[2026-08-10T12:00:00+02:00] assistant: x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := ParseLegacy(data)
		lines := bytes.Count(data, []byte{'\n'}) + 1
		prev := 0
		for _, r := range recs {
			if r.Line <= prev || r.Line > lines {
				t.Fatalf("line %d after %d (of %d)", r.Line, prev, lines)
			}
			prev = r.Line
			if r.Label == "" || !bytes.Contains(data, []byte(r.Content)) {
				t.Fatalf("bad record %+v", r)
			}
			if r.Time.Location().String() != "UTC" {
				t.Fatalf("time not UTC: %v", r.Time)
			}
			if r.HasHint && (r.Framed || r.Label != "user" || r.HintID == "") {
				t.Fatalf("hint on %+v", r)
			}
			if !r.Framed && (r.SourceID != "" || r.Anchor != "") {
				t.Fatalf("unframed record with frame data %+v", r)
			}
		}
	})
}

func FuzzSpeakerID(f *testing.F) {
	f.Add("u456")
	f.Add("a--b")
	f.Fuzz(func(t *testing.T, s string) {
		if utf8.ValidString(s) {
			enc := EncodeSpeakerID(s)
			if strings.Contains(enc, "--") {
				t.Fatalf("EncodeSpeakerID(%q) = %q holds --", s, enc)
			}
			dec, err := DecodeSpeakerID(enc)
			if err != nil || dec != s {
				t.Fatalf("DecodeSpeakerID(EncodeSpeakerID(%q)) = %q, %v", s, dec, err)
			}
		}
		// Whatever decode accepts is canonical: it re-encodes to itself.
		if dec, err := DecodeSpeakerID(s); err == nil {
			if enc := EncodeSpeakerID(dec); enc != s {
				t.Fatalf("DecodeSpeakerID accepted %q, which re-encodes to %q", s, enc)
			}
			if !utf8.ValidString(dec) {
				t.Fatalf("DecodeSpeakerID(%q) gave invalid UTF-8", s)
			}
		}
	})
}

func FuzzAppendContent(f *testing.F) {
	f.Add(adversarial, "B", "u456", false)
	f.Fuzz(func(t *testing.T, content, display, id string, pending bool) {
		if !utf8.ValidString(id) {
			return
		}
		rec := Record{SourceID: "p/t/1", Role: "user", SpeakerDisplay: display, SpeakerID: id, Time: t0, Content: content, Pending: pending}
		if rec.Validate() != nil {
			return
		}
		out, added, err := Append(nil, []Record{rec})
		if err != nil || len(added) != 1 {
			t.Fatalf("Append: %v", err)
		}
		out, added2, err := Append(out, []Record{{SourceID: "p/t/2", Role: "assistant", Time: t0, Content: content}})
		if err != nil || len(added2) != 1 {
			t.Fatalf("second Append: %v", err)
		}
		frames, err := ParseV2(out)
		if err != nil || len(frames) != 2 {
			t.Fatalf("ParseV2: %v, %d frames", err, len(frames))
		}
		f0 := frames[0]
		if f0.Content != content || frames[1].Content != content || f0.Pending != pending || f0.SpeakerID != id {
			t.Fatalf("round trip lost data: %+v", f0)
		}
		if id != "" && (f0.Speaker != SpeakerWithID || f0.SpeakerDisplay() != NormalizeLabelPart(display)) {
			t.Fatalf("speaker display %q, want %q", f0.SpeakerDisplay(), NormalizeLabelPart(display))
		}
	})
}

func FuzzNormalizeLabelPart(f *testing.F) {
	f.Add("  [B]:\tx\x00 ")
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeLabelPart(s)
		if NormalizeLabelPart(n) != n {
			t.Fatalf("not idempotent: %q -> %q", s, n)
		}
		if utf8.RuneCountInString(n) > MaxLabelPartRunes || strings.ContainsAny(n, ":[]") ||
			strings.Contains(n, "  ") || strings.TrimSpace(n) != n || !utf8.ValidString(n) {
			t.Fatalf("NormalizeLabelPart(%q) = %q", s, n)
		}
		for _, r := range n {
			if unicode.IsControl(r) || (unicode.IsSpace(r) && r != ' ') {
				t.Fatalf("NormalizeLabelPart(%q) = %q keeps %U", s, n, r)
			}
		}
	})
}
