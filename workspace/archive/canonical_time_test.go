package archive

import (
	"math/rand"
	"testing"
	"time"
)

// canonicalByParse is what parseCanonicalTime replaces: time.Parse, and
// Format giving the same string back.
func canonicalByParse(s string) (time.Time, bool) {
	t, err := time.Parse(TimeLayout, s)
	if err != nil || t.Format(TimeLayout) != s {
		return time.Time{}, false
	}
	return t, true
}

func checkCanonical(t *testing.T, s string) {
	t.Helper()
	got, ok := parseCanonicalTime(s)
	want, wantOK := canonicalByParse(s)
	if ok != wantOK || !got.Equal(want) || got.Location() != want.Location() {
		t.Fatalf("%q: got %v %v, want %v %v", s, got, ok, want, wantOK)
	}
}

func TestParseCanonicalTime_MatchesParseAndFormat(t *testing.T) {
	for _, s := range []string{
		"2024-01-02T03:04:05Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
		"2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2000-02-29T12:00:00Z",
		"2024-04-31T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-01T00:00:00Z", "2024-01-00T00:00:00Z",
		"2024-01-32T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z",
		"2024-01-01 00:00:00Z", "2024-01-01T00:00:00z", "2024-01-01T00:00:00+", "2024-1-01T00:00:00Z ",
		"+024-01-01T00:00:00Z", "-024-01-01T00:00:00Z", "2024-01-01T00:00:0aZ", "2024-01-01T00:00:00",
		"", "2024-01-01T00:00:00ZZ", "２024-01-01T00:00:00Z",
	} {
		checkCanonical(t, s)
	}
	// Random stamps, then each with one byte changed.
	r := rand.New(rand.NewSource(1))
	for range 20000 {
		ts := time.Unix(r.Int63n(253402300800), 0).UTC()
		s := []byte(ts.Format(TimeLayout))
		checkCanonical(t, string(s))
		s[r.Intn(len(s))] = "0123456789-:TZ +x"[r.Intn(17)]
		checkCanonical(t, string(s))
	}
}

func FuzzParseCanonicalTime(f *testing.F) {
	f.Add("2024-01-02T03:04:05Z")
	f.Add("2023-02-29T00:00:00Z")
	f.Fuzz(func(t *testing.T, s string) { checkCanonical(t, s) })
}
