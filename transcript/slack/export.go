package slack

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"scriptorium/transcript"
)

// The files at the export's root that this package reads or knowingly
// ignores. Anything else that is not a day file is counted as other_file.
const (
	fileChannels          = "channels.json"           // public channels
	fileGroups            = "groups.json"             // private channels
	fileMPIMs             = "mpims.json"              // group direct messages
	fileDMs               = "dms.json"                // direct messages; folders are named by id
	fileFileConversations = "file_conversations.json" // conversations about a file or canvas
	fileUsers             = "users.json"
	fileOrgUsers          = "org_users.json" // users.json of an Enterprise Grid org export
	fileCanvases          = "canvases.json"
	fileLists             = "lists.json"
	fileHuddles           = "huddle_transcripts.json"
)

// ignoredRootFiles are known export files that hold no messages.
var ignoredRootFiles = map[string]bool{
	"integration_logs.json": true, "content_flags.json": true, ".slack-manifest.json": true,
}

// conversationLists are the root files listing conversations, in the order
// a folder name is looked up in them.
var conversationLists = []struct {
	file  string
	group bool // a group chat (several people), not a 1:1 DM
	byID  bool // its folders are named by id (DMs have no name)
}{
	{fileChannels, true, false},
	{fileGroups, true, false},
	{fileMPIMs, true, false},
	{fileFileConversations, true, false},
	{fileDMs, false, true},
}

