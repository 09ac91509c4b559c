package importer

import (
	"fmt"
	"sort"
	"strings"

	"scriptorium/engine/sessions"
	"scriptorium/transcript"
)

// Chat is one chat of an import whose senders' tiers the import decided:
// a group chat or a direct message of a chat export.
type Chat struct {
	Provider string `json:"provider"`
	Session  string `json:"session"`
	Title    string `json:"title"`
	Group    bool   `json:"group"`
	// Messages is the number of the chat's turns in this import.
	Messages int `json:"messages"`
	// Senders are the chat's senders in this import, most active first.
	Senders []ChatSender `json:"senders"`
}

// ChatSender is one sender of a chat and their tier.
type ChatSender struct {
	// ID is the sender as --owner and --paired name them: the speaker id,
	// or the name in a chat without ids (WhatsApp).
	ID       string `json:"id"`
	Name     string `json:"name"`
	Messages int    `json:"messages"`
	Tier     string `json:"tier"`
}

// The kinds of Warning.
const (
	WarnNoOwner       = "no_owner"       // a group chat whose provider has no owner: all of it will be pending
	WarnPending       = "pending"        // a group chat's unpaired senders: their messages will be pending
	WarnDirectMessage = "direct_message" // a one-to-one chat whose other side is unpaired: it never enters memory
	WarnNoTurns       = "no_turns"       // a file that gave no turn, and why
	WarnUnknownSender = "unknown_sender" // a named sender no turn of the import has
	WarnTierKept      = "tier_kept"      // stored turns already archived with their old tier
)

// Warning is something the owner should know about an import that is not
// a problem of its input.
type Warning struct {
	Kind     string `json:"kind"`
	Provider string `json:"provider,omitempty"`
	Path     string `json:"path,omitempty"`
	// Chats are the chats it is about, as provider/session.
	Chats   []string `json:"chats,omitempty"`
	Message string   `json:"message"`
	// Senders are the most active senders it is about (no_owner, pending,
	// direct_message), so the owner can choose.
	Senders []ChatSender `json:"senders,omitempty"`
}

// mostActive is how many senders a warning names.
const mostActive = 5

// noteChats counts the turns of chats whose tier the import decided, by
// sender, with the tier their node got.
func (im *run) noteChats(turns []transcript.Turn, nodes []sessions.Node) {
	for i, t := range turns {
		if t.Tier != "" {
			continue
		}
		k := nodes[i].SessionKey()
		c := im.chats[k]
		if c == nil {
			c = &Chat{Provider: t.Provider, Session: t.Session}
			im.chats[k] = c
			im.chatOrder = append(im.chatOrder, k)
		}
		c.Messages++
		c.Group = c.Group || t.Group
		if t.Title != "" {
			c.Title = t.Title
		}
		id := turnSender(t)
		j := 0
		for j < len(c.Senders) && c.Senders[j].ID != id {
			j++
		}
		if j == len(c.Senders) {
			c.Senders = append(c.Senders, ChatSender{ID: id, Tier: nodes[i].Tier})
		}
		c.Senders[j].Messages++
		c.Senders[j].Tier = nodes[i].Tier
		if t.SpeakerDisplay != "" {
			c.Senders[j].Name = t.SpeakerDisplay
		}
	}
}

// finish lists the chats and says what their tiers mean: per provider,
// one warning for its group chats and one for its direct messages, so that
// a whole-account export of two hundred chats says it in two lines.
func (im *run) finish() {
	for _, s := range im.tiers.unmatched() {
		im.res.Warnings = append(im.res.Warnings, Warning{Kind: WarnUnknownSender,
			Message: fmt.Sprintf("no sender of this import is %q, so it was not stored; senders are named as the export names them "+
				"(Telegram from_id such as user123, Slack user id, Discord author id, WhatsApp name as written)", s)})
	}
	var keys []string
	tallies := map[string]*tally{}
	for _, k := range im.chatOrder {
		c := im.chats[k]
		sort.SliceStable(c.Senders, func(i, j int) bool { return c.Senders[i].Messages > c.Senders[j].Messages })
		im.res.Chats = append(im.res.Chats, *c)
		key := fmt.Sprintf("%s\x00%v", c.Provider, c.Group)
		if tallies[key] == nil {
			tallies[key] = &tally{provider: c.Provider, group: c.Group, senders: map[string]*ChatSender{}}
			keys = append(keys, key)
		}
		tallies[key].add(*c)
	}
	for _, key := range keys {
		t := tallies[key]
		if w, ok := t.warning(im.tiers.hasOwner(t.provider)); ok {
			im.res.Warnings = append(im.res.Warnings, w)
		}
	}
}

// tally is what a provider's group chats (or its direct messages) in one
// import hold from unpaired senders.
type tally struct {
	provider string
	group    bool
	chats    []string // provider/session of the chats with unpaired messages
	titles   []string // their distinct names, in order
	messages int      // unpaired messages
	senders  map[string]*ChatSender
	order    []string
}

