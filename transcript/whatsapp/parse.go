package whatsapp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
)

// Provider is the provider of every turn this package emits.
const Provider = "whatsapp"

// Skip reasons, the keys of Result.Skipped.
const (
	ReasonEncryptionNotice = "encryption_notice" // "Messages and calls are end-to-end encrypted..."
	ReasonJoin             = "join"              // added, joined using the invite link
	ReasonLeave            = "leave"             // left, removed
	ReasonNumberChange     = "number_change"     // changed their phone number
	ReasonChatChange       = "chat_change"       // created group, subject, icon, description, settings, disappearing messages
	ReasonPin              = "pin"               // pinned a message
	ReasonCall             = "call"              // missed and answered voice and video calls
	ReasonSystem           = "system"            // any other system line (security code changed, blocked, ...)
	ReasonDeleted          = "deleted"           // "This message was deleted", "You deleted this message"
	ReasonWaiting          = "waiting"           // "Waiting for this message"
	ReasonEmpty            = "empty"             // a sender with no text at all
	ReasonNULCharacter     = "nul_character"     // text with U+0000, which the store refuses
)

// Options tunes Parse. The zero value is ready to use: times in UTC, the
// date order guessed, session, title and group read from the export.
type Options struct {
	// Location is the time zone of the export's times, which are the
	// exporting phone's wall-clock times with no zone. Nil means UTC.
	Location *time.Location
	// DateOrder forces the order of day, month and year; DateOrderAuto
	// guesses it from the whole file.
	DateOrder DateOrder
	// Session names the chat's session instead of the id derived from the
	// export's first lines (see the package doc). It must be a safe id: no
	// "/", "\", whitespace, control characters, "--" or ">", at most 200 bytes.
	Session string
	// Title is the chat's name; "" takes it from the export's own lines
	// when they say it (a group's creation or subject change).
	Title string
	// Group says whether the chat is a group; nil infers it (see the
	// package doc).
	Group *bool
}

// maxLineBytes bounds one line, so that a file that is not text cannot
// exhaust memory.
const maxLineBytes = 16 << 20

// entry is what is kept of one message line and its continuation lines,
// once read, besides its stamp.
type entry struct {
	sender  string // "" for a system line
	content string // the turn's content; "" when the entry is not a turn
}

type parser struct {
	name string
	opts Options
	res  transcript.Result

	shape   shape
	stamps  []stamp  // every entry's, in file order
	entries []entry  // the same entries' text
	seed    []string // the date and time of the first two entries, for the session id

	// The entry being read.
	open        bool
	cur         stamp
	buf         []byte
	pendingTerm []byte

	// What the export says about the chat.
	evidence       bool            // a system line only a group has
	title          string          // the last group name a system line gave
	senders        map[string]bool // people who sent a message; also interns their names
	systemSenders  []string        // iOS: names system lines came from, in order
	systemSenderOK map[string]bool
	names          map[string]string
}

// Parse reads a WhatsApp "Export chat" text file (_chat.txt from iOS, or
// "WhatsApp Chat with ….txt" from Android). name is used only in error
// messages. It is Stream with no emit: every turn is in the Result.
//
// Malformed input (a first line that is not a message line, text that is
// not UTF-8, a date that cannot exist) is a *transcript.Error with its line
// number; nothing of the file should then be imported.
func Parse(r io.Reader, name string, opts Options) (transcript.Result, error) {
	return Stream(r, name, opts, 0, nil)
}

// DefaultChunkBytes is what Stream hands over at a time when asked for 0
// (turn text and per-turn overhead), as the other streamed formats do.
const DefaultChunkBytes = chunks.DefaultBytes

