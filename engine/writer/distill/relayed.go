package distill

import (
	"strings"
	"unicode"
)

// Lines no person wrote for this chat: a forward (someone else's words,
// often a hoax or a chain message), a reaction to a message, a
// placeholder for media, and a bot's announcements ("📋 Polly: reminder…", "CorkBot: Dana pinned a message").

// bracketOpenerRe opens a turn with a bracketed label, as chat exports
// mark a forward or a media placeholder in any language ("[Reenviado
// muchas veces]", "[4 imágenes]", "[foto] …"); "[text](url)" is a link.
var bracketOpenerRe = lazyRegexp(`^[\s\x{200e}\x{200f}]*\[[^\]\n]{1,40}\](?:[^(]|$)`)

// forwardArrowRe opens a turn with the arrow chat exports put before a
// forward's label in any language ("↪ Forwarded", "↪ Encaminhada com
// frequência", "⏩ İletildi"); a thread reply's "↳" is the speaker's own
// words.
var forwardArrowRe = lazyRegexp(`^[\s\x{200e}\x{200f}]*[\x{21aa}\x{23e9}]`)

// forwardLabelRe is WhatsApp's label on a line of its own above a forward
// ("Forwarded", "Forwarded many times"), in the languages the app writes it
// ("Diteruskan", "Sering diteruskan", "Reenviado muchas veces",
// "Encaminhada com frequência", "Birçok kez iletildi", "Häufig
// weitergeleitet"): the words below are a chain's, often a hoax, not the
// sender's news.
var forwardLabelRe = lazyRegexp(`(?i)^[\s\x{200e}\x{200f}]*(?:(?:sering|often|häufig|vaak|spesso|często|birçok kez|souvent) )?(?:forwarded|diteruskan|reenviad[oa]|encaminhad[oa]|iletildi|i̇letildi|weitergeleitet|transférée?|doorgestuurd|inoltrat[oa]|przekazane(?: dalej)?|переслано|videresendt|vidarebefordrat)(?: (?:many times|muchas veces|com frequência|plusieurs fois|molte volte|mange ganger|berkali-kali))?[ \t]*\n`)

// reactionRe is a tapback as iMessage and WhatsApp export it: a verb of
// the app's own, then the quoted message it reacts to ("Loved “…”",
// "Laughed at “…”", "reacted 🥹 to "…""). The quoted words are someone
// else's, already kept (or not) where they were said.
var reactionRe = lazyRegexp(`(?i)^[\s\x{200e}\x{200f}]*(?:loved|liked|disliked|laughed at|emphasi[sz]ed|questioned|reacted [^\s"“]{1,12} to)\s+["“][^\n]*["”]\s*$`)

// trackerRe is an issue tracker's notice in a team chat: someone did
// something to a ticket by its key ("Ana P. created OPS-112: …"). The
// ticket is the tracker's record; the people say what matters about it.
var trackerRe = lazyRegexp(`^[\s\x{200e}\x{200f}]*\S+(?: \S+)? (?:created|moved|assigned|resolved|closed|reopened|commented on|transitioned|updated) [A-Z][A-Z0-9]+-\d+\b`)

// relayed reports whether turn t is a forward, a placeholder or a bot's.
func relayed(t Turn) bool {
	c := t.Content
	if forwardedRe.MatchString(c) || bracketOpenerRe.MatchString(c) || forwardArrowRe.MatchString(c) || reactionRe.MatchString(c) ||
		forwardLabelRe.MatchString(c) || trackerRe.MatchString(c) {
		return true
	}
	name := strings.TrimSpace(t.Speaker)
	if name == "" {
		return false
	}
	if strings.HasSuffix(strings.ToLower(name), "bot") {
		return true // "CorkBot", "Havnebot"
	}
	// A bot signs its lines with its own name: "📋 Polly: reminder — …".
	body := strings.TrimLeftFunc(c, func(r rune) bool { return unicode.IsSpace(r) || isEmoji(r) || r == 0x200E })
	return strings.HasPrefix(body, name+":")
}

// translationRe is the label a chat app puts before its own translation
// of a message, on a line of its own ("…\n[See translation] Good
// morning"): the message and its translation say the same thing.
var translationRe = lazyRegexp(`(?i)\n\s*\[[^\]\n]{0,30}translat[^\]\n]{0,20}\]\s*`)

// translated is what a turn says in the app's translation when it has one:
// the text after the label, read as the language it is in.
func translated(c string) string {
	if !strings.Contains(c, "ranslat") {
		return c // the literal first: nearly no turn has one
	}
	if loc := translationRe.FindStringIndex(c); loc != nil && len(strings.Fields(c[loc[1]:])) >= 2 {
		return c[loc[1]:]
	}
	return c
}
