package importer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"scriptorium/scale"
)

// The import benchmark of issue 26: a folder of Claude Code transcripts
// imported by a fresh process, against `cat` of the same files to
// /dev/null in the same run. The folder is generated (scale) into a
// temporary directory, never checked in. Its size is
// SCRIPTORIUM_IMPORT_BENCH_MIB (default 64; 1024 is the 1 GiB target row),
// split into files of at most 200 MiB, the largest transcript of the
// issue.
const benchMiBEnv = "SCRIPTORIUM_IMPORT_BENCH_MIB"

// childEnv makes the test binary, run again, the importing child: it
// imports the folder named by the variable into the state dir named by
// childStateEnv and exits.
const (
	childEnv      = "SCRIPTORIUM_IMPORT_BENCH_CHILD"
	childStateEnv = "SCRIPTORIUM_IMPORT_BENCH_STATE"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		os.Exit(benchChild(dir, os.Getenv(childStateEnv)))
	}
	if dir := os.Getenv(childKillEnv); dir != "" {
		os.Exit(killChild(dir, os.Getenv(childStateEnv)))
	}
	os.Exit(m.Run())
}

// benchChild imports dir as `scriptorium import DIR` does.
func benchChild(dir, state string) int {
	in, err := List(dir, "")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	res, err := Import(context.Background(), state, in, Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("%d\n", res.Imported)
	return 0
}

// benchFolderOf writes a folder of mib MiB of transcripts of the kinds
// (of scale.ImportKinds) and returns it, with the number of turns it holds.
func benchFolderOf(b *testing.B, mib int64, kinds ...string) (scale.Folder, string) {
	dir := b.TempDir()
	f, err := scale.ImportFolder(dir, mib, kinds)
	if err != nil {
		b.Fatal(err)
	}
	return f, dir
}

// BenchmarkImport_ClaudeCodeFolder reports, per run, the import's MiB/s,
// its peak RSS and its time as a ratio to `cat` of the same files: for
// transcripts as coding sessions write them (mixed: mostly tool results,
// which the import drops) and for the worst case of memory (text: nearly
// every byte kept, scale.ClaudeCodeTextHeavy); for Telegram account
// exports (scale.TelegramExport, in files of at most 256 MiB); for a
// folder of all three, an equal share each (all); and for each of
// scale.MoreImportKinds (a Discord channel, a Slack export, WhatsApp chats,
// one long WhatsApp chat, Codex rollouts, Gemini sessions).
func BenchmarkImport_ClaudeCodeFolder(b *testing.B) {
	mib := int64(64)
	if v := os.Getenv(benchMiBEnv); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q: want a number of MiB", benchMiBEnv, v)
		}
		mib = n
	}
	b.Run("mixed", func(b *testing.B) { benchImportChild(b, mib, "claude-code") })
	b.Run("text", func(b *testing.B) { benchImportChild(b, mib, "claude-code-text") })
	b.Run("telegram", func(b *testing.B) { benchImportChild(b, mib, "telegram") })
	b.Run("all", func(b *testing.B) { benchImportChild(b, mib, scale.MixedKinds...) })
	for _, kind := range scale.MoreImportKinds {
		b.Run(kind, func(b *testing.B) { benchImportChild(b, mib, kind) })
	}
}

func benchImportChild(b *testing.B, mib int64, kinds ...string) {
	folder, dir := benchFolderOf(b, mib, kinds...)
	files, bytes, turns := folder.Files, folder.Bytes, folder.Turns
	b.SetBytes(bytes)
	var importTime, catTime, importCPU time.Duration
	var rss int64
	for b.Loop() {
		start := time.Now()
		cat := exec.Command("cat", files...)
		if err := cat.Run(); err != nil { // stdout is /dev/null when nil
			b.Fatal(err)
		}
		catTime += time.Since(start)

		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), childEnv+"="+dir, childStateEnv+"="+b.TempDir())
		child.Stderr = os.Stderr
		start = time.Now()
		out, err := child.Output()
		importTime += time.Since(start)
		if err != nil {
			b.Fatalf("import child: %v", err)
		}
		if got, _ := strconv.Atoi(string(trimNL(out))); got != turns {
			b.Fatalf("imported %d turns, want %d", got, turns)
		}
		importCPU += child.ProcessState.UserTime() + child.ProcessState.SystemTime()
		if ru, ok := child.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = max(rss, ru.Maxrss<<10)
		}
	}
	secs := importTime.Seconds() / float64(b.N)
	b.ReportMetric(float64(bytes)/(1<<20)/secs, "MiB/s")
	// On a shared machine the wall-clock rate follows the load; the rate
	// per CPU second of the child does not.
	b.ReportMetric(float64(bytes)/(1<<20)/(importCPU.Seconds()/float64(b.N)), "MiB/cpu-s")
	b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(importTime.Seconds()/catTime.Seconds(), "x-cat")
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// BenchmarkImport_ClaudeCodeInProcess imports the benchmark folder in the
// test process, for a CPU or memory profile (-cpuprofile, -memprofile), of
// each kind of file.
func BenchmarkImport_ClaudeCodeInProcess(b *testing.B) {
	mib := int64(64)
	if v := os.Getenv(benchMiBEnv); v != "" {
		mib, _ = strconv.ParseInt(v, 10, 64)
	}
	b.Run("mixed", func(b *testing.B) { benchImportInProcess(b, mib, "claude-code") })
	b.Run("text", func(b *testing.B) { benchImportInProcess(b, mib, "claude-code-text") })
	b.Run("telegram", func(b *testing.B) { benchImportInProcess(b, mib, "telegram") })
	for _, kind := range scale.MoreImportKinds {
		b.Run(kind, func(b *testing.B) { benchImportInProcess(b, mib, kind) })
	}
}

func benchImportInProcess(b *testing.B, mib int64, kinds ...string) {
	folder, dir := benchFolderOf(b, mib, kinds...)
	turns := folder.Turns
	b.SetBytes(mib << 20)
	for b.Loop() {
		in, err := List(dir, "")
		if err != nil {
			b.Fatal(err)
		}
		res, err := Import(b.Context(), b.TempDir(), in, Options{})
		if err != nil || res.Imported != turns {
			b.Fatalf("%d of %d turns, %v", res.Imported, turns, err)
		}
	}
}