// Stream reads an export as Parse does, but hands its turns to emit a
// chunk at a time, once the chunk holds about chunkBytes (0:
// DefaultChunkBytes) of turn text and per-turn overhead. The file is read
// once, line by line; but no turn can be emitted before its end, because
// what every turn carries is decided by the whole file: the date order
// (a day above 12 may come on the last line), whether the chat is a group
// (a third sender) and its title (the last subject change). So the chat's
// entries are kept, compactly (each message's text, its sender's name
// held once, its date numbers in a few bytes), and the turns, their ids,
// times and nodes are made a chunk at a time at the end: memory is the
// chat's text, not its turns (a WhatsApp export is one chat, at most
// 40,000 messages as the phones write it). Each turn's parent is the turn
// before it, in its chunk or an earlier one. The turns, their order, the
// skips and the errors are Parse's; an error may come after chunks were
// emitted (nothing of the file should then be imported), and an error of
// emit ends the stream with it. With a nil emit every turn is kept in the
// returned Result; otherwise the Result holds only the skips.
func Stream(r io.Reader, name string, opts Options, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	p := &parser{name: name, opts: opts, senders: map[string]bool{}, systemSenderOK: map[string]bool{}}
	if p.opts.Location == nil {
		p.opts.Location = time.UTC
	}
	if chunkBytes <= 0 {
		chunkBytes = DefaultChunkBytes
	}
	if err := p.checkOptions(); err != nil {
		return transcript.Result{}, err
	}
	br := bufio.NewReaderSize(r, 64<<10)
	lineNo := 0
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			lineNo++
			if perr := p.line(line, lineNo); perr != nil {
				return transcript.Result{}, perr
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return transcript.Result{}, p.errorf(lineNo+1, "%v", err)
		}
	}
	p.closeEntry()
	if len(p.entries) == 0 {
		return transcript.Result{}, &transcript.Error{File: name, Message: "empty file: no WhatsApp messages"}
	}
	if err := p.turns(chunkBytes, emit); err != nil {
		return transcript.Result{}, err
	}
	return p.res, nil
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return &transcript.Error{File: p.name, Line: line, Message: fmt.Sprintf(format, args...)}
}

func (p *parser) checkOptions() error {
	switch p.opts.DateOrder {
	case DateOrderAuto, DayMonthYear, MonthDayYear, YearMonthDay:
	default:
		return &transcript.Error{File: p.name, Message: fmt.Sprintf("date order %q is not dmy, mdy or ymd", p.opts.DateOrder)}
	}
	if s := p.opts.Session; s != "" {
		if problem := idProblem(s); problem != "" {
			return &transcript.Error{File: p.name, Message: fmt.Sprintf("session name %q %s", s, problem)}
		}
	}
	return nil
}

// readLine returns the next line with its terminator, at most maxLineBytes:
// a slice of br's buffer, valid until the next read (line copies what it
// keeps).
func readLine(br *bufio.Reader) ([]byte, error) {
	var long []byte
	for {
		part, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(long)+len(part) > maxLineBytes {
				return nil, fmt.Errorf("line is longer than %d bytes: not a chat export", maxLineBytes)
			}
			long = append(long, part...)
			continue
		}
		if len(long)+len(part) > maxLineBytes {
			return nil, fmt.Errorf("line is longer than %d bytes: not a chat export", maxLineBytes)
		}
		if long != nil {
			return append(long, part...), err
		}
		return part, err
	}
}

// line reads one physical line: a new message, or more of the current one.
func (p *parser) line(line []byte, lineNo int) error {
	if lineNo == 1 {
		if bytes.HasPrefix(line, []byte("\xff\xfe")) || bytes.HasPrefix(line, []byte("\xfe\xff")) {
			return p.errorf(1, "the file is UTF-16 text; WhatsApp exports are UTF-8 (was the file converted?)")
		}
		line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
	}
	if !utf8.Valid(line) {
		return p.errorf(lineNo, "invalid UTF-8; WhatsApp exports are UTF-8 text (was the file converted?)")
	}
	text, term := line, []byte(nil)
	if bytes.HasSuffix(text, []byte("\n")) {
		text, term = text[:len(text)-1], []byte("\n")
		if bytes.HasSuffix(text, []byte("\r")) {
			text, term = text[:len(text)-1], []byte("\r\n")
		}
	}
	h, rest, ok := parseHeader(text)
	if ok && (len(p.entries) == 0 && !p.open || h.shape == p.shape) {
		p.closeEntry()
		if !p.open && len(p.entries) == 0 {
			p.shape = h.shape
		}
		p.open, p.cur = true, newStamp(lineNo, h)
		p.buf = append(p.buf[:0], rest...)
		p.pendingTerm = term
		if len(p.seed) < 2 {
			// The date and time only: names change when a contact or an
			// iOS group is renamed, and the session must not.
			p.seed = append(p.seed, removeMarks(string(text[:len(text)-len(rest)])))
		}
		return nil
	}
	if !p.open {
		if len(bytes.TrimSpace(text)) == 0 {
			return nil // blank lines before the first message
		}
		return p.errorf(lineNo, `not a WhatsApp chat export: a line should start with a date and time, like "[31.12.23, 21:15:07] Name: text" or "12/31/23, 9:15 PM - Name: text"`)
	}
	p.buf = append(append(p.buf, p.pendingTerm...), text...)
	p.pendingTerm = term
	return nil
}

