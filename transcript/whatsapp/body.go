package whatsapp

import (
	"regexp"
	"strings"
)

// classify reads a message body (everything after "Name: ", all its lines)
// and returns the turn content, or the reason it is not a turn. marked is
// set when iOS put a U+200E before the body, as it does for media, deleted
// messages and system lines.
func classify(body string, marked bool) (content, reason string) {
	body = stripEdited(body)
	plain := strings.TrimSuffix(strings.TrimSpace(bare(body)), ".")
	switch {
	case in(deleted, plain) || hasAnyPrefix(plain, deletedByAdmin):
		return "", ReasonDeleted
	case hasAnyPrefix(plain, waiting):
		return "", ReasonWaiting
	}
	first, caption := splitFirstLine(body)
	f := strings.TrimSpace(bare(first))
	if c, ok := media(f); ok {
		if caption = strings.TrimLeft(caption, lrm); caption != "" {
			return "[" + c + ": " + caption + "]", ""
		}
		return "[" + c + "]", ""
	}
	if in(pollHead, f) {
		return pollText(body), ""
	}
	if marked {
		return "", systemReason(plain)
	}
	if body == "" {
		return "", ReasonEmpty
	}
	return body, ""
}

// media recognises the first line of a media message and returns its
// placeholder label: "photo", "file Report.pdf", "location https://...".
func media(f string) (string, bool) {
	if in(mediaOmitted, f) {
		return "media", true
	}
	for _, o := range omitted {
		if name, ok := strings.CutSuffix(f, o.phrase); ok && (name == "" || strings.HasSuffix(name, " ")) {
			// "Report.pdf • 3 pages document omitted": the name before " • ".
			name, _, _ = strings.Cut(name, " • ")
			return label(o.kind, strings.TrimSpace(name)), true
		}
	}
	for _, p := range attachedPrefix {
		if i := strings.Index(f, p); i >= 0 && strings.HasSuffix(f, ">") {
			return fileLabel(f[i+len(p):len(f)-1], true), true
		}
	}
	for _, s := range fileAttached {
		if name, ok := strings.CutSuffix(f, s); ok && name != "" {
			return fileLabel(name, false), true
		}
	}
	if in(liveLocation, f) {
		return "live location", true
	}
	for _, u := range mapsURLs {
		if i := strings.Index(f, u); i > 0 && isLocationWord(f[:i]) {
			return "location " + f[i:], true
		}
	}
	return "", false
}

// label joins a kind and an optional detail.
func label(kind, detail string) string {
	if detail == "" {
		return kind
	}
	return kind + " " + detail
}

// numberedFile is iOS's "00000012-" before an attachment's name.
var numberedFile = regexp.MustCompile(`^\d{8}-`)

// fileLabel names an attachment by its file name: iOS writes
// "00000012-PHOTO-2023-06-07-20-28-13.jpg", Android "IMG-20231231-WA0001.jpg";
// documents keep their own name, which is the detail.
func fileLabel(name string, ios bool) string {
	name = strings.TrimSpace(name)
	upper := strings.ToUpper(name)
	if strings.HasSuffix(upper, ".VCF") {
		return label("contact", strings.TrimSuffix(numberedFile.ReplaceAllString(name, ""), name[len(name)-4:]))
	}
	if ios {
		for _, k := range []struct{ tag, kind string }{
			{"-PHOTO-", "photo"}, {"-VIDEO-", "video"}, {"-AUDIO-", "audio"}, {"-STICKER-", "sticker"}, {"-GIF-", "GIF"},
		} {
			if strings.Contains(upper, k.tag) {
				return k.kind
			}
		}
		return label("file", numberedFile.ReplaceAllString(name, ""))
	}
	for _, k := range []struct{ prefix, kind string }{
		{"IMG-", "photo"}, {"VID-", "video"}, {"PTT-", "voice message"}, {"AUD-", "audio"}, {"STK-", "sticker"},
	} {
		if strings.HasPrefix(upper, k.prefix) {
			return k.kind
		}
	}
	return label("file", name)
}

