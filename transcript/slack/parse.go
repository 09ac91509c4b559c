package slack

import (
	"bytes"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
)

// Provider is the provider of every turn this package emits.
const Provider = "slack"

// Skip reasons, the keys of Result.Skipped. Message reasons count messages
// of the day files; file reasons count files a kept message shared (a
// message whose files are all dropped and that has no text is counted by
// its files only); export reasons count entries of the root files and
// files of the export that hold no messages.
const (
	// Message reasons.
	ReasonJoin           = "join"            // channel_join, group_join
	ReasonLeave          = "leave"           // channel_leave, group_leave
	ReasonTopic          = "topic"           // topic and purpose changes
	ReasonChannelChange  = "channel_change"  // renames, archiving, conversion to private or public, posting permissions
	ReasonPin            = "pin"             // pinned_item, unpinned_item
	ReasonDeleted        = "deleted"         // tombstone (a deleted thread parent), message_deleted
	ReasonHuddle         = "huddle"          // huddle_thread and older call messages; huddle transcripts
	ReasonCanvas         = "canvas"          // canvas updates and shared canvases; canvases.json entries
	ReasonList           = "list"            // shared Slack lists; lists.json entries
	ReasonSystem         = "system"          // bots and apps added or removed, reminders, other notices
	ReasonUnknownSubtype = "unknown_subtype" // a subtype this package does not know
	ReasonNotAMessage    = "not_a_message"   // an element whose type is not "message"
	ReasonNoAuthor       = "no_author"       // no user, bot or commenter to attribute it to
	ReasonEmpty          = "empty"           // no text, file or attachment text
	ReasonNULCharacter   = "nul_character"   // text with U+0000, which the store refuses
	ReasonDuplicate      = "duplicate"       // a ts seen before in the same conversation
	// File reasons.
	ReasonDeletedFile = "deleted_file" // a file deleted since it was shared (mode tombstone)
	ReasonHiddenFile  = "hidden_file"  // a file hidden by the free plan's history limit
	// Export reasons.
	ReasonOtherFile = "other_file" // a file that is neither a root file nor a day file (downloads, stray files)
)

// ParseFiles reads a Slack export: every file of its folder or zip, as the
// caller read them (names are paths inside the export with "/"
// separators). name is the export's display name, used only in error
// messages. Malformed input (a file that is not JSON of the expected shape,
// a message without a valid ts, a folder no conversation list names) is an
// *transcript.Error naming the file and line; nothing of the export should
// then be imported. It is Stream keeping every turn.
func ParseFiles(files []transcript.File, name string) (transcript.Result, error) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	return Stream(names, func(i int) (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(files[i].Data)), nil
	}, name, 0, nil)
}

// DefaultChunkBytes is what Stream hands over at a time when asked for 0
// (turn text and per-turn overhead): the other streamed formats' chunk.
const DefaultChunkBytes = chunks.DefaultBytes

// Stream reads an export as ParseFiles does, opening its files one at a
// time (open(i) opens names[i]; the caller closes nothing): the root files
// first (users, the conversation lists), then each conversation's day
// files in date order, conversations in id order. It hands the turns to
// emit a chunk at a time, once the chunk holds about chunkBytes (0:
// DefaultChunkBytes) of turn text and per-turn overhead, so memory is
// bounded by the root files, a day file and a chunk, plus the ts seen in
// the conversation being read (a duplicate is a ts seen before) and its
// threads' last turns, not by the export. A turn's parent is in its chunk
// or an earlier one. The turns, their order, the skips and the errors are
// ParseFiles'; an error may come after chunks were emitted (nothing of the
// export should then be imported), and an error of emit ends the stream
// with it. With a nil emit every turn is kept in the returned Result;
// otherwise the Result holds only the skips.
func Stream(names []string, open func(i int) (io.ReadCloser, error), name string, chunkBytes int, emit func([]transcript.Turn) error) (transcript.Result, error) {
	p := &streamer{e: &export{name: name}, open: open, buf: chunks.Buffer{Emit: emit, Bytes: chunkBytes}}
	if err := p.run(names); err != nil {
		return transcript.Result{}, err
	}
	if err := p.buf.Flush(); err != nil {
		return transcript.Result{}, err
	}
	if emit == nil {
		p.res.Turns = p.buf.Turns
	}
	return p.res, nil
}

type streamer struct {
	e    *export
	open func(i int) (io.ReadCloser, error)
	res  transcript.Result

	buf chunks.Buffer // the turns not yet handed on (every turn, with no emit)
}

// file reads names[i] whole: a root file or one day's messages.
func (p *streamer) file(names []string, i int) (jsonFile, error) {
	jf := p.e.file(names[i])
	rc, err := p.open(i)
	if err != nil {
		return jf, fmt.Errorf("%s: %w", jf.display, err)
	}
	defer rc.Close()
	if jf.data, err = io.ReadAll(rc); err != nil {
		return jf, fmt.Errorf("%s: read: %w", jf.display, err)
	}
	return jf, nil
}

