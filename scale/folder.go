package scale

// A folder of transcripts for the import benchmarks (issue 26: "import of
// a 1 GiB folder of transcripts ≥ 30 MiB/s and ≤ 256 MiB, streaming"):
// the kinds of file an owner imports at once, in the layout their tools
// write them, each kind an equal share of the size.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MixedKinds are the kinds of the issue's mixed folder, `scale/gen
// -import-mib`'s default: the earlier rounds' figures are of these three.
var MixedKinds = []string{"claude-code", "claude-code-text", "telegram"}

// MoreImportKinds are the kinds ImportFolder writes besides MixedKinds.
var MoreImportKinds = []string{"discord", "discord-overlap", "slack", "whatsapp", "whatsapp-long", "codex", "gemini"}

// ImportKinds are every kind of file ImportFolder writes, as its kinds
// argument and `scale/gen -kinds` spell them.
var ImportKinds = append(append([]string(nil), MixedKinds...), MoreImportKinds...)

// importKind is how one kind is written: its generator, the largest file
// (a 200 MiB transcript, the issue's; a 256 MiB account export or channel)
// and the file's path in the folder.
type importKind struct {
	gen func(io.Writer, int64, uint64) (int64, int, error)
	// folder writes a kind that is a folder (a Slack export) at the path
	// instead of gen.
	folder  func(string, int64, uint64) (int64, int, error)
	seed    uint64
	maxFile int64
	path    func(i int) string
}

var importKinds = map[string]importKind{
	"claude-code": {ClaudeCodeTranscript, nil, ClaudeCodeSeed, 200 << 20,
		func(i int) string { return fmt.Sprintf("claude-code/session-%02d.jsonl", i) }},
	// Another seed than the mixed kind's: the seed makes the session id.
	"claude-code-text": {ClaudeCodeTextHeavy, nil, ClaudeCodeSeed + 1000, 200 << 20,
		func(i int) string { return fmt.Sprintf("claude-code-text/session-%02d.jsonl", i) }},
	"telegram": {TelegramExport, nil, TelegramSeed, 256 << 20,
		func(i int) string { return fmt.Sprintf("telegram-%02d/result.json", i) }},
	// One channel a file, each in its own folder: a folder of several
	// exports is merged whole, one export alone streams.
	"discord": {DiscordExport, nil, DiscordSeed, 256 << 20,
		func(i int) string { return fmt.Sprintf("discord-%02d/general.json", i) }},
	// DiscordOverlapFiles overlapping exports of one channel a folder.
	"discord-overlap": {nil, DiscordOverlap, DiscordOverlapSeed, 256 << 20,
		func(i int) string { return fmt.Sprintf("discord-overlap-%02d", i) }},
	"slack": {nil, SlackExport, SlackSeed, 256 << 20,
		func(i int) string { return fmt.Sprintf("slack-%02d", i) }},
	// Chats of about 4 MiB, the 40,000 messages a phone exports at most.
	"whatsapp": {WhatsAppExport, nil, WhatsAppSeed, 4 << 20,
		func(i int) string { return fmt.Sprintf("whatsapp/WhatsApp Chat with Group %03d.txt", i) }},
	// One chat as long as the share (up to 256 MiB): longer than a phone
	// exports, the parser's worst case, as it holds a chat's text.
	"whatsapp-long": {WhatsAppExport, nil, WhatsAppSeed + 100000, 256 << 20,
		func(i int) string { return fmt.Sprintf("whatsapp-long/WhatsApp Chat with Long %02d.txt", i) }},
	"codex": {CodexRollout, nil, CodexSeed, 256 << 20,
		func(i int) string { return fmt.Sprintf("codex/rollout-2025-10-01T08-00-%02d-gen.jsonl", i) }},
	"gemini": {GeminiSession, nil, GeminiSeed, 256 << 20,
		func(i int) string { return fmt.Sprintf("gemini/chats/session-2025-10-01T08-%02d-gen.jsonl", i) }},
}

// Folder is what ImportFolder wrote.
type Folder struct {
	Files []string // paths of the files, in the order written
	Bytes int64
	Turns int // the turns an import of the folder stores
}

// ImportFolder writes about mib MiB of transcripts of the given kinds
// into dir (created if need be), each kind an equal share, in files of at
// most the kind's largest. The same arguments give the same bytes.
func ImportFolder(dir string, mib int64, kinds []string) (Folder, error) {
	var out Folder
	all := strings.Join(ImportKinds, ", ")
	if len(kinds) == 0 {
		return out, fmt.Errorf("no kinds of file (the kinds are %s)", all)
	}
	share := (mib << 20) / int64(len(kinds))
	for _, name := range kinds {
		k, ok := importKinds[name]
		if !ok {
			return out, fmt.Errorf("no kind of file %q (the kinds are %s)", name, all)
		}
		for i, left := 0, share; left > 0; i++ {
			path := filepath.Join(dir, k.path(i))
			var n int64
			var turns int
			var err error
			if k.folder != nil {
				n, turns, err = k.folder(path, min(left, k.maxFile), k.seed+uint64(i))
			} else {
				n, turns, err = writeGenerated(path, func(w io.Writer) (int64, int, error) {
					return k.gen(w, min(left, k.maxFile), k.seed+uint64(i))
				})
			}
			if err != nil {
				return out, err
			}
			left -= n
			out.Files = append(out.Files, path)
			out.Bytes += n
			out.Turns += turns
		}
	}
	return out, nil
}

func writeGenerated(path string, gen func(io.Writer) (int64, int, error)) (int64, int, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, 0, err
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, 0, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	n, turns, err := gen(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return n, turns, err
}
