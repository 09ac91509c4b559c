package render

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"
)

// VisibilityOwner is the visibility of events drawn from trusted blocks:
// the tier vocabulary of SPEC §5.
const VisibilityOwner = "owner"

// Event is one line of recent_events.jsonl.
type Event struct {
	// Block is the block id, without "^".
	Block string `json:"block"`
	// Path is the topic file's workspace path.
	Path string `json:"path"`
	// Date is the footnote date, YYYY-MM-DD.
	Date string `json:"date"`
	// Excerpt is the start of the block's text on one line.
	Excerpt string `json:"excerpt"`
	// Visibility is the trust tier that may see the event.
	Visibility string `json:"visibility"`
}

// Events returns the recent events of trusted blocks: one per distinct
// (block, footnote date), newest date first; events of one date are in
// topic path order, then file order.
func Events(topics []Topic) []Event {
	type dated struct {
		e    entry
		date string
	}
	var all []dated
	for _, e := range trustedEntries(topics) {
		for _, d := range blockDates(e.block) {
			all = append(all, dated{e, d})
		}
	}
	slices.SortStableFunc(all, func(a, b dated) int {
		return cmp.Or(strings.Compare(b.date, a.date), compareEntries(a.e, b.e))
	})
	events := make([]Event, len(all))
	for i, d := range all {
		events[i] = Event{
			Block:      d.e.block.ID,
			Path:       d.e.path,
			Date:       d.date,
			Excerpt:    excerpt(d.e.block.Text),
			Visibility: VisibilityOwner,
		}
	}
	return events
}

// RecentEvents renders recent_events.jsonl (SPEC §8): Events as one JSON
// object per line. No events give empty output.
func RecentEvents(topics []Topic) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, e := range Events(topics) {
		// Encoding a struct of strings cannot fail.
		_ = enc.Encode(e)
	}
	return buf.Bytes()
}
