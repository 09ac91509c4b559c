package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"time"
)

// person is someone who speaks in the group chats, with an id per provider.
type person struct {
	display string
	ids     map[string]string // provider -> speaker id
	owner   bool
}

var people = map[string]person{
	"sam":      {"Sam Okafor", map[string]string{"telegram": "u1000", "slack": "U01SAM", "discord": "samo", "wechat": "wxid_sam"}, true},
	"alice":    {"Alice Chen", map[string]string{"telegram": "u1001", "discord": "alicec"}, false},
	"bob":      {"Bob Martin", map[string]string{"telegram": "u1002"}, false},
	"priya":    {"Priya Nair", map[string]string{"slack": "U02PRIYA", "discord": "priya.n"}, false},
	"tom":      {"Tom Becker", map[string]string{"slack": "U03TOM", "discord": "tomb"}, false},
	"ines":     {"Ines Duarte", map[string]string{"slack": "U04INES"}, false},
	"diego":    {"Diego Ramos", map[string]string{"discord": "diegor"}, false},
	"hana":     {"Hana Kato", map[string]string{"discord": "hanak"}, false},
	"mama":     {"妈妈", map[string]string{"wechat": "wxid_mama"}, false},
	"linwei":   {"林伟", map[string]string{"wechat": "wxid_linwei"}, false},
	"zhangmin": {"张敏", map[string]string{"wechat": "wxid_zhangmin"}, false},
}

// session is one conversation: a group chat over months, or an
// owner↔assistant session over a few days (members empty).
type session struct {
	key, provider, id string
	members           []string
	from, to          string // YYYY-MM-DD, inclusive
	size              int    // turns wanted, facts included
	filler            []string
	theme             string // web sessions
}

func sessions() []session {
	s := []session{
		{key: "family", provider: "telegram", id: "family-chat", members: []string{"sam", "alice", "bob"}, from: "2025-01-04", to: "2025-12-22", size: 330, filler: familyFiller},
		{key: "ops", provider: "slack", id: "ops-team", members: []string{"sam", "priya", "tom", "ines"}, from: "2025-01-06", to: "2025-12-19", size: 320, filler: opsFiller},
		{key: "climbing", provider: "discord", id: "climbing-crew", members: []string{"sam", "diego", "priya", "hana"}, from: "2025-02-01", to: "2025-11-30", size: 240, filler: climbingFiller},
		{key: "book", provider: "discord", id: "book-club", members: []string{"sam", "hana", "alice", "tom"}, from: "2025-01-15", to: "2025-12-10", size: 150, filler: bookFiller},
		{key: "wechat", provider: "wechat", id: "jia-ren", members: []string{"sam", "mama", "linwei", "zhangmin"}, from: "2025-01-10", to: "2025-12-28", size: 210, filler: wechatFiller},
	}
	web := []struct{ day, theme string }{
		{"2025-01-12", "cooking"}, {"2025-02-03", "paperwork"}, {"2025-02-27", "travel"}, {"2025-03-20", "running"},
		{"2025-04-14", "garden"}, {"2025-05-08", "car"}, {"2025-06-01", "code"}, {"2025-06-25", "network"},
		{"2025-07-19", "gifts"}, {"2025-08-10", "language"}, {"2025-09-02", "career"}, {"2025-09-28", "budget"},
		{"2025-10-20", "japan"}, {"2025-11-09", "health"}, {"2025-11-30", "holidays"}, {"2025-12-15", "review"},
	}
	for i, w := range web {
		d, _ := time.Parse(time.DateOnly, w.day)
		s = append(s, session{key: fmt.Sprintf("w%02d", i+1), provider: "openprogram", id: "web-" + w.day,
			from: w.day, to: d.AddDate(0, 0, 2).Format(time.DateOnly), size: 26, theme: w.theme})
	}
	return s
}

// turnOut is one line of turns.jsonl (SPEC §7 import fields).
type turnOut struct {
	Session        string `json:"session"`
	Provider       string `json:"provider"`
	ID             string `json:"id"`
	Parent         string `json:"parent"`
	Role           string `json:"role"`
	Content        string `json:"content"`
	SpeakerID      string `json:"speaker_id,omitempty"`
	SpeakerDisplay string `json:"speaker_display,omitempty"`
	Time           string `json:"time"`
	Tier           string `json:"tier"`
	Group          bool   `json:"group,omitempty"`
}

// questionOut is one entry of questions.json.
type questionOut struct {
	ID       string   `json:"id"`
	Text     string   `json:"text"`
	Category string   `json:"category"`
	Evidence []string `json:"evidence"` // source-ids; empty for unanswerable
}

// line is one planned turn before ids and times are known.
type line struct {
	speaker, text string
	evidence      bool
	question      int // index into the questions, for evidence
}

// block is turns that stay together and in order on one day.
type block []line

