package transcript

import (
	"fmt"
	"time"
)

// Turn is one conversational turn, in the vocabulary of SPEC §7: what a person
// said or what the assistant answered. Parsers emit only turns; tool calls,
// tool results, thinking and other mechanics are counted in Result.Skipped.
type Turn struct {
	Provider string
	Session  string
	ID       string
	// Parent is "" for a root. It names another turn of the same provider and
	// session: parsers re-parent past skipped records so the chain stays
	// connected.
	Parent         string
	Role           string // RoleUser or RoleAssistant
	Content        string // byte-exact text, never normalised
	SpeakerID      string
	SpeakerDisplay string
	Time           time.Time // UTC
	// Tier is TierOwner for a local CLI user or the account holder. A group
	// chat's parser leaves it "": who is the owner, who is paired and who is
	// neither is the importer's call (import --owner/--paired, SPEC §5).
	Tier string
	// Synthetic marks runtime-generated turns, such as the prompts and answers
	// of a Claude Code sub-agent (sidechain): mechanics, not the person.
	Synthetic bool
	// Group marks a turn of a group chat (Telegram group, Slack channel,
	// WhatsApp group, Discord channel): an unpaired sender's turns there are
	// archived pending the owner's review instead of being dropped.
	Group bool
	// ReplyTo is the ID of the message of the same session this turn
	// answers, when the chat records one (a Telegram reply, a Discord
	// reference). Parent chains a session in time order; ReplyTo is what the
	// sender pointed at, for the reviewer and the writer.
	ReplyTo string
	// Project is the working directory of a coding session (the cwd of a
	// Claude Code, Codex or Gemini CLI session), "" elsewhere: the writer
	// files a coding session's memory under the project it names.
	Project string
	// Title is the name of the chat or conversation as the export gives it
	// (a ChatGPT conversation's title, a Telegram chat's name, a Slack
	// channel), "" when it has none: files are named by what they hold.
	Title string
}

// Roles and tiers the parsers emit; they are the SPEC §7 / §5 spellings.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	TierOwner     = "owner"
)

// Result is what a parser returns: the turns in a deterministic order, parents
// before children, and what was dropped, by reason.
type Result struct {
	Turns []Turn
	// Skipped counts what did not become a turn or a link, keyed by a short
	// stable snake_case reason (each parser documents its set). Nil when
	// nothing was skipped.
	Skipped map[string]int
}

// Skip counts one dropped item under reason.
func (r *Result) Skip(reason string) {
	if r.Skipped == nil {
		r.Skipped = map[string]int{}
	}
	r.Skipped[reason]++
}

// Error is a malformed input: the file is refused as a whole, so the importer
// stores nothing of it. Line is set for line-oriented formats, Record for
// formats whose unit is a record (a ChatGPT conversation).
type Error struct {
	File    string // the display name the caller passed
	Line    int    // 1-based; 0 when not line-oriented
	Record  string // e.g. `3 (id "abc")`; "" when Line is set
	Message string
}

// Error formats as "FILE:LINE: message", "FILE: record X: message" or
// "FILE: message", the shapes editors and grep users expect.
func (e *Error) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Message)
	case e.Record != "":
		return fmt.Sprintf("%s: record %s: %s", e.File, e.Record, e.Message)
	default:
		return fmt.Sprintf("%s: %s", e.File, e.Message)
	}
}

// File is one file of a multi-file export (a Slack export folder or zip, a
// folder of DiscordChatExporter files), as the caller read it: the parsers
// never touch the filesystem, so whoever walks the folder or opens the zip
// hands them names and bytes.
type File struct {
	Name string // the path inside the export, with "/" separators ("general/2024-01-02.json")
	Data []byte
}
