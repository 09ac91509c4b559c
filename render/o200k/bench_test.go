package o200k

import (
	"os"
	"testing"
)

// BenchmarkCount counts README.md with this table and with tiktoken-go's
// codec (its map built before the timer): the per-call cost a long-lived
// process pays, where the codec's one-time map build no longer matters.
func BenchmarkCount(b *testing.B) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		b.Fatal(err)
	}
	text := string(data)
	b.Run("table", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			Count(text)
		}
	})
	c := ref()
	b.Run("codec", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			_, _ = c.Count(text)
		}
	})
}
