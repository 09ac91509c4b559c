package importer

import (
	"os"
	"path/filepath"
	"testing"

	"scriptorium/scale"
)

// BenchmarkImport_WhatsApp10k: a WhatsApp group chat of 10,000 messages
// (scale.WhatsAppGroup) into a fresh sessions.db, detected by content,
// with the owner named.
func BenchmarkImport_WhatsApp10k(b *testing.B) {
	chat := filepath.Join(b.TempDir(), "chat.txt")
	data := scale.WhatsAppGroup(10000, scale.ChatSeed)
	if err := os.WriteFile(chat, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		in, err := List(chat, "")
		if err != nil {
			b.Fatal(err)
		}
		res, err := Import(b.Context(), b.TempDir(), in, Options{Named: Named{Owner: scale.ChatMembers[:1]}})
		if err != nil || res.Imported < 9500 {
			b.Fatalf("%+v, %v", res.Imported, err)
		}
	}
}
