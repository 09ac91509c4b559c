package tui

import (
	"fmt"
	"strings"

	"scriptorium/views"
)

// promoteText says what a promotion made trusted and whose words they
// are (the request's Who), then what was distilled into which topics.
func promoteText(summary string, r views.Promoted) string {
	n := len(r.Result.Promoted)
	if n == 0 {
		return "nothing to promote: " + summary + " were promoted already"
	}
	s := "promoted " + summary
	if n != len(r.Refs) {
		s = fmt.Sprintf("promoted %d of %s (the rest were promoted already)", n, summary)
	}
	s += ", now trusted and searchable"
	if r.Result.Revision > 0 {
		s += fmt.Sprintf(" (revision %d)", r.Result.Revision)
	}
	if r.Who != "" {
		s += ": " + r.Who
	}
	d := len(r.Result.Distilled)
	switch {
	case d == 0:
		s += "; nothing distilled (topics cite them already)"
	case len(r.Result.Topics) > 0:
		s += fmt.Sprintf("; %d distilled into %s", d, strings.Join(r.Result.Topics, ", "))
	default:
		s += fmt.Sprintf("; %d distilled into topics", d)
	}
	if d > 0 && d < n {
		s += fmt.Sprintf(", %d already cited", n-d)
	}
	return s
}

// rejectText says what a rejection did, and that it did not trust anything.
func rejectText(r views.SourcesRejected) string {
	n := len(r.Result.Rejected)
	if n == 0 {
		return "nothing to reject: " + r.Request.Summary + " were rejected already"
	}
	s := "rejected " + r.Request.Summary
	if n != len(r.Request.Refs) {
		s = fmt.Sprintf("rejected %d of %s (the rest were rejected already)", n, r.Request.Summary)
	}
	s += ": out of the review queue, still untrusted (R lists them)"
	if r.Request.Reason != "" {
		s += "; reason: " + views.OneLine(r.Request.Reason)
	}
	return s
}
