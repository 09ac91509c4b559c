package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/scale"
)

// BenchmarkChatImportWrite10k: a WhatsApp group chat of 10,000 messages
// (scale.WhatsAppGroup), imported with its owner and one paired member
// named, then written: the first write archives every unpaired message
// pending (and the first trusted batch), write --force distils the rest.
// Each phase is reported in seconds; BENCHMARKS.md records the figures.
//
//	go test -run '^$' -bench ChatImportWrite10k -benchtime 1x .
func BenchmarkChatImportWrite10k(b *testing.B) {
	chat := filepath.Join(b.TempDir(), "WhatsApp Chat with Release train.txt")
	if err := os.WriteFile(chat, scale.WhatsAppGroup(10000, scale.ChatSeed), 0o644); err != nil {
		b.Fatal(err)
	}
	cli := func(args ...string) string {
		var out, errb bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errb); code != 0 {
			b.Fatalf("%v: exit %d\n%s%s", args, code, out.String(), errb.String())
		}
		return out.String()
	}
	var imp, first, force, forceCPU time.Duration
	for b.Loop() {
		state := filepath.Join(b.TempDir(), "state")
		cli("init", state)
		start := time.Now()
		cli("import", chat, "--owner", scale.ChatMembers[0], "--paired", scale.ChatMembers[1], "--state", state)
		imp += time.Since(start)
		start = time.Now()
		cli("write", "--state", state)
		first += time.Since(start)
		start, cpu := time.Now(), processCPU()
		cli("write", "--force", "--state", state)
		force += time.Since(start)
		forceCPU += processCPU() - cpu
	}
	n := float64(b.N)
	b.ReportMetric(imp.Seconds()/n, "import_s")
	b.ReportMetric(first.Seconds()/n, "write_s")
	b.ReportMetric(force.Seconds()/n, "force_s")
	// The CPU the forced write used: what the machine's other load does
	// not change.
	b.ReportMetric(forceCPU.Seconds()/n, "force_cpu_s")
}
