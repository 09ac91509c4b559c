package distill

import "time"

// Roles of a turn.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// DefaultOwnerName is what the owner is called when Session.OwnerName is
// empty: "The owner" at the start of a sentence, "the owner" elsewhere.
const DefaultOwnerName = "the owner"

// Session is one conversation to distil: a chat between friends, a group
// chat, an owner talking to an assistant, or a coding session.
type Session struct {
	Provider string // "whatsapp", "chatgpt", "claude-code", …
	ID       string // the session id (a ChatGPT or Claude Code id is a UUID)
	// Title is the chat's or conversation's name as the export gives it
	// ("" when it has none).
	Title string
	// Project is a coding session's working directory ("" elsewhere): the
	// session's facts are about the project in its last path element.
	Project string
	Group   bool // a group chat
	// OwnerName is what to call a speakerless owner (a ChatGPT, Claude
	// Code or CLI user); "" means DefaultOwnerName.
	OwnerName string
	Turns     []Turn // in conversation order
}

// Turn is one turn of a session.
type Turn struct {
	Ref  string    // the turn's source-id, "<provider>/<thread>/<id>"
	Time time.Time // when it was said (UTC); relative dates resolve against it
	Role string    // RoleUser or RoleAssistant
	// Speaker is the display name of a named speaker, "" for a speakerless
	// turn (the owner at a CLI or in ChatGPT, or the assistant).
	Speaker   string
	SpeakerID string
	Owner     bool   // the owner said it
	Content   string // the raw text: markdown, code, CJK and emoji included
}

// Kind is what sort of fact a Fact is.
type Kind string

// The kinds of fact Distil makes.
const (
	KindFact        Kind = "fact"        // a durable fact about a person
	KindPreference  Kind = "preference"  // "I prefer…", "I hate…", "I'm vegetarian"
	KindInstruction Kind = "instruction" // "always…", "never…", "from now on…"
	KindPlan        Kind = "plan"        // something planned, usually dated
	KindEvent       Kind = "event"       // something that happened, usually dated
	KindDecision    Kind = "decision"    // "let's go with…", "we decided…"
	KindProject     Kind = "project"     // a convention, command or path of a project
	KindOutcome     Kind = "outcome"     // how a coding session ended
	KindSummary     Kind = "summary"     // a session's thread block (Summary)
)

// Themes are the headings facts are filed under.
const (
	ThemeWork         = "Work"
	ThemeFamily       = "Family"
	ThemePlaces       = "Places"
	ThemeHealth       = "Health"
	ThemePossessions  = "Possessions"
	ThemeHabits       = "Habits"
	ThemePreferences  = "Preferences"
	ThemeInstructions = "Instructions"
	ThemePlans        = "Plans"
	ThemeDecisions    = "Decisions"
	ThemeConventions  = "Conventions"
	ThemeCommands     = "Commands"
	ThemeOutcomes     = "Outcomes"
	ThemeNotes        = "Notes"    // a person's fact that fits no other theme
	ThemeSessions     = "Sessions" // Summary blocks
)

// Fact is one thing worth remembering, ready to be a block.
type Fact struct {
	// Subject is who or what the fact is about: a person's display name,
	// the owner's name, or a coding session's project.
	Subject string
	Kind    Kind
	Theme   string // the heading it goes under (Theme… constants)
	// Key is the slot of a value that changes ("work", "home",
	// "test-command", …), "" when the fact is not a single-valued slot. It
	// is a function of Subject and Text (SlotOf), so it can be recovered
	// from a block on disk.
	Key string
	// Text is one standalone third-person sentence, or the speaker's words
	// in quotes ("Melanie Park said: \"…\"").
	Text string
	// Cites are the refs of the turns the fact rests on, at least one, in
	// conversation order.
	Cites []string
	// Path is the topic file the fact belongs in (TopicFor), which Merge
	// compares; Theme is its heading there.
	Path string
	// Date is the fact's resolved date, YYYY-MM-DD, YYYY-MM or YYYY, or "".
	Date string
	// Core marks a standing preference or instruction of the owner: a
	// candidate for topics/core.md, which only the owner accepts.
	Core bool
}
