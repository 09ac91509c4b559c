package scale

// A Telegram Desktop account export for the import benchmarks (issue 26:
// "import of a 1 GiB folder of transcripts ... streaming"): result.json
// with every chat of the account in one file, pretty-printed as Telegram
// Desktop writes it. Most chats are personal; some are groups and
// supergroups (a few of them forums), with service messages, replies,
// formatted text and photos among the messages.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// TelegramSeed is the seed of the Telegram export benchmarks.
const TelegramSeed uint64 = 2026

// TelegramOwner is the from_id of the account's owner in TelegramExport.
const TelegramOwner = "user5000000001"

// TelegramExport writes an account export of at least size bytes to w and
// returns the bytes written and the number of messages that become turns.
// Chats hold 20 to 4,000 messages (one in fifty a large supergroup of up
// to 40,000), so the file is many chats, as an account's is. The same size
// and seed give the same bytes.
func TelegramExport(w io.Writer, size int64, seed uint64) (written int64, turns int, err error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	cw := &countWriter{w: bw}
	g := &tgGen{r: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d)), w: cw}
	g.text = newTextGen(g.r)
	g.t = time.Date(2021, 3, 1, 8, 0, 0, 0, time.UTC)
	g.printf("{\n \"about\": \"Here is the data you requested.\",\n \"personal_information\": {\n  \"user_id\": 5000000001,\n" +
		"  \"first_name\": \"Mara\",\n  \"last_name\": \"Silva\",\n  \"phone_number\": \"+351 91 000 0000\",\n  \"bio\": \"\"\n },\n" +
		" \"chats\": {\n  \"about\": \"This page lists all chats from this export.\",\n  \"list\": [")
	for i := 0; cw.n < size || i == 0; i++ {
		if i > 0 {
			g.printf(",")
		}
		g.chat(i)
		if g.err != nil {
			return cw.n, g.turns, g.err
		}
	}
	g.printf("\n  ]\n }\n}\n")
	if g.err == nil {
		g.err = bw.Flush()
	}
	return cw.n, g.turns, g.err
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

type tgGen struct {
	r     *rand.Rand
	text  *textGen
	w     io.Writer
	t     time.Time
	turns int
	err   error
}

func (g *tgGen) printf(format string, args ...any) {
	if g.err == nil {
		_, g.err = fmt.Fprintf(g.w, format, args...)
	}
}

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

type tgMember struct{ name, id string }

// chat writes the i-th chat of the list.
func (g *tgGen) chat(i int) {
	r := g.r
	owner := tgMember{ChatMembers[0], TelegramOwner}
	typ, n := "personal_chat", 20+r.IntN(1500)
	switch k := r.IntN(100); {
	case k < 2:
		typ, n = "private_supergroup", 10000+r.IntN(30000)
	case k < 20:
		typ, n = "private_supergroup", 200+r.IntN(4000)
	case k < 35:
		typ, n = "private_group", 100+r.IntN(2000)
	case k < 38:
		typ = "public_channel"
	}
	id := 1000000 + i
	members := []tgMember{owner}
	name := ""
	switch typ {
	case "personal_chat":
		other := ChatMembers[1+i%(len(ChatMembers)-1)]
		name = other + fmt.Sprintf(" %d", i)
		members = append(members, tgMember{name, fmt.Sprintf("user%d", 6000000000+i)})
	case "public_channel":
		name = fmt.Sprintf("Release notes %d", i)
		members = []tgMember{{name, fmt.Sprintf("channel%d", id)}}
	default:
		name = fmt.Sprintf("%s team %d", pick(r, genProjects), i)
		for j, m := range ChatMembers[1:] {
			members = append(members, tgMember{m, fmt.Sprintf("user%d", 5000000002+j)})
		}
	}
	forum := typ == "private_supergroup" && r.IntN(4) == 0
	g.printf("\n   {\n    \"name\": %s,\n    \"type\": %q,\n    \"id\": %d,\n    \"messages\": [", quote(name), typ, id)
	var topics []int
	for m := 1; m <= n && g.err == nil; m++ {
		if m > 1 {
			g.printf(",")
		}
		g.t = g.t.Add(time.Duration(1+r.IntN(600)) * time.Second)
		who := members[r.IntN(len(members))]
		g.printf("\n     {\n      \"id\": %d,\n", m)
		if m == 1 || forum && r.IntN(200) == 0 {
			// The chat's creation, or a forum's new topic.
			action, extra := "create_group", ",\n      \"members\": []"
			if forum && m > 1 {
				action, extra = "topic_created", ",\n      \"title\": "+quote(pick(r, genTech)+" questions")
				topics = append(topics, m)
			}
			g.printf("      \"type\": \"service\",\n      \"date\": %q,\n      \"date_unixtime\": \"%d\",\n      \"actor\": %s,\n"+
				"      \"actor_id\": %q,\n      \"action\": %q%s,\n      \"text\": \"\",\n      \"text_entities\": []\n     }",
				g.t.Format("2006-01-02T15:04:05"), g.t.Unix(), quote(who.name), who.id, action, extra)
			continue
		}
		g.printf("      \"type\": \"message\",\n      \"date\": %q,\n      \"date_unixtime\": \"%d\",\n      \"from\": %s,\n      \"from_id\": %q,\n",
			g.t.Format("2006-01-02T15:04:05"), g.t.Unix(), quote(who.name), who.id)
		switch {
		case len(topics) > 0 && r.IntN(2) == 0:
			g.printf("      \"reply_to_message_id\": %d,\n", topics[r.IntN(len(topics))])
		case r.IntN(10) == 0:
			g.printf("      \"reply_to_message_id\": %d,\n", 1+r.IntN(m-1))
		}
		g.turns++
		switch k := r.IntN(100); {
		case k < 6:
			g.printf("      \"photo\": \"photos/photo_%d@%s.jpg\",\n      \"width\": 1280,\n      \"height\": 960,\n      \"text\": \"\",\n      \"text_entities\": []\n     }",
				m, g.t.Format("02-01-2006_15-04-05"))
		case k < 16:
			word := pick(r, genTech)
			before, after := g.text.english(who.name), g.text.english(who.name)
			g.printf("      \"text\": [\n       %s,\n       {\n        \"type\": \"bold\",\n        \"text\": %s\n       },\n       %s\n      ],\n"+
				"      \"text_entities\": [\n       {\n        \"type\": \"plain\",\n        \"text\": %s\n       },\n       {\n        \"type\": \"bold\",\n        \"text\": %s\n       },\n"+
				"       {\n        \"type\": \"plain\",\n        \"text\": %s\n       }\n      ]\n     }",
				quote(before+" "), quote(word), quote(" "+after), quote(before+" "), quote(word), quote(" "+after))
		default:
			var b strings.Builder
			b.WriteString(g.text.english(who.name))
			for r.IntN(4) == 0 {
				b.WriteString("\n")
				b.WriteString(g.text.english(who.name))
			}
			s := quote(b.String())
			g.printf("      \"text\": %s,\n      \"text_entities\": [\n       {\n        \"type\": \"plain\",\n        \"text\": %s\n       }\n      ]\n     }", s, s)
		}
	}
	g.printf("\n    ]\n   }")
}
