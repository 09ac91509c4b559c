package importer

import (
	"encoding/json"
	"sort"
	"strings"

	"scriptorium/engine/sessions"
	"scriptorium/transcript"
	"scriptorium/transcript/whatsapp"
)

// Senders says who is who in the chats whose parser leaves a sender's tier
// open (transcript.Turn.Tier "", as group-chat exports do: the export does
// not know which member is the owner). It maps a provider to its senders
// and their tier, sessions.TierOwner or sessions.TierPaired; every sender
// it does not name is unpaired. A sender is named as the export names
// them: Telegram's from_id ("user123"), Slack's user id, Discord's author
// id, or, for a chat without sender ids (WhatsApp), the name as written,
// compared after WhatsApp's marks are removed (whatsapp.CleanName). A tier
// the parser set (a Claude Code or ChatGPT transcript is the owner's own)
// is kept.
type Senders map[string]map[string]string

// Named are the senders the owner names on one import: import --owner and
// --paired. They apply to every chat export of the import; those that
// some turn of a provider has are stored for that provider.
type Named struct {
	Owner  []string
	Paired []string
}

// TrustLists are one provider's senders as config.toml's
// [trust.<provider>] table lists them.
type TrustLists struct {
	Owner  []string `json:"owner"`
	Paired []string `json:"paired"`
}

// SendersOf builds Senders from the [trust.<provider>] tables.
func SendersOf(tables map[string]TrustLists) Senders {
	s := Senders{}
	for p, t := range tables {
		m := map[string]string{}
		for _, id := range t.Paired {
			m[senderKey(p, id)] = sessions.TierPaired
		}
		for _, id := range t.Owner {
			m[senderKey(p, id)] = sessions.TierOwner // owner wins a sender listed twice
		}
		s[p] = m
	}
	return s
}

// senderKey is a sender as the owner names them for provider: WhatsApp
// names without WhatsApp's marks, other ids as they are.
func senderKey(provider, s string) string {
	if provider == whatsapp.Provider {
		return whatsapp.CleanName(s)
	}
	return strings.TrimSpace(s)
}

// turnSender is the sender key of a turn: its speaker id, or its display
// name in a chat that has no ids.
func turnSender(t transcript.Turn) string {
	if t.SpeakerID != "" {
		return t.SpeakerID
	}
	return senderKey(t.Provider, t.SpeakerDisplay)
}

// tiering decides the tier of the turns whose parser left it open: the
// named senders first, then the stored ones; and remembers which named
// senders some turn had, per provider.
type tiering struct {
	stored  Senders
	named   Named
	byProv  map[string]map[string]string // provider → named sender key → tier
	matched map[string]map[string]bool   // provider → named sender key → seen
}

func newTiering(stored Senders, named Named) *tiering {
	return &tiering{stored: stored, named: named, byProv: map[string]map[string]string{}, matched: map[string]map[string]bool{}}
}

// namedFor is the named senders keyed as provider compares them.
func (tg *tiering) namedFor(provider string) map[string]string {
	m, ok := tg.byProv[provider]
	if !ok {
		m = map[string]string{}
		for _, s := range tg.named.Paired {
			m[senderKey(provider, s)] = sessions.TierPaired
		}
		for _, s := range tg.named.Owner {
			m[senderKey(provider, s)] = sessions.TierOwner
		}
		tg.byProv[provider] = m
	}
	return m
}

// tier is the tier of a turn whose parser left it open.
func (tg *tiering) tier(t transcript.Turn) string {
	if tg == nil {
		return sessions.TierUnpaired
	}
	key := turnSender(t)
	if key == "" {
		return sessions.TierUnpaired
	}
	if tier, ok := tg.namedFor(t.Provider)[key]; ok {
		if tg.matched[t.Provider] == nil {
			tg.matched[t.Provider] = map[string]bool{}
		}
		tg.matched[t.Provider][key] = true
		return tier
	}
	if tier := tg.stored[t.Provider][key]; tier != "" {
		return tier
	}
	return sessions.TierUnpaired
}

// hasOwner reports whether provider has an owner: stored, or named and
// found among the provider's senders.
func (tg *tiering) hasOwner(provider string) bool {
	if tg == nil {
		return false
	}
	for _, t := range tg.stored[provider] {
		if t == sessions.TierOwner {
			return true
		}
	}
	for k, t := range tg.namedFor(provider) {
		if t == sessions.TierOwner && tg.matched[provider][k] {
			return true
		}
	}
	return false
}

// merged is the stored choice of provider with the named senders some
// turn had: a sender named now leaves the other list.
func (tg *tiering) merged(provider string) (TrustLists, bool) {
	seen := tg.matched[provider]
	if len(seen) == 0 {
		return TrustLists{}, false
	}
	tiers := map[string]string{}
	for k, t := range tg.stored[provider] {
		tiers[k] = t
	}
	changed := false
	for k, t := range tg.namedFor(provider) {
		if seen[k] && tiers[k] != t {
			tiers[k], changed = t, true
		}
	}
	if !changed {
		return TrustLists{}, false
	}
	out := TrustLists{Owner: []string{}, Paired: []string{}}
	for k, t := range tiers {
		if t == sessions.TierOwner {
			out.Owner = append(out.Owner, k)
		} else {
			out.Paired = append(out.Paired, k)
		}
	}
	sort.Strings(out.Owner)
	sort.Strings(out.Paired)
	return out, true
}

// unmatched lists the named senders no turn of any provider had.
func (tg *tiering) unmatched() []string {
	var out []string
	for _, list := range [][]string{tg.named.Owner, tg.named.Paired} {
		for _, s := range list {
			found := false
			for p, seen := range tg.matched {
				if seen[senderKey(p, s)] {
					found = true
				}
			}
			if !found {
				out = append(out, s)
			}
		}
	}
	return out
}

// nodesOf turns parsed turns into the nodes the store takes, and lists
// their sessions in order of first appearance.
func nodesOf(turns []transcript.Turn, tiers *tiering) ([]sessions.Node, []sessions.SessionKey) {
	nodes := make([]sessions.Node, len(turns))
	seen := map[sessions.SessionKey]bool{}
	var keys []sessions.SessionKey
	for i, t := range turns {
		tier := t.Tier
		if tier == "" {
			tier = tiers.tier(t)
		}
		nodes[i] = sessions.Node{Provider: t.Provider, Session: t.Session, ID: t.ID, Parent: t.Parent,
			Role: t.Role, Content: t.Content, SpeakerID: t.SpeakerID, SpeakerDisplay: t.SpeakerDisplay,
			Time: t.Time, Tier: tier, Group: t.Group, Synthetic: t.Synthetic, Metadata: metadataOf(t)}
		if k := nodes[i].SessionKey(); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return nodes, keys
}

// metadataOf is what a turn says beyond the node's fields, as node
// metadata; nil when it says nothing more.
func metadataOf(t transcript.Turn) json.RawMessage {
	m := map[string]string{}
	for k, v := range map[string]string{sessions.MetaReplyTo: t.ReplyTo, sessions.MetaProject: t.Project, sessions.MetaTitle: t.Title} {
		if v != "" {
			m[k] = v
		}
	}
	if len(m) == 0 {
		return nil
	}
	data, _ := json.Marshal(m) // strings only: cannot fail
	return data
}
