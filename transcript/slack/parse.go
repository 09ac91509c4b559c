package slack

import (
	"cmp"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"scriptorium/transcript"
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
// then be imported.
func ParseFiles(files []transcript.File, name string) (transcript.Result, error) {
	var res transcript.Result
	e := &export{name: name}
	root, ok := rootOf(files)
	if !ok {
		return res, &transcript.Error{File: name, Message: "no channels.json, groups.json, mpims.json, dms.json or users.json: " +
			"not a Slack export (import the export's folder or zip)"}
	}
	e.root = root
	rootFiles := map[string]transcript.File{}
	var days []transcript.File
	for _, f := range files {
		rel, inside := strings.CutPrefix(cleanName(f.Name), root)
		if !inside {
			res.Skip(ReasonOtherFile)
			continue
		}
		dir, base := path.Split(rel)
		switch {
		case dir == "" && isRootFile(base):
			if _, dup := rootFiles[base]; dup {
				return transcript.Result{}, e.file(f).errorf(0, "the export holds two %s files", base)
			}
			rootFiles[base] = f
		case dir == "" && ignoredRootFiles[base]:
		case strings.Count(dir, "/") == 1 && dayFile.MatchString(base):
			days = append(days, f)
		default:
			res.Skip(ReasonOtherFile)
		}
	}
	if err := e.readRoot(rootFiles, &res); err != nil {
		return transcript.Result{}, err
	}
	// Day files in name order: the day a message was read from is the
	// tie-break between two copies of it, and it must not depend on the
	// order the caller walked the folder in.
	slices.SortFunc(days, func(a, b transcript.File) int { return strings.Compare(cleanName(a.Name), cleanName(b.Name)) })
	for i, f := range days {
		if err := e.readDay(f, i, &res); err != nil {
			return transcript.Result{}, err
		}
	}
	r := renderer{users: e.users, channels: e.channels}
	for _, id := range e.sortedIDs() {
		if err := e.turns(e.byID[id], r, &res); err != nil {
			return transcript.Result{}, err
		}
	}
	return res, nil
}

func isRootFile(base string) bool {
	switch base {
	case fileChannels, fileGroups, fileMPIMs, fileDMs, fileFileConversations, fileUsers, fileOrgUsers,
		fileCanvases, fileLists, fileHuddles:
		return true
	}
	return false
}

// readDay adds one day file's messages to its conversation. Two copies of a
// ts (a thread parent repeated with its replies, overlapping exports) keep
// the later edit, else the copy from the later day file.
func (e *export) readDay(f transcript.File, order int, res *transcript.Result) error {
	jf := e.file(f)
	rel := strings.TrimPrefix(cleanName(f.Name), e.root)
	folder := rel[:strings.IndexByte(rel, '/')]
	c, ok := e.folder(folder)
	if !ok {
		return notListed(jf, folder)
	}
	return jf.eachElement("messages", func(raw json.RawMessage, line int) error {
		m := &message{order: order}
		if err := jf.decode(raw, line, m); err != nil {
			return err
		}
		if m.Type != "" && m.Type != "message" {
			res.Skip(ReasonNotAMessage)
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
		if prev, dup := c.msgs[m.TS]; dup {
			res.Skip(ReasonDuplicate)
			if prev.edited().compare(m.edited()) > 0 {
				return nil
			}
		}
		c.msgs[m.TS] = m
		return nil
	})
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

// turns appends the conversation's turns: its channel session, then one
// session per thread, each chained in time order.
func (e *export) turns(c *conversation, r renderer, res *transcript.Result) error {
	msgs := make([]*message, 0, len(c.msgs))
	for _, m := range c.msgs {
		msgs = append(msgs, m)
	}
	slices.SortFunc(msgs, func(a, b *message) int {
		if c := a.stamp.compare(b.stamp); c != 0 {
			return c
		}
		return strings.Compare(a.TS, b.TS)
	})
	last := map[string]string{} // by session: its previous kept turn, the next one's parent
	var turns []transcript.Turn
	for _, m := range msgs {
		if reason := m.skipReason(); reason != "" {
			res.Skip(reason)
			continue
		}
		sid := c.ID
		threadTS := m.ThreadTS
		if threadTS != "" && threadTS != m.TS {
			sid = c.ID + "-" + threadTS
		}
		speakerID, display := m.speaker(e.users)
		if speakerID == "" {
			res.Skip(ReasonNoAuthor)
			continue
		}
		text := m.content(r, res.Skip)
		switch {
		case text == "":
			if !m.hasFiles() {
				res.Skip(ReasonEmpty)
			}
			continue
		case strings.IndexByte(text, 0) >= 0:
			res.Skip(ReasonNULCharacter)
			continue
		}
		parent, ok := last[sid]
		if !ok {
			if p := idProblem(sid); p != "" {
				return &transcript.Error{File: e.name, Message: "conversation " + c.ID + ": thread session id " + sid + " " + p}
			}
		}
		turns = append(turns, transcript.Turn{
			Provider: Provider, Session: sid, ID: m.TS, Parent: parent, Role: transcript.RoleUser,
			Content: text, SpeakerID: speakerID, SpeakerDisplay: display, Time: m.stamp.time(),
			Group: c.group, Title: c.title,
		})
		last[sid] = m.TS
	}
	// The channel session first, then each thread in the order of its
	// thread_ts, so a thread's turns stay together.
	slices.SortStableFunc(turns, func(a, b transcript.Turn) int {
		ca, cb := a.Session != c.ID, b.Session != c.ID
		switch {
		case ca != cb && !ca:
			return -1
		case ca != cb:
			return 1
		case !ca:
			return 0
		}
		return cmp.Compare(threadKey(a.Session, c.ID), threadKey(b.Session, c.ID))
	})
	res.Turns = append(res.Turns, turns...)
	return nil
}

// threadKey orders thread sessions by their thread_ts. A ts is compared
// as a stamp, so "9.0" sorts before "10.0".
func threadKey(session, conv string) string {
	ts := strings.TrimPrefix(session, conv+"-")
	whole, frac, _ := strings.Cut(ts, ".")
	return strings.Repeat("0", 12-min(len(whole), 12)) + whole + "." + frac + strings.Repeat("0", 9-min(len(frac), 9))
}

// hasFiles: the message shared files (a file comment's file is not its
// content).
func (m *message) hasFiles() bool {
	return m.Subtype != "file_comment" && (len(m.Files) > 0 || m.File != nil)
}
