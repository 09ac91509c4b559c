package whatsapp

import (
	"bytes"
	"fmt"
	"testing"
)

// BenchmarkParse10k parses a group chat of 10,000 messages (the bar:
// such a chat imports and writes in seconds), in the iOS layout with a
// multi-line message and a media line every few entries.
func BenchmarkParse10k(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("\u200e[01.01.24, 09:00:00] Team: \u200eMessages and calls are end-to-end encrypted.\n")
	for i := 0; i < 10000; i++ {
		day, sec := 1+i/2000, i%2000
		fmt.Fprintf(&buf, "[%02d.01.24, %02d:%02d:%02d] Person %d: ", day, 9+sec/3600, sec/60%60, sec%60, i%7)
		switch i % 5 {
		case 0:
			buf.WriteString("\u200eimage omitted\n")
		case 1:
			fmt.Fprintf(&buf, "first line of message %d\nsecond line 🎉\n", i)
		default:
			fmt.Fprintf(&buf, "message number %d, about the plan for tomorrow\n", i)
		}
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		res, err := Parse(bytes.NewReader(data), "bench.txt", Options{})
		if err != nil || len(res.Turns) != 10000 {
			b.Fatalf("%d turns, %v", len(res.Turns), err)
		}
	}
}
