package engine

import (
	"strings"
)

// What a search document carries besides its own text (engine/index
// ranks on it): who said it, as far as that is trusted, and the
// conversation around it. Everything here comes from trusted records
// only: pending text never reaches the index, not even as context.

// whoOf is the speaker a source's who field holds: its id and display name
// when they come from a v2 speaker-id (trusted), nothing otherwise. A
// legacy "[name (id)]" hint was parsed out of message text, so it never
// counts as who spoke.
func whoOf(src *sourceEntry) string {
	v := src.view
	if !v.SpeakerTrusted {
		return ""
	}
	return strings.TrimSpace(v.SpeakerDisplay + " " + v.SpeakerID)
}

// visible reports whether src is a search document (addSourceDoc's
// rule): trusted, not forgotten, and the record search prefers for its
// source-id.
func (s *snapshot) visible(src *sourceEntry) bool {
	return !src.pending() && !src.view.Forgotten && s.sources[src.view.Ref] == src
}

// neighbours returns the visible records just before and just after src
// in its archive (conversation order), or nil.
func (s *snapshot) neighbours(src *sourceEntry) (before, after *sourceEntry) {
	list := src.file.sources
	at := src.pos
	if at < 0 || at >= len(list) || list[at] != src {
		// Not where it was listed: search (a long chat's archive makes
		// this quadratic, which pos avoids).
		at = -1
		for i, e := range list {
			if e == src {
				at = i
				break
			}
		}
	}
	if at < 0 {
		return nil, nil
	}
	for i := at - 1; i >= 0; i-- {
		if s.visible(list[i]) {
			before = list[i]
			break
		}
	}
	for i := at + 1; i < len(list); i++ {
		if s.visible(list[i]) {
			after = list[i]
			break
		}
	}
	return before, after
}

// blockSources returns the who and context of a block from the trusted
// sources it cites: their speakers and their text. (Not the turns those
// answer: a block is rebuilt when a source it cites changes trust, not
// when its neighbour does.)
func (s *snapshot) blockSources(refs []string) (who, context string) {
	var names, texts []string
	seen := map[string]bool{}
	for _, id := range refs {
		src, ok := s.sources[id]
		if !ok || seen[id] || !s.visible(src) {
			continue
		}
		seen[id] = true
		if w := whoOf(src); w != "" && !seen["who:"+w] {
			seen["who:"+w] = true
			names = append(names, w)
		}
		texts = append(texts, src.view.Content)
	}
	return strings.Join(names, "\n"), strings.Join(texts, "\n")
}

// turnBefore is the context of a source: the trusted turn before it, which
// is usually what it answers.
func (s *snapshot) turnBefore(src *sourceEntry) string {
	if b, _ := s.neighbours(src); b != nil {
		return b.view.Content
	}
	return ""
}
