package archive

import (
	"bytes"
	"strings"
	"testing"
)

const tombstoneM3 = `<a id="source-6ca24df9"></a>
<!-- source-id:openprogram/group/m3 -->
<!-- forgotten:2026-08-10T12:00:00Z -->
`

func TestParseV2_Tombstone(t *testing.T) {
	data := archiveOf(tombstoneM3, frameBytes("openprogram/group/m4", nil, 1, stamp0+"user: kept"))
	frames := mustParse(t, data)
	if len(frames) != 2 {
		t.Fatalf("%d frames, want 2", len(frames))
	}
	f := frames[0]
	want := Frame{SourceID: "openprogram/group/m3", Anchor: "source-6ca24df9", Time: t0, Line: 3, Forgotten: true}
	if f != want {
		t.Errorf("tombstone = %+v\nwant       %+v", f, want)
	}
	if frames[1].Line != 7 || frames[1].Content != "kept" {
		t.Errorf("frame after the tombstone = %+v", frames[1])
	}
	if got := string(RenderV2(frames)); got != data {
		t.Errorf("render is not canonical:\n%s\nwant\n%s", got, data)
	}
}

func TestParseV2_TombstoneNoFinalLF(t *testing.T) {
	data := archiveOf(strings.TrimSuffix(tombstoneM3, "\n"))
	frames := mustParse(t, data)
	if len(frames) != 1 || !frames[0].Forgotten {
		t.Fatalf("frames = %+v", frames)
	}
	out, added, err := Append([]byte(data), []Record{{SourceID: "openprogram/group/m9", Role: "user", Time: t0, Content: "x"}})
	if err != nil || len(added) != 1 || !bytes.HasPrefix(out, []byte(data)) {
		t.Fatalf("Append after a tombstone without LF: %v %q", err, out)
	}
	if got := mustParse(t, string(out)); len(got) != 2 || got[1].Line != 7 {
		t.Fatalf("after Append: %+v", got)
	}
}

func TestParseV2_TombstoneInvalid(t *testing.T) {
	tests := map[string]string{
		"non-canonical time": strings.Replace(tombstoneM3, "12:00:00Z", "12:00:00+00:00", 1),
		"no time":            strings.Replace(tombstoneM3, "2026-08-10T12:00:00Z", "", 1),
		"no comment end":     strings.Replace(tombstoneM3, "Z -->", "Z", 1),
		"after speaker-id":   strings.Replace(tombstoneM3, "<!-- forgotten:", "<!-- speaker-id:u1 -->\n<!-- forgotten:", 1),
		"with record text":   tombstoneM3 + "[2026-08-10T12:00:00Z] user: x\n",
	}
	for name, frame := range tests {
		t.Run(name, func(t *testing.T) {
			frames, err := ParseV2([]byte(archiveOf(frame)))
			if err == nil {
				t.Fatalf("accepted %q as %+v", frame, frames)
			}
		})
	}
}

func TestAppend_SkipsForgottenSource(t *testing.T) {
	data := []byte(archiveOf(tombstoneM3))
	out, added, err := Append(data, []Record{{SourceID: "openprogram/group/m3", Role: "user", Time: t0, Content: "back again"}})
	if err != nil || len(added) != 0 || !bytes.Equal(out, data) {
		t.Fatalf("a forgotten source-id was archived again: %v %q", err, out)
	}
}

func TestForget_ReplacesOnlyTheSelectedFrames(t *testing.T) {
	keep1 := frameBytes("openprogram/group/m1", []string{"<!-- speaker-id:u1 -->"}, 1, stamp0+"A (u1): first")
	gone := frameBytes("openprogram/group/m3", []string{"<!-- speaker-id:u456 -->", "<!-- trust:pending -->"}, 2,
		stamp0+"B (u456): the secret\nsecond line")
	keep2 := frameBytes("openprogram/group/m5", nil, 1, stamp0+"assistant: last")
	data := []byte(archiveOf(keep1, gone, keep2))
	out, removed := Forget(data, map[string]bool{"openprogram/group/m3": true, "not/in/file": true})
	want := archiveOf(keep1, tombstoneM3, keep2)
	if string(out) != want {
		t.Fatalf("Forget =\n%s\nwant\n%s", out, want)
	}
	if len(removed) != 1 || removed[0].SourceID != "openprogram/group/m3" || removed[0].Line != 9 ||
		removed[0].SHA256 != digest([]byte(gone)) {
		t.Errorf("removed = %+v", removed)
	}
	if bytes.Contains(out, []byte("secret")) {
		t.Error("the forgotten text is still there")
	}
	// Forgetting again changes nothing and reports nothing.
	again, removed := Forget(out, map[string]bool{"openprogram/group/m3": true})
	if !bytes.Equal(again, out) || len(removed) != 0 {
		t.Errorf("second Forget changed %q / %+v", again, removed)
	}
}

func TestForget_StopsAtInvalidFrame(t *testing.T) {
	good := frameBytes("p/t/1", nil, 1, stamp0+"user: one")
	data := []byte(archiveOf(good) + "\ngarbage p/t/2\n")
	out, removed := Forget(data, map[string]bool{"p/t/2": true})
	if !bytes.Equal(out, data) || len(removed) != 0 {
		t.Errorf("Forget touched bytes past the invalid frame: %q", out)
	}
}

