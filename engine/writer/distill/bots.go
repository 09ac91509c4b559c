package distill

import (
	"strings"
	"unicode"
)

// A chat's bot is known by what its lines look like, whatever it is
// called: most of them are notices, an emoji and a label with a colon
// ("🔴 Triggered: PAY-311 …", "✅ Resolved: …", "📅 Event: Thursday …").
// Its other lines ("Acknowledged by Kasia", "wiki has been given the role
// @Organizer") are notices too, in words a bot's template keeps; the
// people say what matters about them.

// noticeRe is a notice's opening: emoji, then a capitalised label of a
// few words and a colon.
var noticeRe = lazyRegexp(`^\p{Lu}[\p{L} ]{1,24}:\s`)

// shortcodeRe is an emoji as Slack and Discord export it: ":red_circle:".
var shortcodeRe = lazyRegexp(`^:[a-z0-9_+-]{2,30}:\s*`)

// notice reports whether a turn opens with an emoji and a label, or with
// an emoji and then fields on lines of their own (":red_circle: DAG …
// failed\nTask: …\nExecution date: …").
func notice(c string) bool {
	c = strings.TrimLeftFunc(c, func(r rune) bool { return unicode.IsSpace(r) || r == 0x200E })
	c = shortcodeRe.ReplaceAllString(c, "\u2705")
	body := strings.TrimLeftFunc(c, func(r rune) bool { return isEmoji(r) || r == 0x2705 || unicode.IsSpace(r) })
	if len(body) == len(c) {
		return false
	}
	if noticeRe.MatchString(body) {
		return true
	}
	fields := 0
	for _, line := range strings.Split(body, "\n")[1:] {
		if noticeRe.MatchString(line) {
			fields++
		}
	}
	return fields >= 2
}

// botSpeaker reports whether a speaker of a chat is a bot: at least two
// of its turns, and at least half, are notices. The owner is never one.
func (d *distiller) botSpeaker(name string) bool {
	if name == "" || name == d.owner {
		return false
	}
	if d.bots == nil {
		d.bots = map[string]bool{}
		turns, notices, emojiOpen := map[string]int{}, map[string]int{}, map[string]int{}
		labels := map[string]string{} // a speaker's one label, "" once two differ
		for _, t := range d.s.Turns {
			if t.Role == RoleAssistant || t.Speaker == "" {
				continue
			}
			turns[t.Speaker]++
			if notice(t.Content) {
				notices[t.Speaker]++
			}
			if (opensWithEmoji(t.Content) || cardOpenRe.MatchString(t.Content)) && !strings.Contains(t.Content, "ranscri") {
				// "🎤 Áudio (0:41) — transcrição: …" is a person's voice note
				emojiOpen[t.Speaker]++
			}
			l := openingLabel(t.Content)
			if old, seen := labels[t.Speaker]; seen && old != l {
				l = ""
			}
			labels[t.Speaker] = l
		}
		for s, n := range notices {
			d.bots[s] = n >= 2 && 2*n >= turns[s] && s != d.owner
		}
		for s, l := range labels {
			// "Cloud recording is ready: …" every time: a template, not a person;
			// a label of a word or two ("Reminder: …") takes three turns.
			long := len(strings.Fields(l)) >= 3
			d.bots[s] = d.bots[s] || l != "" && (turns[s] >= 2 && long || turns[s] >= 3) && s != d.owner
		}
		for s, n := range emojiOpen {
			// "📦 GB … status: SHIPPED", "🇮🇩 ID batch ETA: …": every line, three
			// at least, opening with an emoji is a template's, not a person's.
			d.bots[s] = d.bots[s] || n >= 3 && n == turns[s] && s != d.owner
		}
	}
	return d.bots[name]
}

// templateLabelRe is a label a template writes: capitalised, letters only.
var templateLabelRe = lazyRegexp(`^\p{Lu}[\p{L} ]{4,40}$`)

// templateLabel is a turn's opening label of three words or more before a
// colon on its first line ("Cloud recording is ready"), or "".
func templateLabel(c string) string {
	if l := openingLabel(c); len(strings.Fields(l)) >= 3 {
		return l
	}
	return ""
}

// openingLabel is a turn's opening label before a colon on its first line,
// of any length ("Reminder"), or "": a label of a word or two makes a
// template only when every turn of three or more opens with it.
func openingLabel(c string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(c), "\n")
	label, _, ok := strings.Cut(line, ": ")
	if !ok || !templateLabelRe.MatchString(label) {
		return ""
	}
	return label
}

// opensWithEmoji reports whether a turn's first character is an emoji,
// or its first word a shortcode.
func opensWithEmoji(c string) bool {
	c = strings.TrimSpace(c)
	if shortcodeRe.MatchString(c) {
		return true
	}
	for _, r := range c {
		return isEmoji(r)
	}
	return false
}
