package transcripttest

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"scriptorium/transcript"
)

// Render writes one block per turn and then the skip counts, sorted by
// reason. Content is Go-quoted so CR, tabs and trailing spaces are visible,
// while emoji and CJK stay readable (strconv.Quote keeps printable runes).
func Render(res transcript.Result) string {
	var b strings.Builder
	for _, t := range res.Turns {
		parent := t.Parent
		if parent == "" {
			parent = "(root)"
		}
		fmt.Fprintf(&b, "%s/%s/%s <- %s\n", t.Provider, t.Session, t.ID, parent)
		fmt.Fprintf(&b, "  %s tier=%s time=%s", t.Role, t.Tier, t.Time.Format(time.RFC3339Nano))
		if t.Time.Location() != time.UTC {
			b.WriteString(" (NOT UTC)")
		}
		if t.Synthetic {
			b.WriteString(" synthetic")
		}
		if t.SpeakerID != "" || t.SpeakerDisplay != "" {
			fmt.Fprintf(&b, " speaker=%q/%q", t.SpeakerID, t.SpeakerDisplay)
		}
		if t.Group {
			b.WriteString(" group")
		}
		if t.ReplyTo != "" {
			fmt.Fprintf(&b, " reply_to=%q", t.ReplyTo)
		}
		if t.Project != "" {
			fmt.Fprintf(&b, " project=%q", t.Project)
		}
		if t.Title != "" {
			fmt.Fprintf(&b, " title=%q", t.Title)
		}
		fmt.Fprintf(&b, "\n  %s\n", strconv.Quote(t.Content))
	}
	b.WriteString("skipped:\n")
	reasons := make([]string, 0, len(res.Skipped))
	for r := range res.Skipped {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	for _, r := range reasons {
		fmt.Fprintf(&b, "  %s %d\n", r, res.Skipped[r])
	}
	return b.String()
}

// Golden compares got with the file at path, or rewrites the file when
// update is set (go test -update).
func Golden(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, []byte(got)) {
		t.Errorf("%s differs (go test -update rewrites it):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// CheckDAG verifies the invariants every parser promises: ids unique within
// a provider and session, every parent an earlier turn of the same session,
// times in UTC and set, roles and tiers from the SPEC vocabulary (a chat
// parser's tier is "": the importer decides it).
func CheckDAG(t *testing.T, res transcript.Result) {
	t.Helper()
	type key struct{ provider, session, id string }
	seen := map[key]bool{}
	for i, tu := range res.Turns {
		k := key{tu.Provider, tu.Session, tu.ID}
		if seen[k] {
			t.Errorf("turn %d: duplicate id %v", i, k)
		}
		if tu.Parent != "" && !seen[key{tu.Provider, tu.Session, tu.Parent}] {
			t.Errorf("turn %d (%s): parent %q is not an earlier turn of session %q", i, tu.ID, tu.Parent, tu.Session)
		}
		seen[k] = true
		if tu.Time.IsZero() || tu.Time.Location() != time.UTC {
			t.Errorf("turn %d (%s): time %v is zero or not UTC", i, tu.ID, tu.Time)
		}
		if tu.Role != transcript.RoleUser && tu.Role != transcript.RoleAssistant {
			t.Errorf("turn %d (%s): role %q", i, tu.ID, tu.Role)
		}
		// Chat parsers leave the tier to the importer (--owner/--paired).
		if tu.Tier != transcript.TierOwner && tu.Tier != "" {
			t.Errorf("turn %d (%s): tier %q", i, tu.ID, tu.Tier)
		}
		if tu.Content == "" || strings.IndexByte(tu.Content, 0) >= 0 {
			t.Errorf("turn %d (%s): empty content or NUL", i, tu.ID)
		}
	}
}
