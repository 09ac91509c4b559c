package engine

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"scriptorium/workspace/topic"
)

// OfflineModelName labels the built-in deterministic model everywhere.
const OfflineModelName = "offline"

// distillRecord is one source record to turn into memory.
type distillRecord struct {
	Ref, Path, Anchor string // source-id, archive path, anchor
	Time              string // RFC 3339
	Label             string // record label (speaker label or role)
	SpeakerID         string
	SpeakerDisplay    string
	Role              string
	Thread            string // "<provider>/<thread>"
	Content           string
}

// offlineEdits is the built-in deterministic writer: each record becomes
// one cited block in a topic chosen by speaker (people/<name>.md) or, for
// speakerless records, by thread (threads/<provider>-<thread>.md). The
// result is a valid transaction without any network.
func offlineEdits(s *snapshot, recs []distillRecord) []Edit {
	type pending struct {
		title string
		parts []string
	}
	byPath := map[string]*pending{}
	var order []string
	for _, r := range recs {
		text := blockSafe(r.Content)
		if text == "" {
			continue
		}
		p, title := offlineTopicFor(r)
		if byPath[p] == nil {
			byPath[p] = &pending{title: title}
			order = append(order, p)
		}
		id := uniqueBlockID(s, "block:"+r.Ref)
		label := topic.NewFootnoteLabel("footnote:" + r.Ref)
		date := r.Time
		if len(date) >= 10 {
			date = date[:10]
		}
		who := r.Label
		if who == "" {
			who = r.Role
		}
		block := fmt.Sprintf("%s: %s[^%s] ^%s", who, text, label, id)
		def := topic.FormatDefinition(topic.Definition{Label: label, Date: date,
			Sources: []topic.Citation{{SourceID: r.Ref, Path: relFrom(p, r.Path), Anchor: r.Anchor}}})
		byPath[p].parts = append(byPath[p].parts, block, def)
	}
	sort.Strings(order)
	var edits []Edit
	for _, p := range order {
		pd := byPath[p]
		body := strings.Join(pd.parts, "\n\n") + "\n"
		if _, exists := s.topics[p]; exists {
			edits = append(edits, Edit{Op: "append", Path: p, Content: &body})
			continue
		}
		content := "# " + pd.title + "\n\n" + body
		edits = append(edits, Edit{Op: "create", Path: p, Content: &content})
	}
	return edits
}

// uniqueBlockID derives a block id from the source-id, re-hashing in the
// rare case the id is taken, so ids stay unique across the workspace.
func uniqueBlockID(s *snapshot, seed string) string {
	used := map[string]bool{}
	for _, p := range s.topicPaths {
		for _, b := range s.topics[p].file.Blocks() {
			used[b.BlockID] = true
		}
	}
	id := topic.NewBlockID(seed)
	for i := 1; used[id]; i++ {
		id = topic.NewBlockID(fmt.Sprintf("%s#%d", seed, i))
	}
	return id
}

func offlineTopicFor(r distillRecord) (path, title string) {
	if r.SpeakerID != "" || r.SpeakerDisplay != "" {
		name := r.SpeakerDisplay
		if name == "" {
			name = r.SpeakerID
		}
		if slug := slugify(name); slug != "" {
			return "topics/people/" + slug + ".md", name
		}
	}
	slug := slugify(strings.ReplaceAll(r.Thread, "/", "-"))
	if slug == "" {
		slug = "misc"
	}
	return "topics/threads/" + slug + ".md", "Thread " + r.Thread
}

// slugify makes a safe lower-case file name from a display name; letters
// of any script survive so Chinese names still get their own file.
func slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 60 {
		out = strings.Trim(out[:60], "-")
	}
	return out
}

var (
	blockIDTail  = regexp.MustCompile(`\s\^[0-9a-f]{8}\s*$`)
	footnoteLike = regexp.MustCompile(`\[\^`)
	linkLike     = regexp.MustCompile(`\]\(`)
)

// blockSafe turns message text into one paragraph line that cannot be
// mistaken for topic syntax: whitespace runs (newlines included) become one
// space, and footnote references, links and a trailing block id in the
// message are defused. The archive keeps the exact bytes; this is a summary.
func blockSafe(content string) string {
	text := strings.Join(strings.Fields(content), " ")
	text = footnoteLike.ReplaceAllString(text, "[ ^")
	text = linkLike.ReplaceAllString(text, "] (")
	text = blockIDTail.ReplaceAllString(text, "")
	runes := []rune(text)
	if len(runes) > 600 {
		text = string(runes[:600]) + "…"
	}
	return strings.TrimSpace(text)
}

// distillLocked distils sources into topics through one transaction of the
// given history kind. The caller holds the write lock.
func (e *Engine) distillLocked(ctx context.Context, s *snapshot, refs []string, kind string) ([]string, error) {
	var recs []distillRecord
	for _, ref := range refs {
		src, ok := s.sources[ref]
		if !ok || src.pending() {
			continue
		}
		recs = append(recs, recordOf(src))
	}
	edits, err := e.distillEdits(ctx, s, recs)
	if err != nil {
		return nil, err
	}
	if len(edits) == 0 {
		return []string{}, nil
	}
	if _, err := e.installLocked(ctx, change{kind: kind, actor: "owner", edits: edits}); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		if blockSafe(r.Content) != "" {
			out = append(out, r.Ref)
		}
	}
	return out, nil
}

func recordOf(src *sourceEntry) distillRecord {
	v := src.view
	role := v.Label
	if v.SpeakerLabel != "" {
		role = "user"
	}
	// Only a v2 speaker-id marker is an identity. A legacy record's
	// "[display (id)]" hint was parsed out of message text: the writer gets
	// the record speakerless, so text can never name who spoke (SPEC §3.3).
	speakerID, speakerDisplay := v.SpeakerID, v.SpeakerDisplay
	if !v.SpeakerTrusted {
		speakerID, speakerDisplay = "", ""
	}
	return distillRecord{Ref: v.Ref, Path: v.Path, Anchor: v.Anchor, Time: v.Time, Label: v.Label,
		SpeakerID: speakerID, SpeakerDisplay: speakerDisplay, Role: role,
		Thread: src.file.provider + "/" + src.file.thread, Content: v.Content}
}

// distillEdits asks the configured model for edits (the offline model
// when none is configured).
func (e *Engine) distillEdits(ctx context.Context, s *snapshot, recs []distillRecord) ([]Edit, error) {
	m, err := e.modelFor("")
	if err != nil {
		return nil, err
	}
	if m == nil {
		return offlineEdits(s, recs), nil
	}
	return e.modelEdits(ctx, m, s, recs)
}
