package telegram

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkParse10k parses a supergroup of 10,000 messages (the issue's
// bar: such a chat imports and writes in seconds), with entity text,
// replies and photos mixed in, as Telegram Desktop pretty-prints them.
func BenchmarkParse10k(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("{\n \"name\": \"Bench group\",\n \"type\": \"private_supergroup\",\n \"id\": 1987654321,\n \"messages\": [")
	for i := 1; i <= 10000; i++ {
		if i > 1 {
			buf.WriteString(",")
		}
		fmt.Fprintf(&buf, "\n  {\n   \"id\": %d,\n   \"type\": \"message\",\n   \"date\": \"2024-01-01T00:00:00\",\n   \"date_unixtime\": \"%d\",\n   \"from\": \"Person %d\",\n   \"from_id\": \"user%d\",\n", i, 1704067200+i, i%7, 5000000000+i%7)
		switch i % 5 {
		case 0:
			buf.WriteString("   \"photo\": \"photos/photo_1.jpg\",\n   \"width\": 1280,\n   \"height\": 960,\n   \"text\": \"\",\n   \"text_entities\": []\n  }")
		case 1:
			fmt.Fprintf(&buf, "   \"reply_to_message_id\": %d,\n   \"text\": [\n    \"see \",\n    {\n     \"type\": \"bold\",\n     \"text\": \"this\"\n    },\n    \" now\"\n   ],\n   \"text_entities\": []\n  }", max(1, i-3))
		default:
			fmt.Fprintf(&buf, "   \"text\": \"message number %d, about the plan for tomorrow\",\n   \"text_entities\": []\n  }", i)
		}
	}
	buf.WriteString("\n ]\n}\n")
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		res, err := Parse(bytes.NewReader(data), "bench.json", Options{})
		if err != nil || len(res.Turns) != 10000 {
			b.Fatalf("%d turns, %v", len(res.Turns), err)
		}
	}
}