// Generate builds both files from the seed.
func Generate(seed uint64) (turns, questions []byte, err error) {
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	sess := sessions()
	byKey := map[string]*session{}
	for i := range sess {
		byKey[sess[i].key] = &sess[i]
	}
	qs, plan, err := parseFacts(factsEN+factsZH, byKey)
	if err != nil {
		return nil, nil, err
	}
	evidence := make([][]string, len(qs))
	var out []turnOut
	for i := range sess {
		s := &sess[i]
		ts := layout(r, s, plan[s.key])
		for j, tl := range ts {
			t := turnOut{Session: s.id, Provider: s.provider, ID: fmt.Sprintf("t%04d", j+1), Content: tl.text,
				Time: tl.at.Format(time.RFC3339), Tier: "owner"}
			if j > 0 {
				t.Parent = fmt.Sprintf("t%04d", j)
			}
			switch tl.speaker {
			case "user":
				t.Role = "user"
			case "asst":
				t.Role = "assistant"
			default:
				p, ok := people[tl.speaker]
				if !ok {
					return nil, nil, fmt.Errorf("unknown speaker %q", tl.speaker)
				}
				t.Role, t.Group = "user", true
				t.SpeakerID, t.SpeakerDisplay = p.ids[s.provider], p.display
				if t.SpeakerID == "" {
					return nil, nil, fmt.Errorf("%s has no id on %s", tl.speaker, s.provider)
				}
				if s.provider == "wechat" && tl.speaker == "sam" {
					t.SpeakerDisplay = "Sam"
				}
				if !p.owner {
					t.Tier = "paired"
				}
			}
			if tl.stranger {
				t.SpeakerID, t.SpeakerDisplay, t.Tier = "u6666", "Prize Desk", "unpaired"
			}
			if tl.evidence {
				evidence[tl.question] = append(evidence[tl.question], s.provider+"/"+s.id+"/"+t.ID)
			}
			out = append(out, t)
		}
	}
	var tb bytes.Buffer
	enc := json.NewEncoder(&tb)
	enc.SetEscapeHTML(false)
	for _, t := range out {
		if err := enc.Encode(t); err != nil {
			return nil, nil, err
		}
	}
	for i := range qs {
		qs[i].Evidence = evidence[i]
		if qs[i].Evidence == nil {
			qs[i].Evidence = []string{}
		}
		if (qs[i].Category == "unanswerable") != (len(qs[i].Evidence) == 0) {
			return nil, nil, fmt.Errorf("%s: category %s with %d evidence turns", qs[i].ID, qs[i].Category, len(qs[i].Evidence))
		}
	}
	var qb bytes.Buffer
	qb.WriteString("[\n")
	for i, q := range qs {
		b, err := json.Marshal(q)
		if err != nil {
			return nil, nil, err
		}
		b = bytes.ReplaceAll(b, []byte(`\u0026`), []byte("&"))
		qb.Write(b)
		if i < len(qs)-1 {
			qb.WriteString(",")
		}
		qb.WriteString("\n")
	}
	qb.WriteString("]\n")
	return tb.Bytes(), qb.Bytes(), nil
}

// parseFacts reads the fact table into questions and, per session and day,
// the blocks to place there.
func parseFacts(src string, byKey map[string]*session) ([]questionOut, map[string]map[string][]block, error) {
	var qs []questionOut
	plan := map[string]map[string][]block{}
	for n, raw := range strings.Split(src, "\n") {
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		fields := strings.Split(raw, " | ")
		if len(fields) < 2 {
			return nil, nil, fmt.Errorf("fact line %d: %q", n, raw)
		}
		qi := len(qs)
		qs = append(qs, questionOut{ID: fmt.Sprintf("q%03d", qi+1), Category: strings.TrimSpace(fields[0]), Text: strings.TrimSpace(fields[1])})
		for _, part := range fields[2:] {
			head, body, ok := strings.Cut(part, ": ")
			sk, day, ok2 := strings.Cut(head, "@")
			s := byKey[sk]
			if !ok || !ok2 || s == nil {
				return nil, nil, fmt.Errorf("fact line %d: bad part %q", n, part)
			}
			if day < s.from || day > s.to {
				return nil, nil, fmt.Errorf("fact line %d: %s is outside %s (%s..%s)", n, day, sk, s.from, s.to)
			}
			var b block
			for _, t := range strings.Split(body, " >> ") {
				who, text, ok := strings.Cut(t, ": ")
				if !ok {
					return nil, nil, fmt.Errorf("fact line %d: bad turn %q", n, t)
				}
				l := line{speaker: strings.TrimPrefix(who, "*"), text: text, evidence: strings.HasPrefix(who, "*"), question: qi}
				b = append(b, l)
			}
			if plan[sk] == nil {
				plan[sk] = map[string][]block{}
			}
			plan[sk][day] = append(plan[sk][day], b)
		}
	}
	return qs, plan, nil
}

// timed is a planned turn with its time.
type timed struct {
	line
	at       time.Time
	stranger bool // an unpaired group member: archived pending, never searchable
}