// isLocationWord: "location: ", "Location: ", "Standort: ", "localisation : ".
func isLocationWord(s string) bool {
	s = strings.TrimSpace(s)
	word, ok := strings.CutSuffix(s, ":")
	word = strings.TrimSpace(word)
	if !ok || word == "" || len(word) > 20 {
		return false
	}
	for _, r := range word {
		if r == ' ' || r >= '0' && r <= '9' {
			return false
		}
	}
	return true
}

// votes is a poll option's count, which changes with every export.
var votes = regexp.MustCompile(` \(\d+ [^()\d]+\)$`)

// pollText keeps a poll as text: its lines without direction marks, and
// each option without its vote count, so a later export gives the same
// content.
func pollText(body string) string {
	// Android ends a poll with a blank line.
	body = strings.TrimRight(body, "\r\n")
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		cr := strings.HasSuffix(l, "\r")
		l = removeMarks(strings.TrimSuffix(l, "\r"))
		if hasAnyPrefix(l, pollOption) {
			l = votes.ReplaceAllString(l, "")
		}
		if cr {
			l += "\r"
		}
		lines[i] = l
	}
	return strings.Join(lines, "\n")
}

// stripEdited removes the edited marker after a message's last text.
func stripEdited(body string) string {
	for _, e := range edited {
		if rest, ok := strings.CutSuffix(body, e); ok {
			rest = strings.TrimSuffix(rest, lrm)
			return strings.TrimSuffix(rest, " ")
		}
	}
	return body
}

// systemReason classifies a system line by the phrases it contains.
func systemReason(text string) string {
	if hasAnyPrefix(text, encryptionNotice) {
		return ReasonEncryptionNotice
	}
	for _, k := range systemKinds {
		for _, p := range k.phrases {
			if strings.Contains(text, p) {
				return k.reason
			}
		}
	}
	return ReasonSystem
}

// groupEvidence says whether a system line can only occur in a group.
func groupEvidence(reason, text string) bool {
	switch reason {
	case ReasonJoin, ReasonLeave:
		return true
	case ReasonChatChange:
		return !strings.Contains(text, "disappearing") && !strings.Contains(text, "selbstlöschende")
	}
	return false
}

// titlePhrases mark a system line that names the group (its last quoted
// text is the name: `created group "X"`, `changed the subject from "A" to "B"`).
var titlePhrases = []string{"created group", "changed the subject", "changed the group name", "hat die Gruppe „", "Betreff"}

// titleFrom returns the group name a system line gives, if any.
func titleFrom(text string) (string, bool) {
	if !containsAny(text, titlePhrases) {
		return "", false
	}
	for _, q := range []struct{ open, close string }{{"“", "”"}, {"„", "“"}, {`"`, `"`}} {
		end := strings.LastIndex(text, q.close)
		if end <= 0 {
			continue
		}
		start := strings.LastIndex(text[:end], q.open)
		if start < 0 || start+len(q.open) > end {
			continue
		}
		if name := text[start+len(q.open) : end]; name != "" {
			return name, true
		}
	}
	return "", false
}

// splitFirstLine splits at the first line end; the first line loses its
// "\r\n" or "\n", the rest keeps its own bytes.
func splitFirstLine(s string) (first, rest string) {
	i := strings.IndexByte(s, '\n')
	if i < 0 {
		return s, ""
	}
	return strings.TrimSuffix(s[:i], "\r"), s[i+1:]
}

// bare drops every direction mark and embedding (U+200E, U+200F,
// U+202A–U+202E, U+2066–U+2069) for matching WhatsApp's own phrases:
// names and phone numbers inside them come wrapped in such marks.
func bare(s string) string {
	return strings.Map(func(r rune) rune {
		if isBidiControl(r) {
			return -1
		}
		return r
	}, s)
}

func isBidiControl(r rune) bool {
	return r == '\u200e' || r == '\u200f' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}

// removeMarks drops U+200E and U+200F.
func removeMarks(s string) string {
	if !strings.Contains(s, lrm) && !strings.Contains(s, rlm) {
		return s
	}
	return strings.NewReplacer(lrm, "", rlm, "").Replace(s)
}

func in(list []string, s string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, list []string) bool {
	for _, p := range list {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func containsAny(s string, list []string) bool {
	for _, p := range list {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
