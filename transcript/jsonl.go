package transcript

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// line is one SPEC §7 import line. Every field is written, even when empty,
// so the output reads the same for every turn and needs no defaults applied.
type line struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Parent         string `json:"parent"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id"`
	SpeakerDisplay string `json:"speaker_display"`
	Time           string `json:"time"`
	Tier           string `json:"tier"`
	Group          bool   `json:"group"`
	Synthetic      bool   `json:"synthetic"`
}

// WriteJSONL writes turns as SPEC §7 JSONL, one object per line in the order
// given, ready for sessions.Store.Import. Times keep their sub-second part
// (the store truncates to seconds); content is byte-exact after decoding and
// U+2028/U+2029 are escaped, so every object stays on one physical line.
func WriteJSONL(w io.Writer, turns []Turn) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	// HTML escaping would turn "<" into \u003c: harmless after decoding, but
	// it makes transcripts full of tags unreadable on disk.
	enc.SetEscapeHTML(false)
	for i, t := range turns {
		if t.Time.IsZero() {
			return fmt.Errorf("turn %d (%s/%s/%s): no time", i, t.Provider, t.Session, t.ID)
		}
		if err := enc.Encode(line{
			Session: t.Session, Provider: t.Provider, ID: t.ID, Parent: t.Parent,
			Role: t.Role, Content: t.Content, SpeakerID: t.SpeakerID, SpeakerDisplay: t.SpeakerDisplay,
			Time: t.Time.UTC().Format(time.RFC3339Nano), Tier: t.Tier, Group: t.Group, Synthetic: t.Synthetic,
		}); err != nil {
			return err
		}
	}
	return bw.Flush()
}
