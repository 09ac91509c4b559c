package sessions

import (
	"fmt"
	"strings"
	"testing"
)

// benchStore holds sessions × perSession nodes in linear chains; every
// session but the last tenth is fully written to "ws".
func benchStore(b *testing.B, sessions, perSession int) *Store {
	b.Helper()
	s := mustOpen(b)
	var file strings.Builder
	var marked []Key
	for i := range sessions {
		parent := ""
		for j := range perSession {
			id := fmt.Sprintf("s%d-n%d", i, j)
			role := []string{"user", "assistant", "tool"}[j%3]
			file.WriteString(turn{Session: fmt.Sprintf("s%d", i), ID: id, Parent: parent, Role: role,
				Content: "some words of conversation"}.line())
			file.WriteByte('\n')
			parent = id
			if i < sessions*9/10 {
				marked = append(marked, Key{DefaultProvider, fmt.Sprintf("s%d", i), id})
			}
		}
	}
	mustImport(b, s, file.String())
	if err := s.MarkWritten(marked, "ws"); err != nil {
		b.Fatal(err)
	}
	return s
}

func BenchmarkPendingSessions(b *testing.B) {
	s := benchStore(b, 500, 100) // 50k nodes
	b.ResetTimer()
	for b.Loop() {
		ps, err := s.PendingSessions("ws")
		if err != nil || len(ps) != 50 {
			b.Fatalf("PendingSessions = %d sessions, %v", len(ps), err)
		}
	}
}

func BenchmarkPendingTurns(b *testing.B) {
	s := benchStore(b, 10, 5000) // one long unwritten session of 5000 nodes
	b.ResetTimer()
	for b.Loop() {
		turns, err := s.PendingTurns(Key{DefaultProvider, "s9", "s9-n4999"}, "ws")
		if err != nil || len(turns) == 0 {
			b.Fatalf("PendingTurns = %d, %v", len(turns), err)
		}
	}
}

func BenchmarkImport(b *testing.B) {
	var file strings.Builder
	parent := ""
	for j := range 10000 {
		id := fmt.Sprintf("n%d", j)
		file.WriteString(turn{ID: id, Parent: parent, Role: "user", Content: "some words of conversation"}.line())
		file.WriteByte('\n')
		parent = id
	}
	data := file.String()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		s := mustOpen(b)
		b.StartTimer()
		if res, err := s.Import(strings.NewReader(data)); err != nil || res.Imported != 10000 {
			b.Fatalf("Import = %+v, %v", res, err)
		}
	}
}
