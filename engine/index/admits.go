package index

import (
	"strings"
)

// Admits reports whether a hit passes q's filters (speaker, path prefix,
// dates, kinds) exactly as Search applies them, for rankings computed
// outside the index (the embedding search) over the same documents.
func (q Query) Admits(h Hit) bool {
	if len(q.Kinds) > 0 {
		ok := false
		for _, k := range q.Kinds {
			ok = ok || k == h.Kind
		}
		if !ok {
			return false
		}
	}
	if s := strings.TrimSpace(q.Speaker); s != "" {
		if h.Kind != KindSource {
			return false
		}
		key := foldKey(s)
		d := Doc{SpeakerID: h.SpeakerID, SpeakerDisplay: h.SpeakerDisplay, SpeakerLabel: h.SpeakerLabel}
		match := false
		for _, k := range speakerKeys(&d) {
			match = match || k == key
		}
		if !match {
			return false
		}
	}
	if p := cleanPath(q.PathPrefix); p != "" {
		match := false
		for _, have := range pathPrefixes(h.Path) {
			match = match || have == p || (!strings.HasSuffix(p, "/") && have == p+"/")
		}
		if !match {
			return false
		}
	}
	if !q.Since.IsZero() || !q.Until.IsZero() {
		if h.Time.IsZero() {
			return false
		}
		sec := h.Time.Unix()
		if !q.Since.IsZero() {
			lo := q.Since.Unix()
			if q.Since.Nanosecond() > 0 {
				lo++
			}
			if sec < lo {
				return false
			}
		}
		if !q.Until.IsZero() && sec > q.Until.Unix() {
			return false
		}
	}
	return true
}
