package importer

import (
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"scriptorium/transcript"
	"scriptorium/transcript/chatgpt"
	"scriptorium/transcript/claudecode"
	"scriptorium/transcript/codex"
	"scriptorium/transcript/discord"
	"scriptorium/transcript/formats"
	"scriptorium/transcript/gemini"
	"scriptorium/transcript/slack"
	"scriptorium/transcript/telegram"
	"scriptorium/transcript/whatsapp"
)

// parseOptions is what a parser may need besides the bytes.
type parseOptions struct {
	// Name is the file's display name, for messages.
	Name string
	// Title is the chat's name when the file's name (or its zip's) says
	// it: "WhatsApp Chat with Ana.txt".
	Title string
	// Location is the zone of exports that write wall-clock times
	// (WhatsApp, old Telegram exports): the importing machine's.
	Location *time.Location
}

// format is how the importer reads one input format.
type format struct {
	name transcript.Format
	// walked reports whether a directory walk for this format (--format
	// named it) takes the file called name (its base name).
	walked func(name string) bool
	// parse reads one file into turns; nil for our own JSONL, which the
	// store reads line by line itself, and for Slack, which is a folder.
	parse func(r io.Reader, o parseOptions) (transcript.Result, error)
	// stream reads one file a chunk of turns at a time, handing each to
	// emit, so that a file of any size is never held in memory as turns
	// (a Claude Code transcript, a ChatGPT export, a Telegram account
	// export, one Discord channel's export; a WhatsApp chat, a Codex rollout
	// and a Gemini session, whose turns, or a WhatsApp chat's text, are held
	// until the file's end decides every turn's fields); nil for the
	// formats parsed whole.
	stream func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error)
	// parseFiles reads the files of a multi-file export at once: a Slack
	// export, a folder of overlapping Discord exports. nil for single-file
	// formats.
	parseFiles func(files []transcript.File, name string) (transcript.Result, error)
	// streamFiles reads a multi-file export as parseFiles does, opening
	// its files (open(i) opens names[i]) and handing the turns to emit a
	// chunk at a time: a Slack export, a folder of Discord exports. nil
	// for the others.
	streamFiles func(names []string, open func(i int) (io.ReadCloser, error), name string,
		emit func([]transcript.Turn) error) (transcript.Result, error)
	// reads is how many times streamFiles reads each file (0: once), so
	// that the progress counts each byte once: Discord's two passes.
	reads int
	// whole says a walk with this format hands the whole folder (or zip)
	// to parseFiles, rather than the walked files of each directory.
	whole bool
	// lineOf finds the line of the file at path that holds the turn id,
	// for a turn the store refused; nil when the format has no lines that
	// name a turn.
	lineOf func(path, id string) int
	// chat says the format's exports change between two imports (edits,
	// renames, deletions, messages rewritten while they stream): a stored
	// node keeps what was stored and the difference is counted
	// (sessions.ImportBatch.AddChatNodes). Our own JSONL and the
	// append-only Claude Code and ChatGPT transcripts keep the strict rule.
	chat bool
}

// streamChunkBytes is the turn text a streamed file hands the store at a
// time (tests make it small to store a file in many chunks).
var streamChunkBytes = claudecode.DefaultChunkBytes