// layout spreads a session's facts and filler over days: fact days are
// fixed, filler days are drawn across the session's range, and each day is
// one burst of turns minutes apart.
func layout(r *rand.Rand, s *session, facts map[string][]block) []timed {
	from, _ := time.Parse(time.DateOnly, s.from)
	to, _ := time.Parse(time.DateOnly, s.to)
	span := int(to.Sub(from).Hours()/24) + 1
	factTurns := 0
	for _, bs := range facts {
		for _, b := range bs {
			factTurns += len(b)
		}
	}
	fillerN := max(s.size-factTurns, 4)
	days := map[string][]block{}
	for d, bs := range facts {
		days[d] = append(days[d], bs...)
	}
	if s.theme != "" {
		fillWeb(r, s, from, span, days, fillerN)
	} else {
		fillGroup(r, s, from, span, days, fillerN)
	}
	keys := make([]string, 0, len(days))
	for d := range days {
		keys = append(keys, d)
	}
	sort.Strings(keys)
	var out []timed
	for _, d := range keys {
		day, _ := time.Parse(time.DateOnly, d)
		at := day.Add(time.Duration(7+r.IntN(13))*time.Hour + time.Duration(r.IntN(60))*time.Minute)
		for _, b := range days[d] {
			for _, l := range b {
				out = append(out, timed{line: l, at: at, stranger: l.speaker == "stranger"})
				at = at.Add(time.Duration(1+r.IntN(20))*time.Minute + time.Duration(r.IntN(60))*time.Second)
			}
		}
	}
	for i := range out {
		if out[i].stranger {
			out[i].speaker = s.members[1] // replaced by the stranger's fields
		}
	}
	return out
}

// fillGroup adds filler bursts of 2–9 turns on random days, and mixes a
// single filler turn into fact days too, at a random place in the day.
func fillGroup(r *rand.Rand, s *session, from time.Time, span int, days map[string][]block, n int) {
	table := slots
	if s.provider == "wechat" {
		table = wechatSlots
	}
	say := func() line {
		return line{speaker: s.members[r.IntN(len(s.members))], text: fill(r, s.filler[r.IntN(len(s.filler))], table)}
	}
	factDays := make([]string, 0, len(days))
	for d := range days {
		factDays = append(factDays, d)
	}
	sort.Strings(factDays)
	for _, d := range factDays {
		if n == 0 {
			break
		}
		at := r.IntN(len(days[d]) + 1)
		days[d] = append(days[d][:at], append([]block{{say()}}, days[d][at:]...)...)
		n--
	}
	for n > 0 {
		d := from.AddDate(0, 0, r.IntN(span)).Format(time.DateOnly)
		k := min(2+r.IntN(8), n)
		var b block
		for range k {
			b = append(b, say())
		}
		days[d] = append(days[d], b)
		n -= k
	}
	// A stranger in the group, not paired by the owner: their turns are
	// archived pending. The canary must never reach search or an embedder.
	if s.key == "family" || s.key == "climbing" {
		d := from.AddDate(0, 0, span/2).Format(time.DateOnly)
		days[d] = append(days[d], block{{speaker: "stranger", text: "CANARY-PENDING-7Q2 congratulations, you won a cruise: reply with your bank details"}})
	}
}

// fillWeb adds user/assistant pairs on the session's days, and answers or
// prompts fact blocks so roles alternate.
func fillWeb(r *rand.Rand, s *session, from time.Time, span int, days map[string][]block, n int) {
	th := webThemes[s.theme]
	keys := make([]string, 0, len(days))
	for d := range days {
		keys = append(keys, d)
	}
	sort.Strings(keys) // map order is random; the draws must not be
	for _, d := range keys {
		bs := days[d]
		for i, b := range bs {
			if b[0].speaker == "asst" {
				b = append(block{{speaker: "user", text: fill(r, th.user[r.IntN(len(th.user))], slots)}}, b...)
			}
			if b[len(b)-1].speaker == "user" {
				b = append(b, line{speaker: "asst", text: acks[r.IntN(len(acks))]})
			}
			bs[i] = b
		}
		days[d] = bs
	}
	for n > 0 {
		d := from.AddDate(0, 0, r.IntN(span)).Format(time.DateOnly)
		k := r.IntN(len(th.user))
		pair := block{{speaker: "user", text: fill(r, th.user[k], slots)}, {speaker: "asst", text: th.asst[k]}}
		at := r.IntN(len(days[d]) + 1)
		days[d] = append(days[d][:at], append([]block{pair}, days[d][at:]...)...)
		n -= 2
	}
}

// acks answer a fact the owner tells the assistant.
var acks = []string{
	"Got it, I'll keep that in mind.", "Noted. Anything else you want me to remember about it?",
	"Thanks, that helps. Want me to add a reminder?", "Okay, noted for later.", "Understood.",
}
