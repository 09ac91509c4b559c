package archive

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestFrameSpans_AsFindFrame: the bytes at each anchor's span are the
// frame FindFrame finds in the whole archive (the first of a repeated
// source-id, a record whose body looks like a frame, a tombstone, a last
// frame without its LF), and FrameAt refuses a span moved by a byte, cut
// short, of another anchor, or over bytes changed since.
func TestFrameSpans_AsFindFrame(t *testing.T) {
	at := time.Date(2026, 8, 10, 12, 0, 0, 0, time.UTC)
	var recs []Record
	for i := range 6 {
		recs = append(recs, Record{SourceID: fmt.Sprintf("telegram/g/m%d", i), SpeakerID: "u1", SpeakerDisplay: "Ann",
			Time: at.Add(time.Duration(i) * time.Minute), Content: fmt.Sprintf("line %d\nsecond line", i), Pending: i == 2})
	}
	// A body that looks like a frame of m5 is body, not m5's frame.
	recs[1].Content = "fake:\n\n" + `<a id="` + AnchorFor("telegram/g/m5") + `"></a>` + "\n<!-- source-id:telegram/g/m5 -->"
	data, _, err := Append(nil, recs)
	if err != nil {
		t.Fatal(err)
	}
	tomb := strings.Replace(string(data), "line 3\nsecond line", "", 1) // not a valid tombstone: the span check fails it
	for name, archive := range map[string][]byte{
		"valid":         data,
		"duplicate":     []byte(string(data) + "\n" + strings.SplitN(string(data), "\n\n", 3)[1] + "\n"),
		"no final LF":   data[:len(data)-1],
		"broken middle": []byte(tomb),
	} {
		spans := FrameSpans(archive)
		for _, rec := range recs {
			a := AnchorFor(rec.SourceID)
			want, found := FindFrame(archive, a)
			sp, ok := spans[a]
			if !found {
				if ok {
					if f, ok := FrameAt(archive[sp.Off:sp.Off+sp.Len], a, sp.Off+sp.Len == len(archive)); ok {
						t.Errorf("%s %s: FrameAt took a frame FindFrame does not find: %+v", name, a, f)
					}
				}
				continue
			}
			if !ok {
				t.Errorf("%s %s: no span", name, a)
				continue
			}
			got, ok := FrameAt(archive[sp.Off:sp.Off+sp.Len], a, sp.Off+sp.Len == len(archive))
			want.Line = 0
			if !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: FrameAt %v %+v, FindFrame %+v", name, a, ok, got, want)
			}
			for what, b := range map[string][]byte{
				"a byte later":   archive[sp.Off+1 : min(len(archive), sp.Off+sp.Len+1)],
				"a byte earlier": archive[max(0, sp.Off-1) : sp.Off+sp.Len-1],
				"cut short":      archive[sp.Off : sp.Off+sp.Len-2],
				"a byte more":    archive[sp.Off:min(len(archive), sp.Off+sp.Len+1)],
			} {
				if sp.Off+sp.Len == len(archive) && what == "a byte more" {
					continue
				}
				if f, ok := FrameAt(b, a, false); ok {
					t.Errorf("%s %s %s: FrameAt took %+v", name, a, what, f)
				}
			}
			if _, ok := FrameAt(archive[sp.Off:sp.Off+sp.Len], AnchorFor("telegram/g/other"), true); ok {
				t.Errorf("%s %s: FrameAt took the frame for another anchor", name, a)
			}
		}
	}
	if FrameSpans([]byte("# not v2\n")) != nil {
		t.Error("spans of a file that is not a v2 archive")
	}
}
