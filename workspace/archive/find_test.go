package archive

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestFindFrame_EveryFrame: for archives with multi-line records, bodies
// that look like frames, tombstones and speaker/trust headers, FindFrame
// finds every frame ParseV2 returns, identical, and nothing else.
func TestFindFrame_EveryFrame(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 50; round++ {
		var recs []Record
		n := 1 + rng.Intn(30)
		for i := 0; i < n; i++ {
			body := fmt.Sprintf("message %d", i)
			switch rng.Intn(4) {
			case 0:
				body += "\nsecond line\n\n<a id=\"" + AnchorFor(fmt.Sprintf("p/t/%d", (i+1)%n)) + "\"></a>\n<!-- source-id:p/t/fake -->"
			case 1:
				body += "\r\ntrailing  \n"
			}
			rec := Record{SourceID: fmt.Sprintf("p/t/%d", i), Time: time.Date(2026, 1, 1, 0, 0, i, 0, time.UTC), Role: "user", Content: body}
			if rng.Intn(3) == 0 {
				rec.Role, rec.SpeakerID, rec.SpeakerDisplay = "", fmt.Sprintf("u%d", i), "Ann"
				rec.Pending = rng.Intn(2) == 0
			}
			recs = append(recs, rec)
		}
		data, _, err := Append(nil, recs)
		if err != nil {
			t.Fatal(err)
		}
		if rng.Intn(3) == 0 { // forget some: tombstones in the middle
			ids := map[string]bool{}
			for i := 0; i < n; i += 3 {
				ids[fmt.Sprintf("p/t/%d", i)] = true
			}
			data, _ = Forget(data, ids)
		}
		frames, err := ParseV2(data)
		if err != nil || len(frames) != n {
			t.Fatalf("round %d: %d frames, %v", round, len(frames), err)
		}
		for _, f := range frames {
			got, ok := FindFrame(data, f.Anchor)
			if !ok || !reflect.DeepEqual(got, f) {
				t.Fatalf("round %d: FindFrame(%s) = %+v %v, want %+v", round, f.Anchor, got, ok, f)
			}
		}
		if _, ok := FindFrame(data, AnchorFor("p/t/fake")); ok {
			t.Fatalf("round %d: found a frame that only a record body holds", round)
		}
	}
	if _, ok := FindFrame([]byte("not an archive"), "source-00000000"); ok {
		t.Error("found a frame in a file without the marker")
	}
	if _, ok := FindFrame([]byte(strings.TrimSuffix(Marker, "")+"\n"), "source-00000000"); ok {
		t.Error("found a frame in an empty archive")
	}
}
