package scale

// A Slack workspace export for the import benchmarks (issue 26): the
// folder Slack's export zip unpacks to — users.json, channels.json and
// dms.json, then a folder per conversation of day files, pretty-printed as
// Slack writes them, each message with its rich-text blocks and the
// poster's profile. Threads span days; joins are among the messages.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SlackSeed is the seed of the Slack export benchmarks.
const SlackSeed uint64 = 4026

// slackChannels are the generated export's public channels; the DMs are
// between the owner and each other member.
var slackChannels = []string{"general", "dev", "ops", "random", "design", "support"}

// SlackExport writes an export of at least size bytes into dir and returns
// the bytes written and the number of messages that become turns. Each
// day, every conversation gets 0 to 60 messages; one in eight starts a
// thread whose replies come on that day and the next. The same size and
// seed give the same bytes.
func SlackExport(dir string, size int64, seed uint64) (written int64, turns int, err error) {
	g := &tgGen{r: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))}
	g.text = newTextGen(g.r)
	users := make([]string, len(ChatMembers))
	var ub, cb, db strings.Builder
	ub.WriteString("[")
	for i, name := range ChatMembers {
		users[i] = fmt.Sprintf("U%08d", 5000+i)
		if i > 0 {
			ub.WriteString(",")
		}
		handle := strings.ToLower(strings.ReplaceAll(name, " ", "."))
		fmt.Fprintf(&ub, "\n    {\n        \"id\": %q,\n        \"team_id\": \"T0ACME0001\",\n        \"name\": %q,\n        \"deleted\": false,\n"+
			"        \"real_name\": %s,\n        \"tz\": \"Europe\\/Lisbon\",\n        \"profile\": {\n            \"real_name\": %s,\n"+
			"            \"display_name\": %s,\n            \"image_72\": \"https:\\/\\/avatars.slack-edge.com\\/%d_72.png\"\n        },\n"+
			"        \"is_bot\": false\n    }", users[i], handle, quote(name), quote(name), quote(strings.Fields(name)[0]), i)
	}
	ub.WriteString("\n]\n")
	type conv struct{ id, folder string }
	var convs []conv
	cb.WriteString("[")
	for i, name := range slackChannels {
		id := fmt.Sprintf("C%08d", 100+i)
		convs = append(convs, conv{id, name})
		if i > 0 {
			cb.WriteString(",")
		}
		fmt.Fprintf(&cb, "\n    {\n        \"id\": %q,\n        \"name\": %q,\n        \"created\": 1614585600,\n        \"creator\": %q,\n"+
			"        \"is_archived\": false,\n        \"is_general\": %t,\n        \"members\": [%s],\n"+
			"        \"topic\": {\n            \"value\": \"\",\n            \"creator\": \"\",\n            \"last_set\": 0\n        }\n    }",
			id, name, users[0], name == "general", `"`+strings.Join(users, `", "`)+`"`)
	}
	cb.WriteString("\n]\n")
	db.WriteString("[")
	for i := 1; i < len(users); i++ {
		id := fmt.Sprintf("D%08d", 200+i)
		convs = append(convs, conv{id, id})
		if i > 1 {
			db.WriteString(",")
		}
		fmt.Fprintf(&db, "\n    {\n        \"id\": %q,\n        \"created\": 1614585600,\n        \"members\": [%q, %q]\n    }", id, users[0], users[i])
	}
	db.WriteString("\n]\n")
	for name, body := range map[string]string{"users.json": ub.String(), "channels.json": cb.String(), "dms.json": db.String()} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return written, turns, err
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return written, turns, err
		}
		written += int64(len(body))
	}
	day := time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)
	open := map[string][]string{} // by conversation: threads started the day before, replied to today too
	for written < size {
		for _, c := range convs {
			n, err := g.slackDay(filepath.Join(dir, c.folder, day.Format("2006-01-02")+".json"), day, users, c.id, open)
			if err != nil {
				return written, g.turns, err
			}
			written += n
		}
		day = day.AddDate(0, 0, 1)
	}
	return written, g.turns, nil
}