func TestForget_LastFrameWithoutLF(t *testing.T) {
	data := []byte(strings.TrimSuffix(archiveOf(frameBytes("p/t/1", nil, 1, stamp0+"user: one")), "\n"))
	out, removed := Forget(data, map[string]bool{"p/t/1": true})
	frames := mustParse(t, string(out))
	if len(removed) != 1 || len(frames) != 1 || !frames[0].Forgotten || bytes.Contains(out, []byte("one")) {
		t.Fatalf("Forget = %q, %+v", out, removed)
	}
}

func TestForgetLegacy_KeepsLinesAndTime(t *testing.T) {
	data := "# Telegram group\n" +
		"[2026-08-10T12:00:00Z] user: [B (u456)] the secret\r\n" +
		"second secret line\n" +
		"\n" +
		"<a id=\"source-0badc0de\"></a>\n" +
		"<!-- source-id:openprogram/group/m4 -->\n" +
		"<!-- speaker-id:u9 -->\n" +
		"[2026-08-10T14:30:00+02:00] user: framed secret\n" +
		"[2026-08-10T12:35:00Z] user: kept\n"
	before := ParseLegacy([]byte(data))
	out, removed := ForgetLegacy([]byte(data), map[int]bool{2: true, 8: true})
	want := "# Telegram group\n" +
		"[2026-08-10T12:00:00Z] forgotten: \n" +
		"\n" +
		"\n" +
		"<a id=\"source-0badc0de\"></a>\n" +
		"<!-- source-id:openprogram/group/m4 -->\n" +
		"<!-- speaker-id: -->\n" +
		"[2026-08-10T14:30:00+02:00] forgotten: \n" +
		"[2026-08-10T12:35:00Z] user: kept\n"
	if string(out) != want {
		t.Fatalf("ForgetLegacy =\n%q\nwant\n%q", out, want)
	}
	if len(removed) != 2 || removed[0].Line != 2 || removed[1].SourceID != "openprogram/group/m4" {
		t.Errorf("removed = %+v", removed)
	}
	after := ParseLegacy(out)
	if len(after) != len(before) {
		t.Fatalf("%d records after, %d before", len(after), len(before))
	}
	for i := range after {
		a, b := after[i], before[i]
		if a.Line != b.Line || a.Anchor != b.Anchor || a.SourceID != b.SourceID || !a.Time.Equal(b.Time) {
			t.Errorf("record %d moved: %+v, was %+v", i, a, b)
		}
	}
	if !LegacyForgotten(after[0]) || !LegacyForgotten(after[1]) || LegacyForgotten(after[2]) {
		t.Errorf("LegacyForgotten wrong: %+v", after)
	}
	again, removed := ForgetLegacy(out, map[int]bool{2: true, 8: true})
	if string(again) != string(out) || len(removed) != 0 {
		t.Errorf("second ForgetLegacy changed %q / %+v", again, removed)
	}
}

// FuzzForget: forgetting any set of frames of any archive leaves a file
// that parses to exactly as many frames, the forgotten ones tombstones with
// their source-id, anchor and time, the others byte for byte as they were.
func FuzzForget(f *testing.F) {
	f.Add([]byte(archiveOf(tombstoneM3, frameBytes("openprogram/group/m4", nil, 1, stamp0+"user: kept"))), uint64(3))
	f.Add([]byte(archiveOf(frameBytes("p/t/1", []string{"<!-- speaker-id:u1 -->"}, 2, stamp0+"A (u1): x\ny"))), uint64(1))
	f.Fuzz(func(t *testing.T, data []byte, mask uint64) {
		frames, _ := ParseV2(data)
		ids := map[string]bool{}
		for i, fr := range frames {
			if mask&(1<<(i%64)) != 0 {
				ids[fr.SourceID] = true
			}
		}
		out, removed := Forget(data, ids)
		after, _ := ParseV2(out)
		if len(after) != len(frames) {
			t.Fatalf("%d frames after Forget, %d before", len(after), len(frames))
		}
		n := 0
		for i, a := range after {
			b := frames[i]
			if a.SourceID != b.SourceID || a.Anchor != b.Anchor || !a.Time.Equal(b.Time) {
				t.Fatalf("frame %d changed identity: %+v, was %+v", i, a, b)
			}
			switch {
			case ids[b.SourceID]:
				if !a.Forgotten || a.Content != "" || a.Text != "" {
					t.Fatalf("frame %d not a tombstone: %+v", i, a)
				}
				if !b.Forgotten {
					n++
				}
			case a.Forgotten != b.Forgotten || a.Text != b.Text || a.SpeakerID != b.SpeakerID || a.Pending != b.Pending:
				t.Fatalf("frame %d was not to be forgotten: %+v, was %+v", i, a, b)
			}
		}
		if n != len(removed) {
			t.Fatalf("%d removed reported, %d frames forgotten", len(removed), n)
		}
		if again, more := Forget(out, ids); !bytes.Equal(again, out) || len(more) != 0 {
			t.Fatal("Forget is not idempotent")
		}
	})
}