// formats are the formats an import reads, in the order --format lists
// them (transcript/formats.All). A new format is one more row.
var formatRows = []format{
	{name: transcript.FormatJSONL, walked: hasSuffix(".jsonl")},
	{name: transcript.FormatClaudeCode, walked: hasSuffix(".jsonl"), lineOf: lineOfUUID,
		parse: func(r io.Reader, o parseOptions) (transcript.Result, error) { return claudecode.Parse(r, o.Name) },
		stream: func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
			res, _, err := claudecode.Stream(r, o.Name, claudecode.StreamOptions{ChunkBytes: streamChunkBytes}, emit)
			return res, err
		}},
	{name: transcript.FormatChatGPT, walked: func(name string) bool { return name == "conversations.json" },
		parse: func(r io.Reader, o parseOptions) (transcript.Result, error) { return chatgpt.Parse(r, o.Name) },
		stream: func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return chatgpt.Stream(r, o.Name, streamChunkBytes, emit)
		}},
	{name: transcript.FormatCodex, chat: true, lineOf: lineOfNumber,
		walked: func(name string) bool {
			return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
		},
		parse: func(r io.Reader, o parseOptions) (transcript.Result, error) { return codex.Parse(r, o.Name) },
		stream: func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return codex.Stream(r, o.Name, streamChunkBytes, emit)
		}},
	{name: transcript.FormatGemini, chat: true,
		walked: func(name string) bool { return strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl") },
		parse:  func(r io.Reader, o parseOptions) (transcript.Result, error) { return gemini.Parse(r, o.Name) },
		stream: func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return gemini.Stream(r, o.Name, streamChunkBytes, emit)
		}},
	{name: transcript.FormatTelegram, chat: true, walked: hasSuffix(".json"),
		parse: func(r io.Reader, o parseOptions) (transcript.Result, error) {
			return telegram.Parse(r, o.Name, telegram.Options{Location: o.Location})
		},
		stream: func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return telegram.Stream(r, o.Name, telegram.Options{Location: o.Location}, streamChunkBytes, emit)
		}},
	{name: transcript.FormatWhatsApp, chat: true, walked: hasSuffix(".txt"),
		parse: func(r io.Reader, o parseOptions) (transcript.Result, error) {
			return whatsapp.Parse(r, o.Name, whatsapp.Options{Location: o.Location, Title: o.Title})
		},
		stream: func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return whatsapp.Stream(r, o.Name, whatsapp.Options{Location: o.Location, Title: o.Title}, streamChunkBytes, emit)
		}},
	{name: transcript.FormatSlack, chat: true, whole: true, walked: func(string) bool { return true },
		parseFiles: slack.ParseFiles,
		streamFiles: func(names []string, open func(int) (io.ReadCloser, error), name string, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return slack.Stream(names, open, name, streamChunkBytes, emit)
		}},
	{name: transcript.FormatDiscord, chat: true, walked: hasSuffix(".json"),
		parse: func(r io.Reader, o parseOptions) (transcript.Result, error) { return discord.Parse(r, o.Name) },
		// One export streams; the exports of a folder stream merged, read twice.
		stream: func(r io.Reader, o parseOptions, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return discord.Stream(r, o.Name, streamChunkBytes, emit)
		},
		parseFiles: discord.ParseFiles, reads: 2,
		streamFiles: func(names []string, open func(int) (io.ReadCloser, error), name string, emit func([]transcript.Turn) error) (transcript.Result, error) {
			return discord.StreamFiles(names, open, name,
				discord.FilesOptions{ChunkBytes: streamChunkBytes, MaxWholeBytes: maxExportBytes}, emit)
		}},
}

func hasSuffix(s string) func(string) bool {
	return func(name string) bool { return strings.HasSuffix(name, s) }
}

// formatOf returns the row of name.
func formatOf(name transcript.Format) (format, bool) {
	for _, f := range formatRows {
		if f.name == name {
			return f, true
		}
	}
	return format{}, false
}

// FormatNames lists the formats an import reads, as --format spells them,
// in the order transcript/formats lists them.
func FormatNames() []string {
	out := make([]string, 0, len(formats.All))
	for _, f := range formats.All {
		if _, ok := formatOf(f); ok {
			out = append(out, string(f))
		}
	}
	return out
}

// KnownFormat reports whether an import reads format.
func KnownFormat(name transcript.Format) bool {
	_, ok := formatOf(name)
	return ok
}

// lineOfNumber is the line of a format whose turn ids are line numbers
// (a Codex rollout).
func lineOfNumber(_, id string) int {
	n, err := strconv.Atoi(id)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// chatTitle is the chat's name a WhatsApp export's file name gives
// ("WhatsApp Chat with Ana.txt", "WhatsApp Chat - Family.zip", and the
// German, Spanish, French and Portuguese forms), or "".
func chatTitle(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".txt"), ".zip")
	for _, prefix := range []string{"WhatsApp Chat with ", "WhatsApp Chat - ", "WhatsApp-Chat mit ",
		"Chat de WhatsApp con ", "Discussion WhatsApp avec ", "Conversa do WhatsApp com "} {
		if rest, ok := strings.CutPrefix(base, prefix); ok && strings.TrimSpace(rest) != "" {
			return strings.TrimSpace(rest)
		}
	}
	return ""
}
