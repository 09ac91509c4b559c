package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// mustOpen opens an index in a fresh temporary directory and closes it when
// the test ends.
func mustOpen(t testing.TB) *Index {
	t.Helper()
	return mustOpenDir(t, filepath.Join(t.TempDir(), "index"))
}

// mustOpenDir opens the index in dir and closes it when the test ends.
func mustOpenDir(t testing.TB, dir string) *Index {
	t.Helper()
	ix, err := Open(dir)
	if err != nil {
		t.Fatalf("Open(%s): %v", dir, err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	return ix
}

// fixtureDoc is a Doc as written in testdata/search/<case>/docs.json. ID and
// Anchor default from Kind and Ref; docs are visible unless hidden.
type fixtureDoc struct {
	ID             string `json:"id"`
	Kind           string `json:"kind"`
	Path           string `json:"path"`
	Anchor         string `json:"anchor"`
	Ref            string `json:"ref"`
	Time           string `json:"time"`
	Text           string `json:"text"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	SpeakerLabel   string `json:"speaker_label"`
	SpeakerTrusted bool   `json:"speaker_trusted"`
	Hidden         bool   `json:"hidden"`
}

func (f fixtureDoc) doc(t testing.TB) Doc {
	t.Helper()
	d := Doc{
		ID: f.ID, Kind: f.Kind, Path: f.Path, Anchor: f.Anchor, Ref: f.Ref, Text: f.Text,
		SpeakerID: f.SpeakerID, SpeakerDisplay: f.SpeakerDisplay, SpeakerLabel: f.SpeakerLabel,
		SpeakerTrusted: f.SpeakerTrusted, Visible: !f.Hidden,
	}
	if d.ID == "" {
		d.ID = d.Kind + ":" + d.Ref
	}
	if d.Anchor == "" {
		if d.Kind == KindTopic {
			d.Anchor = "^" + d.Ref
		} else {
			sum := sha256.Sum256([]byte(d.Ref))
			d.Anchor = "source-" + hex.EncodeToString(sum[:])[:8]
		}
	}
	if f.Time != "" {
		tm, err := time.Parse(time.RFC3339, f.Time)
		if err != nil {
			t.Fatalf("doc %s: bad time %q: %v", d.ID, f.Time, err)
		}
		d.Time = tm
	}
	return d
}

// loadDocs reads a docs.json file.
func loadDocs(t testing.TB, path string) []Doc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var fds []fixtureDoc
	if err := json.Unmarshal(b, &fds); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	docs := make([]Doc, len(fds))
	for i, f := range fds {
		docs[i] = f.doc(t)
	}
	return docs
}

// refs lists the Ref of each hit.
func refs(hits []Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Ref
	}
	return out
}

// errorName maps a sentinel error to the name fixtures use.
func errorName(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrEmptyQuery):
		return "empty_query"
	case errors.Is(err, ErrQueryTooLong):
		return "query_too_long"
	case errors.Is(err, ErrInvalidQuery):
		return "invalid_query"
	case errors.Is(err, ErrInvalidBound):
		return "invalid_bound"
	}
	return "other: " + err.Error()
}