func (t *tally) add(c Chat) {
	n := 0
	for _, s := range c.Senders {
		if s.Tier != sessions.TierUnpaired {
			continue
		}
		n += s.Messages
		x := t.senders[s.ID]
		if x == nil {
			x = &ChatSender{ID: s.ID, Name: s.Name, Tier: s.Tier}
			t.senders[s.ID] = x
			t.order = append(t.order, s.ID)
		}
		x.Messages += s.Messages
	}
	if n == 0 {
		return
	}
	t.messages += n
	t.chats = append(t.chats, c.Provider+"/"+c.Session)
	name := c.Title
	if name == "" {
		name = c.Provider + "/" + c.Session
	}
	for _, x := range t.titles {
		if x == name {
			return
		}
	}
	t.titles = append(t.titles, name)
}

// warning says what happens to the unpaired senders' messages.
func (t *tally) warning(hasOwner bool) (Warning, bool) {
	if t.messages == 0 {
		return Warning{}, false
	}
	var senders []ChatSender
	for _, id := range t.order {
		senders = append(senders, *t.senders[id])
	}
	sort.SliceStable(senders, func(i, j int) bool { return senders[i].Messages > senders[j].Messages })
	w := Warning{Provider: t.provider, Chats: t.chats, Senders: senders[:min(len(senders), mostActive)]}
	where := t.provider + " " + chatsText(t.group, t.titles, len(t.chats))
	switch {
	case t.group && !hasOwner:
		w.Kind = WarnNoOwner
		w.Message = fmt.Sprintf("%s: no owner is named for %s, so all %d message(s) will be pending review (never searched, recalled "+
			"or in core until promoted); most active senders: %s; name yours with --owner SENDER and those you trust with --paired SENDER",
			where, t.provider, t.messages, senderList(w.Senders))
	case t.group:
		w.Kind = WarnPending
		w.Message = fmt.Sprintf("%s: %d message(s) of %d sender(s) who are neither owner nor paired will be pending review "+
			"('scriptorium pending' lists them; 'promote --sender SENDER' takes a sender at once): %s",
			where, t.messages, len(senders), senderList(w.Senders))
	case !hasOwner:
		w.Kind = WarnDirectMessage
		w.Message = fmt.Sprintf("%s: no owner is named for %s, so none of the %d message(s) will enter memory (an unpaired "+
			"sender's direct messages never do); senders: %s; name yours with --owner SENDER", where, t.provider, t.messages, senderList(w.Senders))
	default:
		w.Kind = WarnDirectMessage
		w.Message = fmt.Sprintf("%s: the %d message(s) of %s will not enter memory (an unpaired sender's direct messages never do); "+
			"--paired SENDER keeps a sender's", where, t.messages, senderList(w.Senders))
	}
	return w, true
}

// chatsText names the chats of a warning: `group chat "Family"`, or
// `3 group chats ("general", "dev", "ops" and 2 more)`; threads of one
// channel share its name.
func chatsText(group bool, titles []string, n int) string {
	kind := "one-to-one chat"
	if group {
		kind = "group chat"
	}
	q := make([]string, 0, 3)
	for _, t := range titles[:min(len(titles), 3)] {
		q = append(q, fmt.Sprintf("%q", t))
	}
	more := ""
	if len(titles) > 3 {
		more = fmt.Sprintf(" and %d more", len(titles)-3)
	}
	if n == 1 {
		return kind + " " + q[0]
	}
	return fmt.Sprintf("%d %ss (%s%s)", n, kind, strings.Join(q, ", "), more)
}

// senderList is "user123 Ana (500), user456 Ben (300)".
func senderList(s []ChatSender) string {
	parts := make([]string, len(s))
	for i, x := range s {
		who := x.ID
		if x.Name != "" && x.Name != x.ID {
			who += " " + x.Name
		}
		parts[i] = fmt.Sprintf("%s (%d)", who, x.Messages)
	}
	return strings.Join(parts, ", ")
}

// noTurnsWarning says why a file gave no turn: every message skipped,
// and for which reasons, or no message at all.
func noTurnsWarning(path string, skipped map[string]int) Warning {
	if len(skipped) == 0 {
		return Warning{Kind: WarnNoTurns, Path: path, Message: path + ": no messages at all"}
	}
	keys := make([]string, 0, len(skipped))
	total := 0
	for k, n := range skipped {
		keys = append(keys, k)
		total += n
	}
	sort.Slice(keys, func(i, j int) bool {
		if skipped[keys[i]] != skipped[keys[j]] {
			return skipped[keys[i]] > skipped[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, skipped[k])
	}
	return Warning{Kind: WarnNoTurns, Path: path,
		Message: fmt.Sprintf("%s: no turns: all %d item(s) were skipped (%s)", path, total, strings.Join(parts, ", "))}
}

// tierKeptWarning says that some named senders' turns were archived
// before the owner named them.
func tierKeptWarning(n int) Warning {
	return Warning{Kind: WarnTierKept, Message: fmt.Sprintf("%d stored message(s) of the senders you named were archived already "+
		"with their earlier tier; pending ones stay pending until promoted (scriptorium promote --sender SENDER)", n)}
}

// storeTrust stores, for each provider where a named sender has turns,
// the merged choice in config.toml.
func (im *run) storeTrust() error {
	if im.opts.ConfigPath == "" {
		return nil
	}
	tables := map[string]TrustLists{}
	for p := range im.tiers.matched {
		if t, ok := im.tiers.merged(p); ok {
			tables[p] = t
		}
	}
	if len(tables) == 0 {
		return nil
	}
	if err := saveTrust(im.opts.ConfigPath, tables); err != nil {
		return err
	}
	im.res.Trust = tables
	return nil
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// baseName is the last element of a slash or OS path.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
