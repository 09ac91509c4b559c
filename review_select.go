package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/transcript/whatsapp"
	"scriptorium/workspace/archive"
)

// Reviewing pending sources by chat and sender: `pending` groups them, and
// promote and reject --sender SID [--chat PROVIDER/THREAD] take all of one
// sender's at once.

// pendingChat is one chat of the review queue: its pending sources by
// sender, for `pending`.
type pendingChat struct {
	Chat    string          `json:"chat"` // provider/thread
	Pending int             `json:"pending"`
	Senders []pendingSender `json:"senders"` // most pending first
}

// pendingSender is one sender of a chat's pending sources.
type pendingSender struct {
	SpeakerID    string `json:"speaker_id"`
	SpeakerLabel string `json:"speaker_label"`
	Pending      int    `json:"pending"`
	// refs are the sender's sources, oldest first.
	refs []result.PendingSource
}

// groupPending groups the queue by chat (in the order of their oldest
// source) and, in each chat, by sender (most pending first).
func groupPending(ps []result.PendingSource) []pendingChat {
	var out []pendingChat
	index := map[string]int{}
	for _, p := range ps {
		i, ok := index[p.Thread]
		if !ok {
			i = len(out)
			index[p.Thread] = i
			out = append(out, pendingChat{Chat: p.Thread, Senders: []pendingSender{}})
		}
		c := &out[i]
		c.Pending++
		j := 0
		for j < len(c.Senders) && !(c.Senders[j].SpeakerID == p.SpeakerID && c.Senders[j].SpeakerLabel == p.SpeakerLabel) {
			j++
		}
		if j == len(c.Senders) {
			c.Senders = append(c.Senders, pendingSender{SpeakerID: p.SpeakerID, SpeakerLabel: p.SpeakerLabel})
		}
		c.Senders[j].Pending++
		c.Senders[j].refs = append(c.Senders[j].refs, p)
	}
	for i := range out {
		s := out[i].Senders
		sort.SliceStable(s, func(a, b int) bool { return s[a].Pending > s[b].Pending })
	}
	return out
}

// printPending is `pending`'s human output: each chat with its count, each
// sender with theirs and the id promote --sender takes, then the sources.
func printPending(w io.Writer, ps []result.PendingSource) {
	if len(ps) == 0 {
		fmt.Fprintln(w, "no pending sources")
		return
	}
	for _, c := range groupPending(ps) {
		fmt.Fprintf(w, "%s  (%d pending from %d sender(s))\n", c.Chat, c.Pending, len(c.Senders))
		for _, s := range c.Senders {
			fmt.Fprintf(w, "  %s  %d pending  (promote --sender %s --chat %s)\n", orNone(s.SpeakerLabel), s.Pending, senderArg(s.SpeakerID, s.SpeakerLabel), c.Chat)
			for _, p := range s.refs {
				fmt.Fprintf(w, "    %s  %s\n      %s\n", p.Time, p.Ref, oneLine(p.Content, 100))
			}
		}
	}
}