// dayFile matches the base name of a conversation's day file.
var dayFile = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}\.json$`)

// export is what the root files say: who the users are and which
// conversation each folder holds.
type export struct {
	name     string
	root     string // the path prefix of the export inside the files ("" or "dir/")
	users    map[string]user
	convs    map[string]*conversation // by folder name
	byID     map[string]*conversation
	channels map[string]string // conversation id to name, for <#C…> markup
}

type user struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	RealName string `json:"real_name"`
	Profile  struct {
		DisplayName string `json:"display_name"`
		RealName    string `json:"real_name"`
	} `json:"profile"`
}

// display is the name Slack shows for the user: the display name, else the
// full name, else the handle.
func (u user) display() string {
	for _, s := range []string{u.Profile.DisplayName, u.Profile.RealName, u.RealName, u.Name} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// conversation is one channel, private channel, group DM or DM.
type conversation struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Members []string `json:"members"`
	group   bool
	title   string
}

// rootOf finds the export's root: the folder holding the shallowest
// conversation list or users file, so a zip that wraps everything in one
// folder reads the same as the bare export.
func rootOf(names []string) (string, bool) {
	best, found := "", false
	for _, n := range names {
		dir, base := path.Split(cleanName(n))
		switch base {
		case fileChannels, fileGroups, fileMPIMs, fileDMs, fileUsers, fileOrgUsers:
		default:
			continue
		}
		if !found || strings.Count(dir, "/") < strings.Count(best, "/") || strings.Count(dir, "/") == strings.Count(best, "/") && dir < best {
			best, found = dir, true
		}
	}
	return best, found
}

// cleanName normalises a path inside the export: forward slashes, no
// leading "./" or "/".
func cleanName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	for strings.HasPrefix(name, "./") || strings.HasPrefix(name, "/") {
		name = strings.TrimPrefix(strings.TrimPrefix(name, "./"), "/")
	}
	return name
}

// readRoot reads the root files: users, the conversation lists, and the
// canvases, lists and huddle transcripts that are counted and skipped.
func (e *export) readRoot(byName map[string]jsonFile, res *transcript.Result) error {
	e.users = map[string]user{}
	for _, name := range []string{fileUsers, fileOrgUsers} {
		jf, ok := byName[name]
		if !ok {
			continue
		}
		err := jf.eachElement("users", func(line int, decode func(any) error) error {
			var u user
			if err := decode(&u); err != nil {
				return err
			}
			if u.ID != "" {
				e.users[u.ID] = u
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	e.convs, e.byID, e.channels = map[string]*conversation{}, map[string]*conversation{}, map[string]string{}
	listed := false
	for _, list := range conversationLists {
		jf, ok := byName[list.file]
		if !ok {
			continue
		}
		listed = true
		err := jf.eachElement("conversations", func(line int, decode func(any) error) error {
			c := &conversation{group: list.group}
			if err := decode(c); err != nil {
				return err
			}
			return e.addConversation(jf, line, c, list.byID)
		})
		if err != nil {
			return err
		}
	}
	if !listed {
		return &transcript.Error{File: e.name, Message: "no channels.json, groups.json, mpims.json or dms.json: " +
			"not a whole Slack export (import the export's folder or zip, not one channel's folder)"}
	}
	for _, c := range e.byID {
		c.title = e.title(c)
	}
	for _, counted := range []struct{ file, reason string }{
		{fileCanvases, ReasonCanvas}, {fileLists, ReasonList}, {fileHuddles, ReasonHuddle},
	} {
		jf, ok := byName[counted.file]
		if !ok {
			continue
		}
		err := jf.eachElement("entries", func(int, func(any) error) error {
			res.Skip(counted.reason)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// addConversation registers a listed conversation under its folder name.
func (e *export) addConversation(jf jsonFile, line int, c *conversation, byID bool) error {
	if p := idProblem(c.ID); p != "" {
		return jf.errorf(line, "conversation id %q %s", c.ID, p)
	}
	if !slackID(c.ID) {
		// Thread sessions are "<id>-<thread_ts>": an id with a "-" could
		// collide with one, and one differing only in case with another.
		return jf.errorf(line, "conversation id %q is not a Slack id (upper-case letters and digits)", c.ID)
	}
	if prev, dup := e.byID[c.ID]; dup {
		if prev.Name != c.Name {
			return jf.errorf(line, "conversation %s is listed twice, as %q and %q", c.ID, prev.Name, c.Name)
		}
		return nil
	}
	folder := c.Name
	if byID || folder == "" {
		folder = c.ID
	}
	if _, taken := e.convs[folder]; taken {
		return jf.errorf(line, "two conversations are named %q", folder)
	}
	e.byID[c.ID] = c
	e.convs[folder] = c
	if c.Name != "" {
		e.channels[c.ID] = c.Name
	}
	return nil
}

func slackID(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return s != ""
}

// title is the conversation's name as the export gives it; a DM has none,
// so it is named by its members, as Slack's sidebar names it.
func (e *export) title(c *conversation) string {
	if c.Name != "" {
		return c.Name
	}
	var names []string
	for _, id := range c.Members {
		if n := e.users[id].display(); n != "" {
			names = append(names, n)
		} else {
			names = append(names, id)
		}
	}
	return strings.Join(names, ", ")
}

// folder returns the conversation a folder holds: by name, else by id (some
// exporters name every folder by id).
func (e *export) folder(name string) (*conversation, bool) {
	if c, ok := e.convs[name]; ok {
		return c, true
	}
	c, ok := e.byID[name]
	return c, ok
}

// file is the file called name, its bytes not yet read.
func (e *export) file(name string) jsonFile {
	display := cleanName(name)
	if e.name != "" {
		display = e.name + "/" + display
	}
	return jsonFile{display: display}
}

// sortedIDs lists the conversations in id order, the order of the output.
func (e *export) sortedIDs() []string {
	ids := make([]string, 0, len(e.byID))
	for id := range e.byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// notListed is the error for a folder of day files no list names.
func notListed(jf jsonFile, folder string) error {
	return jf.errorf(0, "folder %q is not listed in %s, %s, %s, %s or %s", folder,
		fileChannels, fileGroups, fileMPIMs, fileFileConversations, fileDMs)
}

func isRootFile(base string) bool {
	switch base {
	case fileChannels, fileGroups, fileMPIMs, fileDMs, fileFileConversations, fileUsers, fileOrgUsers,
		fileCanvases, fileLists, fileHuddles:
		return true
	}
	return false
}
