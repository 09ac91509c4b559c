package scale

// A DiscordChatExporter JSON export for the import benchmarks (issue 26):
// one guild channel in one file, pretty-printed as the exporter writes it,
// with each message's author (roles, avatar), reactions, replies,
// attachments, a bot's embeds and joins among the messages.

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// DiscordSeed is the seed of the Discord export benchmarks.
const DiscordSeed uint64 = 3026

// DiscordExport writes one channel's export of at least size bytes to w and
// returns the bytes written and the number of messages that become turns.
// Message ids are snowflakes in time order, as the exporter lists them.
// The same size and seed give the same bytes.
func DiscordExport(w io.Writer, size int64, seed uint64) (written int64, turns int, err error) {
	bw := bufio.NewWriterSize(w, 256<<10)
	cw := &countWriter{w: bw}
	g := &tgGen{r: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d)), w: cw}
	g.text = newTextGen(g.r)
	g.t = time.Date(2021, 3, 1, 8, 0, 0, 0, time.UTC)
	channel := 838021943394304000 + seed
	g.printf("%s", discordHeader(channel, seed, "2026-01-05T20:00:00.1234567+00:00"))
	const epoch = 1420070400000 // Discord's, in Unix milliseconds
	prev := []uint64{}
	n := 0
	for ; cw.n < size || n == 0; n++ {
		if n > 0 {
			g.printf(",")
		}
		g.t = g.t.Add(time.Duration(1+g.r.IntN(300)) * time.Second)
		id := uint64(g.t.UnixMilli()-epoch)<<22 | uint64(n%4096)
		g.discordMessage(id, channel, prev)
		prev = append(prev, id)
		if len(prev) > 64 {
			prev = prev[1:]
		}
		if g.err != nil {
			return cw.n, g.turns, g.err
		}
	}
	g.printf("\n  ],\n  \"messageCount\": %d\n}\n", n)
	if g.err == nil {
		g.err = bw.Flush()
	}
	return cw.n, g.turns, g.err
}

// discordHeader is an export's start, up to its messages.
func discordHeader(channel, seed uint64, exportedAt string) string {
	return fmt.Sprintf("{\n  \"guild\": {\n    \"id\": \"838021943394300001\",\n    \"name\": \"Makers Guild\",\n    \"iconUrl\": \"https://cdn.discordapp.com/icons/838021943394300001/a.png\"\n  },\n"+
		"  \"channel\": {\n    \"id\": \"%d\",\n    \"type\": \"GuildTextChat\",\n    \"categoryId\": \"838021943394300002\",\n    \"category\": \"dev\",\n"+
		"    \"name\": \"general-%d\",\n    \"topic\": null\n  },\n  \"dateRange\": {\n    \"after\": null,\n    \"before\": null\n  },\n"+
		"  \"exportedAt\": \"%s\",\n  \"messages\": [", channel, seed, exportedAt)
}

// discordMessage writes one message: mostly people talking, some replies,
// attachments and reactions, a few joins and a bot's embed.
func (g *tgGen) discordMessage(id, channel uint64, prev []uint64) {
	r := g.r
	who := r.IntN(len(ChatMembers))
	name := ChatMembers[who]
	typ, content, extra := "Default", "", ""
	attachments, embeds := "[]", "[]"
	bot := false
	switch k := r.IntN(100); {
	case k < 2:
		typ, content = "GuildMemberJoin", ""
	case k < 4:
		bot, name = true, "Release Bot"
		embeds = fmt.Sprintf("[\n        {\n          \"title\": %s,\n          \"url\": \"https://ci.example/builds/%d\",\n          \"timestamp\": null,\n"+
			"          \"description\": %s,\n          \"color\": \"#2ECC71\",\n          \"images\": [],\n          \"fields\": [],\n          \"inlineEmojis\": []\n        }\n      ]",
			quote("Build "+pick(r, genTech)), id%100000, quote(g.text.english(name)))
		g.turns++
	default:
		var b strings.Builder
		b.WriteString(g.text.english(name))
		for r.IntN(4) == 0 {
			b.WriteString("\n")
			b.WriteString(g.text.english(name))
		}
		content = b.String()
		if r.IntN(12) == 0 {
			attachments = fmt.Sprintf("[\n        {\n          \"id\": \"%d\",\n          \"url\": \"https://cdn.discordapp.com/attachments/%d/%d/photo_%d.jpg\",\n"+
				"          \"fileName\": \"photo_%d.jpg\",\n          \"fileSizeBytes\": %d\n        }\n      ]", id+1, channel, id+1, id%1000, id%1000, 20000+r.IntN(2000000))
		}
		if len(prev) > 0 && r.IntN(8) == 0 {
			typ = "Reply"
			extra = fmt.Sprintf(",\n      \"reference\": {\n        \"messageId\": \"%d\",\n        \"channelId\": \"%d\",\n        \"guildId\": \"838021943394300001\"\n      }",
				prev[r.IntN(len(prev))], channel)
		}
		g.turns++
	}
	edited := "null"
	if r.IntN(20) == 0 {
		edited = quote(g.t.Add(time.Minute).Format("2006-01-02T15:04:05.000-07:00"))
	}
	reactions := "[]"
	if r.IntN(5) == 0 {
		reactions = fmt.Sprintf("[\n        {\n          \"emoji\": {\n            \"id\": \"\",\n            \"name\": \"👍\",\n            \"code\": \"thumbsup\",\n"+
			"            \"isAnimated\": false,\n            \"imageUrl\": \"https://cdn.jsdelivr.net/gh/twitter/twemoji@latest/assets/svg/1f44d.svg\"\n          },\n"+
			"          \"count\": %d,\n          \"users\": []\n        }\n      ]", 1+r.IntN(5))
	}
	authorID := 412345678901234500 + uint64(who)
	if bot {
		authorID = 999000000000000001
	}
	g.printf("\n    {\n      \"id\": \"%d\",\n      \"type\": %q,\n      \"timestamp\": %q,\n      \"timestampEdited\": %s,\n      \"callEndedTimestamp\": null,\n"+
		"      \"isPinned\": false,\n      \"content\": %s,\n      \"author\": {\n        \"id\": \"%d\",\n        \"name\": %s,\n        \"discriminator\": \"0000\",\n"+
		"        \"nickname\": %s,\n        \"color\": \"#1ABC9C\",\n        \"isBot\": %t,\n        \"roles\": [\n          {\n            \"id\": \"838021943394300010\",\n"+
		"            \"name\": \"Member\",\n            \"color\": null,\n            \"position\": 1\n          }\n        ],\n"+
		"        \"avatarUrl\": \"https://cdn.discordapp.com/avatars/%d/a.png?size=512\"\n      },\n      \"attachments\": %s,\n      \"embeds\": %s,\n"+
		"      \"stickers\": [],\n      \"reactions\": %s,\n      \"mentions\": [],\n      \"inlineEmojis\": []%s\n    }",
		id, typ, g.t.Format("2006-01-02T15:04:05.000-07:00"), edited, quote(content), authorID,
		quote(strings.ToLower(strings.ReplaceAll(name, " ", "."))), quote(name), bot, authorID, attachments, embeds, reactions, extra)
}