func (p *streamer) run(names []string) error {
	e := p.e
	root, ok := rootOf(names)
	if !ok {
		return &transcript.Error{File: e.name, Message: "no channels.json, groups.json, mpims.json, dms.json or users.json: " +
			"not a Slack export (import the export's folder or zip)"}
	}
	e.root = root
	rootFiles := map[string]jsonFile{}
	var days []int
	for i, n := range names {
		rel, inside := strings.CutPrefix(cleanName(n), root)
		if !inside {
			p.res.Skip(ReasonOtherFile)
			continue
		}
		dir, base := path.Split(rel)
		switch {
		case dir == "" && isRootFile(base):
			if _, dup := rootFiles[base]; dup {
				return e.file(n).errorf(0, "the export holds two %s files", base)
			}
			jf, err := p.file(names, i)
			if err != nil {
				return err
			}
			rootFiles[base] = jf
		case dir == "" && ignoredRootFiles[base]:
		case strings.Count(dir, "/") == 1 && dayFile.MatchString(base):
			days = append(days, i)
		default:
			p.res.Skip(ReasonOtherFile)
		}
	}
	if err := e.readRoot(rootFiles, &p.res); err != nil {
		return err
	}
	clear(rootFiles) // what the root files say is read; their bytes can go
	// Day files by conversation, each's in name (date) order: the day a
	// message was read from decides between two copies of it, and that
	// must not depend on the order the caller walked the folder in.
	slices.SortFunc(days, func(a, b int) int { return strings.Compare(cleanName(names[a]), cleanName(names[b])) })
	byConv := map[string][]int{}
	for _, i := range days {
		rel := strings.TrimPrefix(cleanName(names[i]), root)
		folder := rel[:strings.IndexByte(rel, '/')]
		c, ok := e.folder(folder)
		if !ok {
			return notListed(e.file(names[i]), folder)
		}
		byConv[c.ID] = append(byConv[c.ID], i)
	}
	r := renderer{users: e.users, channels: e.channels}
	for _, id := range e.sortedIDs() {
		if err := p.conversation(e.byID[id], names, byConv[id], r); err != nil {
			return err
		}
	}
	return nil
}

// conversation reads one conversation's day files in order and makes its
// turns: its channel session and one session per thread, each chained in
// the order read (day by day, each day in ts order). A ts read on an
// earlier day is a duplicate and the first copy is kept (it may be stored
// already); two copies in one day file keep the later edit.
func (p *streamer) conversation(c *conversation, names []string, days []int, r renderer) error {
	seen := map[stamp]struct{}{}
	last := map[string]string{} // by session: its previous kept turn, the next one's parent
	for _, i := range days {
		jf, err := p.file(names, i)
		if err != nil {
			return err
		}
		msgs, err := p.readDay(jf)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if _, dup := seen[m.stamp]; dup {
				p.res.Skip(ReasonDuplicate)
				continue
			}
			seen[m.stamp] = struct{}{}
			if err := p.turn(c, m, r, last); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDay reads one day file's messages, in ts order. Two copies of a ts
// keep the later edit, else the one read last.
func (p *streamer) readDay(jf jsonFile) ([]*message, error) {
	byTS := map[string]*message{}
	err := jf.eachElement("messages", func(line int, decode func(any) error) error {
		m := &message{}
		if err := decode(m); err != nil {
			return err
		}
		if m.Type != "" && m.Type != "message" {
			p.res.Skip(ReasonNotAMessage)
			return nil
		}
		st, err := parseTS(m.TS)
		if err != nil {
			return jf.errorf(line, "%v", err)
		}
		m.stamp = st
		if m.ThreadTS != "" {
			if _, err := parseTS(m.ThreadTS); err != nil {
				return jf.errorf(line, "thread_%v", err)
			}
		}
		if prev, dup := byTS[m.TS]; dup {
			p.res.Skip(ReasonDuplicate)
			if prev.edited().compare(m.edited()) > 0 {
				return nil
			}
		}
		byTS[m.TS] = m
		return nil
	})
	if err != nil {
		return nil, err
	}
	msgs := make([]*message, 0, len(byTS))
	for _, m := range byTS {
		msgs = append(msgs, m)
	}
	slices.SortFunc(msgs, func(a, b *message) int {
		if c := a.stamp.compare(b.stamp); c != 0 {
			return c
		}
		return strings.Compare(a.TS, b.TS)
	})
	return msgs, nil
}

// edited is when the message was last edited, the zero stamp if never (or
// unreadably): of two copies the later edit wins, and equal edits go to the
// copy read last.
func (m *message) edited() stamp {
	if m.Edited == nil {
		return stamp{}
	}
	st, _ := parseTS(m.Edited.TS)
	return st
}

// turn makes m the next turn of its session (the conversation's, or its
// thread's), or counts why it is not one.
func (p *streamer) turn(c *conversation, m *message, r renderer, last map[string]string) error {
	if reason := m.skipReason(); reason != "" {
		p.res.Skip(reason)
		return nil
	}
	sid := c.ID
	if m.ThreadTS != "" && m.ThreadTS != m.TS {
		sid = c.ID + "-" + m.ThreadTS
	}
	speakerID, display := m.speaker(p.e.users)
	if speakerID == "" {
		p.res.Skip(ReasonNoAuthor)
		return nil
	}
	text := m.content(r, p.res.Skip)
	switch {
	case text == "":
		if !m.hasFiles() {
			p.res.Skip(ReasonEmpty)
		}
		return nil
	case strings.IndexByte(text, 0) >= 0:
		p.res.Skip(ReasonNULCharacter)
		return nil
	}
	parent, ok := last[sid]
	if !ok {
		if prob := idProblem(sid); prob != "" {
			return &transcript.Error{File: p.e.name, Message: "conversation " + c.ID + ": thread session id " + sid + " " + prob}
		}
	}
	t := transcript.Turn{
		Provider: Provider, Session: sid, ID: m.TS, Parent: parent, Role: transcript.RoleUser,
		Content: text, SpeakerID: speakerID, SpeakerDisplay: display, Time: m.stamp.time(),
		Group: c.group, Title: c.title,
	}
	last[sid] = m.TS
	return p.buf.Add(t)
}

// hasFiles: the message shared files (a file comment's file is not its
// content).
func (m *message) hasFiles() bool {
	return m.Subtype != "file_comment" && (len(m.Files) > 0 || m.File != nil)
}