// senderArg is how --sender names a sender: the speaker id, or the name
// of a sender who has none (WhatsApp), quoted for a shell when needed.
func senderArg(id, label string) string {
	s := id
	if s == "" {
		s = label
	}
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_-.@+:", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fromSender reports whether a pending source is the sender's: their
// speaker id, or, for a sender without one (WhatsApp), their name as the
// archive labels it, compared after WhatsApp's marks are removed as import
// --owner compares it.
func fromSender(p result.PendingSource, sender string) bool {
	if p.SpeakerID != "" {
		return p.SpeakerID == sender
	}
	name := archive.NormalizeLabelPart(whatsapp.CleanName(sender))
	return name != "" && p.SpeakerLabel == name
}

// senderSelection is every pending source of sender, in chat (all chats
// when chat is ""), oldest first. None is NOT_FOUND, naming the senders
// the queue does have.
func senderSelection(queue []result.PendingSource, sender, chat string) ([]result.PendingSource, error) {
	var sel []result.PendingSource
	for _, p := range queue {
		if fromSender(p, sender) && (chat == "" || p.Thread == chat) {
			sel = append(sel, p)
		}
	}
	if len(sel) > 0 {
		return sel, nil
	}
	where := ""
	if chat != "" {
		where = " in " + chat
	}
	var known []string
	for _, c := range groupPending(queue) {
		if chat != "" && c.Chat != chat {
			continue
		}
		for _, s := range c.Senders {
			known = append(known, fmt.Sprintf("%s (%s, %d)", senderArg(s.SpeakerID, s.SpeakerLabel), c.Chat, s.Pending))
		}
	}
	msg := fmt.Sprintf("no pending source of sender %q%s; nothing changed", sender, where)
	if len(known) > 0 {
		msg += "; pending senders: " + strings.Join(known[:min(len(known), 10)], ", ")
	}
	return nil, errcode.Errorf(errcode.NotFound, "%s", msg)
}

// maxDescribed is how many sources a sender confirmation shows one by one.
const maxDescribed = 5

// describeSelection says which sources a --sender decision takes: how
// many, whose, in which chats, and the first lines of the first few.
func describeSelection(w io.Writer, sel []result.PendingSource) {
	chats := map[string]int{}
	var order []string
	for _, p := range sel {
		if chats[p.Thread] == 0 {
			order = append(order, p.Thread)
		}
		chats[p.Thread]++
	}
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%s (%d)", c, chats[c])
	}
	fmt.Fprintf(w, "  %d source(s) of %s in %s:\n", len(sel), speakerText(sel[0].SpeakerLabel, sel[0].SpeakerID), strings.Join(parts, ", "))
	for i, p := range sel {
		if i == maxDescribed {
			fmt.Fprintf(w, "  … and %d more\n", len(sel)-maxDescribed)
			break
		}
		fmt.Fprintf(w, "  %s  %s  %s\n", p.Time, p.Ref, oneLine(p.Content, 60))
	}
}

// senderQuestion describes a --sender selection on w and returns the
// question that confirms it: verb is "Promote" or "Reject".
func senderQuestion(w io.Writer, verb string, sel []result.PendingSource) string {
	describeSelection(w, sel)
	return fmt.Sprintf("%s all %d pending source(s) of %s? [y/N] ", verb, len(sel), orNone(sel[0].SpeakerLabel))
}

// sourceIDs is the source-ids of sources.
func sourceIDs(ps []result.PendingSource) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Ref
	}
	return out
}

// reviewArgs checks the arguments of promote and reject: source-ids, or
// --sender SID with an optional --chat and no ids.
func reviewArgs(inv *invocation) error {
	if inv.set["sender"] {
		if len(inv.positional) > 0 {
			return usagef("%s --sender takes no source-ids (got %q): it takes every pending source of the sender", inv.verb.name, inv.positional[0])
		}
		if strings.TrimSpace(inv.flag("sender")) == "" {
			return usagef("--sender takes a sender as pending shows them (a speaker id, or a name when there is none)")
		}
		return nil
	}
	if inv.set["chat"] {
		return usagef("--chat narrows --sender: scriptorium %s --sender SID --chat PROVIDER/THREAD", inv.verb.name)
	}
	return inv.wantArgs(1, -1)
}

// reviewTargets is what promote or reject acts on: the source-ids given,
// or with --sender every pending source of that sender (in --chat), which
// sel then lists.
func reviewTargets(inv *invocation, queue []result.PendingSource) (refs []string, sel []result.PendingSource, err error) {
	if !inv.set["sender"] {
		return inv.positional, nil, nil
	}
	sel, err = senderSelection(queue, strings.TrimSpace(inv.flag("sender")), inv.flag("chat"))
	if err != nil {
		return nil, nil, err
	}
	return sourceIDs(sel), sel, nil
}
