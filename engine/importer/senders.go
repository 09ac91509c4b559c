package importer

import (
	"encoding/json"

	"scriptorium/engine/sessions"
	"scriptorium/transcript"
)

// Senders says who is who in the chats whose parser leaves a sender's tier
// open (transcript.Turn.Tier "", as group-chat exports do: the export does
// not know which member is the owner). It maps a provider to its senders'
// speaker ids and their tier, sessions.TierOwner or sessions.TierPaired;
// every sender it does not name is unpaired. A tier the parser set (a
// Claude Code or ChatGPT transcript is the owner's own) is kept.
type Senders map[string]map[string]string

// tier is the tier of a sender of provider.
func (s Senders) tier(provider, speakerID string) string {
	if t := s[provider][speakerID]; t != "" && speakerID != "" {
		return t
	}
	return sessions.TierUnpaired
}

// nodesOf turns parsed turns into the nodes the store takes, and lists
// their sessions in order of first appearance.
func nodesOf(turns []transcript.Turn, senders Senders) ([]sessions.Node, []sessions.SessionKey) {
	nodes := make([]sessions.Node, len(turns))
	seen := map[sessions.SessionKey]bool{}
	var keys []sessions.SessionKey
	for i, t := range turns {
		tier := t.Tier
		if tier == "" {
			tier = senders.tier(t.Provider, t.SpeakerID)
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
