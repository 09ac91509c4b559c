package scale

// The long conversation history for the writer (issue 14: "the writer is
// quadratic"). It draws from math/rand (v1) with an int64 seed, as the
// writer benchmarks always have, so their figures stay comparable.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"time"
)

// HistorySeed is the seed of the writer benchmarks' history.
const HistorySeed int64 = 14

// Turn is one line of the `import` JSONL (SPEC §7).
type Turn struct {
	Session        string `json:"session"`
	Provider       string `json:"provider,omitempty"`
	ID             string `json:"id"`
	Parent         string `json:"parent,omitempty"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id,omitempty"`
	SpeakerDisplay string `json:"speaker_display,omitempty"`
	Time           string `json:"time"`
	Tier           string `json:"tier,omitempty"`
	Group          bool   `json:"group,omitempty"`
	Synthetic      bool   `json:"synthetic,omitempty"`
}

var (
	lhPeople = []struct{ id, display string }{
		{"alice#0042", "Alice"}, {"bob.k", "Bob"}, {"wxid_张伟", "张伟"}, {"carol", "Carol"},
		{"dmitri_88", "Dmitri"}, {"eve-ops", "Eve"}, {"farah", "Farah"}, {"gus", "Gus"},
	}
	lhProjects = []string{"the billing migration", "the Lisbon trip", "ticket-4821", "v2.3.1 release",
		"the garden shed", "Kafka consumer lag", "the book club list", "grandma's birthday", "the flaky CI job",
		"the postgres upgrade", "the school run rota", "the marathon plan"}
	lhVerbs = []string{"moved", "finished", "postponed", "reviewed", "booked", "cancelled", "rewrote", "fixed",
		"priced", "scheduled", "measured", "asked about"}
	lhWords = []string{"tomorrow", "before lunch", "next week", "on Thursday", "again", "finally", "with Sam",
		"for the team", "after the standup", "in the evening", "by Friday", "quietly", "as agreed", "twice"}
	lhZh = []string{"我们周末去杭州看外婆。", "会议改到下午三点。", "记得给猫买粮。", "报销单已经提交了。", "孩子下周开学。"}
)

// lhSentence draws one chat-like sentence.
func lhSentence(r *rand.Rand) string {
	switch r.Intn(10) {
	case 0:
		return lhZh[r.Intn(len(lhZh))]
	case 1:
		return fmt.Sprintf("Can you remind me what we decided about %s?", lhProjects[r.Intn(len(lhProjects))])
	default:
		return fmt.Sprintf("I %s %s %s, %s.", lhVerbs[r.Intn(len(lhVerbs))], lhProjects[r.Intn(len(lhProjects))],
			lhWords[r.Intn(len(lhWords))], lhWords[r.Intn(len(lhWords))])
	}
}

// History returns the `import` JSONL of nSessions conversations holding
// nTurns turns in all; WriteHistory describes it.
func History(nSessions, nTurns int, seed int64) string {
	var b strings.Builder
	_ = WriteHistory(&b, nSessions, nTurns, seed) // a strings.Builder never fails
	return b.String()
}

// WriteHistory writes the `import` JSONL of nSessions conversations holding
// nTurns turns in all (session lengths vary between half and 1.5× the mean
// nTurns/nSessions; the last takes the rest so the total is exact), one
// session a day from 2025-01-01 (session s%04d, turns s%04d-t%03d, each the
// parent of the next). Three sessions in four are owner↔assistant chats
// (speakerless, some multi-line list answers); the rest are Telegram group
// chats of paired speakers with speaker ids, one message in twenty from an
// unpaired stranger (archived pending, never distilled). About a tenth of
// the sentences are Chinese. It streams: memory does not grow with nTurns.
func WriteHistory(w io.Writer, nSessions, nTurns int, seed int64) error {
	if nSessions < 1 || nTurns < nSessions {
		return fmt.Errorf("history: %d turns in %d sessions: want at least one turn per session", nTurns, nSessions)
	}
	r := rand.New(rand.NewSource(seed))
	lens := make([]int, nSessions)
	left := nTurns
	mean := nTurns / nSessions
	for i := range lens {
		if i == nSessions-1 {
			lens[i] = max(left, 1)
			break
		}
		n := mean/2 + r.Intn(mean+1)
		n = min(n, left-(nSessions-1-i))
		lens[i] = max(n, 1)
		left -= lens[i]
	}
	bw := bufio.NewWriter(w)
	start := time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC)
	for s, n := range lens {
		group := s%4 == 3
		provider := "openprogram"
		if group {
			provider = "telegram"
		}
		session := fmt.Sprintf("s%04d", s)
		at := start.Add(time.Duration(s)*24*time.Hour + time.Duration(r.Intn(600))*time.Minute)
		parent := ""
		for i := 0; i < n; i++ {
			t := Turn{Session: session, Provider: provider, ID: fmt.Sprintf("%s-t%03d", session, i), Parent: parent,
				Time: at.Add(time.Duration(i) * 90 * time.Second).Format(time.RFC3339)}
			parts := 1 + r.Intn(3)
			var text []string
			for range parts {
				text = append(text, lhSentence(r))
			}
			t.Content = strings.Join(text, " ")
			switch {
			case !group && i%2 == 0:
				t.Role = "user"
			case !group:
				t.Role = "assistant"
				t.Content = "Noted. " + t.Content
				if r.Intn(5) == 0 {
					t.Content += "\n\n- " + lhSentence(r) + "\n- " + lhSentence(r)
				}
			case r.Intn(20) == 0:
				t.Role, t.SpeakerID, t.SpeakerDisplay, t.Tier, t.Group = "user", "stranger-"+session, "Stranger", "unpaired", true
			default:
				p := lhPeople[r.Intn(len(lhPeople))]
				t.Role, t.SpeakerID, t.SpeakerDisplay, t.Tier, t.Group = "user", p.id, p.display, "paired", true
			}
			data, err := json.Marshal(t)
			if err != nil {
				return fmt.Errorf("history: %w", err)
			}
			data = append(data, '\n')
			if _, err := bw.Write(data); err != nil {
				return fmt.Errorf("history: %w", err)
			}
			parent = t.ID
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}