// closeEntry classifies the entry being read.
func (p *parser) closeEntry() {
	if !p.open {
		return
	}
	p.open = false
	text := string(p.buf)
	e := entry{}
	defer func() {
		p.stamps = append(p.stamps, p.cur)
		p.entries = append(p.entries, e)
	}()

	first, _ := splitFirstLine(text)
	sender, body := "", text
	// iOS marks a system or media body with U+200E right after ": ", which
	// finds the end of a name that has ": " in it (a group "Trip: 2024").
	i := strings.Index(first, ": "+lrm)
	if i < 0 {
		i = strings.Index(first, ": ")
	}
	if i >= 0 {
		name := text[:i]
		if p.shape.bracket || !containsAny(name, systemInName) {
			sender, body = cleanName(name), text[i+2:]
		}
	}
	if sender == "" {
		plain := strings.TrimSpace(bare(text))
		if hasAnyPrefix(plain, waiting) {
			p.res.Skip(ReasonWaiting)
			return
		}
		p.system(systemReason(plain), plain)
		return
	}
	marked := strings.HasPrefix(body, lrm)
	content, reason := classify(strings.TrimLeft(body, lrm), marked)
	switch reason {
	case "":
	case ReasonDeleted, ReasonWaiting, ReasonEmpty:
		p.senders[sender] = true
		p.res.Skip(reason)
		return
	default: // a system line iOS attributed to the chat's name
		if !p.systemSenderOK[sender] {
			p.systemSenderOK[sender] = true
			p.systemSenders = append(p.systemSenders, sender)
		}
		p.system(reason, strings.TrimSpace(bare(body)))
		return
	}
	p.senders[sender] = true
	sender = p.intern(sender)
	if strings.IndexByte(content, 0) >= 0 {
		p.res.Skip(ReasonNULCharacter)
		return
	}
	e.sender, e.content = sender, content
}

// intern returns the copy of name already held, so that a chat of a million
// messages holds each sender's name once.
func (p *parser) intern(name string) string {
	if v, ok := p.names[name]; ok {
		return v
	}
	if p.names == nil {
		p.names = map[string]string{}
	}
	p.names[name] = name
	return name
}

// system counts a system line and notes what it says about the chat.
func (p *parser) system(reason, text string) {
	p.res.Skip(reason)
	if groupEvidence(reason, text) {
		p.evidence = true
	}
	if t, ok := titleFrom(text); ok {
		p.title = t
	}
}

// cleanName removes what WhatsApp adds around a sender's name, so that the
// name compares equal to what the owner types for import --owner: the
// direction and embedding marks U+200E, U+200F and U+202A–U+202E (a phone
// number is wrapped in U+202A…U+202C) and the isolates U+2066–U+2069,
// wherever they are; then a leading "~" (a sender who is not in the
// exporter's contacts); then spaces, no-break spaces and narrow no-break
// spaces (U+0020, U+00A0, U+202F) at either end ("~\u202fAna" is "Ana").
func cleanName(s string) string {
	return CleanName(s)
}

// CleanName is a sender's name as Parse gives it in SpeakerDisplay and as
// the importer compares a name the owner typed (import --owner "~ Ana"):
// WhatsApp's marks removed, as cleanName says.
func CleanName(s string) string {
	s = bare(s)
	const spaces = " \u00a0\u202f"
	s = strings.Trim(s, spaces)
	if rest, ok := strings.CutPrefix(s, "~"); ok {
		s = strings.Trim(rest, spaces)
	}
	return s
}

// idProblem says why a caller's session name cannot be an id, or "".
func idProblem(id string) string {
	switch {
	case len(id) > 200:
		return "is longer than 200 bytes"
	case strings.Contains(id, "--"):
		return `contains "--"`
	case strings.ContainsAny(id, `/\>`):
		return `contains "/", "\" or ">"`
	case strings.IndexFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return "contains whitespace or a control character"
	case !utf8.ValidString(id):
		return "is not UTF-8"
	}
	return ""
}
