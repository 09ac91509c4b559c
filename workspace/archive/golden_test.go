package archive

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Set SCRIPTORIUM_UPDATE_GOLDEN=1 to rewrite the expected JSON files; review
// the diff before committing. (No -update flag: the golden package owns it.)
var updateGolden = os.Getenv("SCRIPTORIUM_UPDATE_GOLDEN") == "1"

type frameView struct {
	Line           int    `json:"line"`
	SourceID       string `json:"source_id"`
	Anchor         string `json:"anchor"`
	Speaker        string `json:"speaker"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	SpeakerLabel   string `json:"speaker_label"`
	Role           string `json:"role"`
	Pending        bool   `json:"pending"`
	Time           string `json:"time"`
	Label          string `json:"label"`
	Content        string `json:"content"`
	RecordLines    int    `json:"record_lines"`
	Forgotten      bool   `json:"forgotten,omitempty"`
}

type frameErrorView struct {
	Line      int    `json:"line"`
	FrameLine int    `json:"frame_line"`
	Reason    string `json:"reason"`
	NotV2     bool   `json:"not_v2"`
}

type v2Golden struct {
	Frames []frameView     `json:"frames"`
	Error  *frameErrorView `json:"error"`
}

type legacyView struct {
	Line        int    `json:"line"`
	SourceID    string `json:"source_id"`
	Anchor      string `json:"anchor"`
	Framed      bool   `json:"framed"`
	Time        string `json:"time"`
	Label       string `json:"label"`
	Content     string `json:"content"`
	HasHint     bool   `json:"has_hint"`
	HintID      string `json:"hint_id"`
	HintDisplay string `json:"hint_display"`
}

func marshalGolden(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if updateGolden {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (set SCRIPTORIUM_UPDATE_GOLDEN=1 to create it): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n got: %s\nwant: %s", path, got, want)
	}
}

func TestGolden_V2(t *testing.T) {
	files, err := filepath.Glob("testdata/v2/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			frames, perr := ParseV2(data)
			g := v2Golden{Frames: []frameView{}}
			for _, f := range frames {
				g.Frames = append(g.Frames, frameView{
					Line: f.Line, SourceID: f.SourceID, Anchor: f.Anchor, Speaker: f.Speaker.String(),
					SpeakerID: f.SpeakerID, SpeakerDisplay: f.SpeakerDisplay(), SpeakerLabel: f.SpeakerLabel(),
					Role: f.Role(), Pending: f.Pending, Time: f.Time.Format(time.RFC3339), Label: f.Label,
					Content: f.Content, RecordLines: f.RecordLines, Forgotten: f.Forgotten,
				})
			}
			var fe *FrameError
			if errors.As(perr, &fe) {
				g.Error = &frameErrorView{Line: fe.Line, FrameLine: fe.FrameLine, Reason: fe.Reason, NotV2: errors.Is(perr, ErrNotV2)}
			} else if perr != nil {
				t.Fatalf("unexpected error type %T", perr)
			}
			checkGolden(t, strings.TrimSuffix(file, ".md")+".json", marshalGolden(t, g))

			// A valid file renders back to itself (plus the LF a file that
			// lacks its final one gets).
			if perr == nil {
				want := data
				if _, end, _ := parseV2(data); end == endNoLF {
					want = append(bytes.Clone(data), '\n')
				}
				if got := RenderV2(frames); !bytes.Equal(got, want) {
					t.Errorf("RenderV2 is not byte-exact:\n%q", got)
				}
			}
		})
	}
}

func TestGolden_Legacy(t *testing.T) {
	files, err := filepath.Glob("testdata/legacy/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			views := []legacyView{}
			for _, r := range ParseLegacy(data) {
				views = append(views, legacyView{
					Line: r.Line, SourceID: r.SourceID, Anchor: r.Anchor, Framed: r.Framed,
					Time: r.Time.Format(time.RFC3339Nano), Label: r.Label, Content: r.Content,
					HasHint: r.HasHint, HintID: r.HintID, HintDisplay: r.HintDisplay,
				})
			}
			checkGolden(t, strings.TrimSuffix(file, ".md")+".json", marshalGolden(t, views))
		})
	}
}
