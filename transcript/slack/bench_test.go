package slack

import (
	"fmt"
	"strings"
	"testing"

	"scriptorium/transcript"
)

// BenchmarkParseFiles10k: a channel of 10,000 messages over 30 days, one in
// five a thread reply, with users' profiles and blocks as real exports
// carry them. The bar: a 10,000-message group chat imports in
// seconds.
func BenchmarkParseFiles10k(b *testing.B) {
	files := []transcript.File{
		{Name: "users.json", Data: []byte(`[{"id":"U1","name":"ana","profile":{"display_name":"ana"}},{"id":"U2","name":"ben","real_name":"Ben"}]`)},
		{Name: "channels.json", Data: []byte(`[{"id":"C1","name":"general","members":["U1","U2"]}]`)},
	}
	const n, days = 10000, 30
	size := 0
	for d := 0; d < days; d++ {
		var sb strings.Builder
		sb.WriteString("[\n")
		for i := d * n / days; i < (d+1)*n/days; i++ {
			if sb.Len() > 2 {
				sb.WriteString(",\n")
			}
			thread := ""
			if i%5 == 4 {
				thread = fmt.Sprintf(`"thread_ts": "%d.000100", "parent_user_id": "U1",`, 1700000000+(i-1)*60)
			}
			fmt.Fprintf(&sb, `    {"client_msg_id": "%08d-0000-4000-8000-000000000000", "type": "message", "text": "message %d for <@U2>: see <https://x.test/%d|the doc> &amp; reply", "user": "U%d", "ts": "%d.000100", %s "team": "T1", "blocks": [{"type": "rich_text", "block_id": "b%d", "elements": [{"type": "rich_text_section", "elements": [{"type": "text", "text": "message %d"}]}]}], "user_profile": {"real_name": "Ana Lima", "display_name": "ana", "name": "ana"}}`,
				i, i, i, 1+i%2, 1700000000+i*60, thread, i, i)
		}
		sb.WriteString("\n]\n")
		size += sb.Len()
		files = append(files, transcript.File{Name: fmt.Sprintf("general/2023-11-%02d.json", d+1), Data: []byte(sb.String())})
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		res, err := ParseFiles(files, "bench.zip")
		if err != nil || len(res.Turns) != n {
			b.Fatalf("%d turns, %v", len(res.Turns), err)
		}
	}
}