// slackDay writes one conversation's day file (none on a quiet day).
func (g *tgGen) slackDay(path string, day time.Time, users []string, conv string, open map[string][]string) (int64, error) {
	r := g.r
	n := r.IntN(61)
	yesterday := open[conv]
	open[conv] = nil
	if n == 0 && len(yesterday) == 0 {
		return 0, nil
	}
	var b strings.Builder
	b.WriteString("[")
	sec := day.Unix() + 8*3600
	first := true
	msg := func(body string) {
		if !first {
			b.WriteString(",")
		}
		first = false
		b.WriteString(body)
	}
	for _, thread := range yesterday {
		sec += int64(1 + r.IntN(120))
		msg(g.slackMessage(sec, users, thread, ""))
	}
	for i := 0; i < n; i++ {
		sec += int64(1 + r.IntN(900))
		if r.IntN(40) == 0 {
			msg(fmt.Sprintf("\n    {\n        \"type\": \"message\",\n        \"subtype\": \"channel_join\",\n        \"ts\": \"%d.%06d\",\n"+
				"        \"user\": %q,\n        \"text\": \"<@%s> has joined the channel\"\n    }", sec, r.IntN(1000000), users[r.IntN(len(users))], users[r.IntN(len(users))]))
			continue
		}
		ts := fmt.Sprintf("%d.%06d", sec, r.IntN(1000000))
		thread := ""
		if r.IntN(8) == 0 {
			thread = ts
			open[conv] = append(open[conv], ts)
		}
		msg(g.slackMessage(sec, users, thread, ts))
		if thread != "" {
			for range 1 + r.IntN(4) {
				sec += int64(1 + r.IntN(300))
				msg(g.slackMessage(sec, users, thread, ""))
			}
		}
	}
	b.WriteString("\n]\n")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	return int64(b.Len()), os.WriteFile(path, []byte(b.String()), 0o644)
}

// slackMessage is one message at sec: a thread's parent (ts == thread), a
// reply (thread set, ts ""), or a message of the channel.
func (g *tgGen) slackMessage(sec int64, users []string, thread, ts string) string {
	r := g.r
	if ts == "" {
		ts = fmt.Sprintf("%d.%06d", sec, r.IntN(1000000))
	}
	who := r.IntN(len(users))
	name := ChatMembers[who]
	text := g.text.english(name)
	if r.IntN(10) == 0 {
		text = fmt.Sprintf("<@%s> %s", users[r.IntN(len(users))], text)
	}
	g.turns++
	threadFields := ""
	if thread != "" {
		threadFields = fmt.Sprintf(",\n        \"thread_ts\": %q", thread)
		if thread != ts {
			threadFields += fmt.Sprintf(",\n        \"parent_user_id\": %q", users[0])
		}
	}
	return fmt.Sprintf("\n    {\n        \"client_msg_id\": \"%08x-%04x-4%03x-a%03x-%012x\",\n        \"type\": \"message\",\n        \"text\": %s,\n"+
		"        \"user\": %q,\n        \"ts\": %q,\n        \"blocks\": [\n            {\n                \"type\": \"rich_text\",\n"+
		"                \"block_id\": \"%05x\",\n                \"elements\": [\n                    {\n                        \"type\": \"rich_text_section\",\n"+
		"                        \"elements\": [\n                            {\n                                \"type\": \"text\",\n"+
		"                                \"text\": %s\n                            }\n                        ]\n                    }\n                ]\n            }\n        ],\n"+
		"        \"team\": \"T0ACME0001\",\n        \"user_team\": \"T0ACME0001\",\n        \"source_team\": \"T0ACME0001\",\n"+
		"        \"user_profile\": {\n            \"avatar_hash\": \"g%011x\",\n            \"image_72\": \"https:\\/\\/avatars.slack-edge.com\\/%d_72.png\",\n"+
		"            \"first_name\": %s,\n            \"real_name\": %s,\n            \"display_name\": %s,\n            \"team\": \"T0ACME0001\",\n"+
		"            \"name\": %q,\n            \"is_restricted\": false,\n            \"is_ultra_restricted\": false\n        }%s\n    }",
		r.Uint32(), r.IntN(1<<16), r.IntN(1<<12), r.IntN(1<<12), r.Int64N(1<<48), quote(text), users[who], ts, r.IntN(1<<20), quote(text),
		r.Int64N(1<<44), who, quote(strings.Fields(name)[0]), quote(name), quote(strings.Fields(name)[0]),
		strings.ToLower(strings.ReplaceAll(name, " ", ".")), threadFields)
}
