package discord

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParse10k: one channel export of 10,000 messages with authors'
// roles, reactions and replies as the exporter writes them. The issue's
// bar: a 10,000-message group chat imports in seconds.
func BenchmarkParse10k(b *testing.B) {
	const n = 10000
	var sb strings.Builder
	sb.WriteString(`{"guild": {"id": "1", "name": "G"}, "channel": {"id": "2", "type": "GuildTextChat", "name": "general"}, "exportedAt": "2024-03-05T20:00:00+01:00", "messages": [` + "\n")
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		ref := ""
		if i%4 == 3 {
			ref = fmt.Sprintf(`, "reference": {"messageId": "%d", "channelId": "2", "guildId": "1"}`, 1000000+i-1)
		}
		fmt.Fprintf(&sb, `    {"id": "%d", "type": "Default", "timestamp": "2024-03-04T10:%02d:%02d.000+02:00", "timestampEdited": null, "callEndedTimestamp": null, "isPinned": false, "content": "message %d with a link https://x.test/%d", "author": {"id": "%d", "name": "user%d", "discriminator": "0000", "nickname": "User %d", "color": "#1ABC9C", "isBot": false, "roles": [{"id": "9", "name": "Member", "color": null, "position": 1}], "avatarUrl": "https://cdn.discordapp.com/avatars/x.png"}, "attachments": [], "embeds": [], "stickers": [], "reactions": [{"emoji": {"id": "", "name": "👍", "code": "thumbsup", "isAnimated": false, "imageUrl": "https://x.test/e.svg"}, "count": 1, "users": [{"id": "7", "name": "u7", "discriminator": "0000", "nickname": "u7", "isBot": false, "avatarUrl": ""}]}], "mentions": [], "inlineEmojis": []%s}`,
			1000000+i, (i/60)%60, i%60, i, i, 100+i%7, i%7, i%7, ref)
	}
	sb.WriteString("\n], \"messageCount\": 10000}\n")
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for range b.N {
		res, err := Parse(bytes.NewReader(data), "bench.json")
		if err != nil || len(res.Turns) != n {
			b.Fatalf("%d turns, %v", len(res.Turns), err)
		}
	}
}
