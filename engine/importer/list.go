package importer

import (
	"bytes"
	"io"
	"os"
	"path"
	"sort"
	"strings"

	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/transcript/formats"
)

// Input is one thing an import reads: a file, stdin, or files inside a
// folder or a zip archive (one file, or every file of a multi-file export:
// a Slack export, a folder of Discord exports).
type Input struct {
	// Path is the file, "-" (stdin), or the folder or zip archive that
	// holds Members.
	Path string
	// Format is the input's format; FormatUnknown means it is detected
	// from the content when the input is read.
	Format transcript.Format
	// Members are the files of the input inside the folder or zip Path,
	// by their names there ("/" separators); nil when Path is the input.
	Members []string
	// Zip says Path is a zip archive.
	Zip bool
	// Title is the chat's name the file's name or its zip's gives
	// ("WhatsApp Chat with Ana.txt"), "" when it gives none.
	Title string
	// Size is what the input holds, in bytes (uncompressed); 0 for stdin.
	Size int64
}

// Inputs is what an import reads.
type Inputs struct {
	// Items are read in order.
	Items []Input
	// Walked says the items come from a directory walk (or a zip), where
	// a file no format recognises is skipped and listed in Unrecognised; a
	// file named on its own that no format recognises is a problem.
	Walked bool
	// Unrecognised are the files of the walk that no format recognises,
	// with what they look like; counted as SkipNotTranscript.
	Unrecognised []Unrecognised
}

// Unrecognised is a file an import could not read as any format.
type Unrecognised struct {
	Path      string `json:"path"`
	LooksLike string `json:"looks_like"`
}

// Paths is the inputs of files named one by one ("-" is stdin).
func Paths(paths ...string) Inputs {
	in := Inputs{}
	for _, p := range paths {
		in.Items = append(in.Items, Input{Path: p})
	}
	return in
}

// List returns the inputs of an import of path: path itself ("-" is
// stdin); the files of the zip archive path; or the files under the
// directory path, in lexical order. With format FormatUnknown (auto) each
// file's format is detected by its content: a folder holding a Slack
// export's lists (users.json, channels.json, …) and day files is one
// Slack input, the Discord exports of one folder are one input (overlapping
// exports merge), a zip is read as a Slack export or as the files it
// holds, and a file no format recognises is listed in Unrecognised with
// what it looks like. With a format, the walk takes the files that format's
// exports are made of (*.jsonl, result.json, _chat.txt…; the whole folder
// for Slack). Symbolic links are followed, to files and folders, each
// entered once; a broken link, a link cycle or a device is listed in
// Unrecognised with why. A directory the walk cannot read is refused
// rather than silently left out.
func List(p string, format transcript.Format) (Inputs, error) {
	if p == "-" {
		return Paths("-"), nil
	}
	fi, err := os.Stat(p)
	if err != nil {
		return Inputs{}, errcode.Wrap(errcode.InvalidArgument, err, "read turns")
	}
	if !fi.IsDir() {
		head, err := fileHead(p)
		if err != nil {
			return Inputs{}, errcode.Wrap(errcode.InvalidArgument, err, "read %s", p)
		}
		if !isZip(head) {
			return Inputs{Items: []Input{{Path: p, Format: format, Size: fi.Size(), Title: chatTitle(p)}}}, nil
		}
		z, err := openZip(p)
		if err != nil {
			return Inputs{}, errcode.Wrap(errcode.InvalidArgument, err, "read %s", p)
		}
		defer z.close()
		in := Inputs{Walked: true}
		if err := in.walk(z, p, true, format, chatTitle(p)); err != nil {
			return Inputs{}, err
		}
		return in, nil
	}
	f, err := openFolder(p)
	if err != nil {
		return Inputs{}, err
	}
	in := Inputs{Walked: true}
	if err := in.walk(f, p, false, format, ""); err != nil {
		return Inputs{}, err
	}
	in.Unrecognised = append(in.Unrecognised, f.skipped...)
	return in, nil
}

// fileHead reads the first detectBytes of the file at p.
func fileHead(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, detectBytes)
	n, err := io.ReadFull(f, buf)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
	}
	return buf[:n], err
}

// sniffFirst is how much of a walked file is read first: enough to tell
// media and archives from text.
const sniffFirst = 4 << 10

// binary reports whether a file's first bytes are no text: a NUL, or a
// known binary signature (a zip is recognised as a zip by its own test).
func binary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for _, magic := range []string{"\x89PNG", "\xff\xd8\xff", "GIF8", "%PDF", "\x1f\x8b", "OggS", "RIFF"} {
		if bytes.HasPrefix(head, []byte(magic)) {
			return true
		}
	}
	return len(head) >= 12 && string(head[4:8]) == "ftyp"
}

// slackLists are the file names at a Slack export's root.
var slackLists = map[string]bool{"users.json": true, "org_users.json": true, "channels.json": true,
	"groups.json": true, "mpims.json": true, "dms.json": true}

// walk adds the inputs of a folder or zip c, at p. title is the chat name
// the zip's own name gives, for a WhatsApp _chat.txt inside it.
func (in *Inputs) walk(c container, p string, isZipFile bool, format transcript.Format, title string) error {
	all := c.members()
	if format != transcript.FormatUnknown {
		in.walkFormat(p, isZipFile, format, all, title)
		return nil
	}
	taken := map[string]bool{}
	heads := map[string][]byte{}
	head := func(name string) []byte {
		if h, ok := heads[name]; ok {
			return h
		}
		// A folder of exports holds media too: their first bytes say so,
		// without reading detectBytes of every photo.
		h, _ := readHead(c, name, sniffFirst) // an unreadable file is reported when read
		if len(h) == sniffFirst && !binary(h) {
			h, _ = readHead(c, name, detectBytes)
		}
		heads[name] = h
		return h
	}
	// A Slack export is a folder: the one holding its lists, when its
	// files hold a day file. A zip of one export is the export.
	for _, root := range slackRoots(all, isZipFile) {
		var members []string
		var size int64
		for _, m := range all {
			if !taken[m.name] && under(m.name, root) {
				members = append(members, m.name)
				size += m.size
			}
		}
		if formats.DetectFiles(members, head) != transcript.FormatSlack {
			continue
		}
		for _, m := range members {
			taken[m] = true
		}
		in.Items = append(in.Items, Input{Path: p, Format: transcript.FormatSlack, Members: members, Zip: isZipFile, Size: size})
	}
	// The Discord exports of one folder are read together: two exports of
	// one channel overlap, and the later edit of a message wins.
	discordDirs := map[string]int{} // folder → index of its input
	for _, m := range all {
		if taken[m.name] {
			continue
		}
		h := head(m.name)
		if !isZipFile && isZip(h) {
			if err := in.walkZip(c.display(m.name)); err != nil {
				return err
			}
			continue
		}
		f := formats.Detect(h)
		switch f {
		case transcript.FormatUnknown:
			in.Unrecognised = append(in.Unrecognised, Unrecognised{Path: c.display(m.name), LooksLike: looksLike(h, m.size)})
		case transcript.FormatSlack:
			in.Unrecognised = append(in.Unrecognised, Unrecognised{Path: c.display(m.name),
				LooksLike: "a Slack day file outside its export (import the export's folder or zip, which holds users.json and channels.json)"})
		case transcript.FormatDiscord:
			d := dirOf(m.name)
			if i, ok := discordDirs[d]; ok {
				in.Items[i].Members = append(in.Items[i].Members, m.name)
				in.Items[i].Size += m.size
				continue
			}
			discordDirs[d] = len(in.Items)
			in.Items = append(in.Items, Input{Path: p, Format: f, Members: []string{m.name}, Zip: isZipFile, Size: m.size})
		default:
			t := chatTitle(m.name)
			if t == "" && f == transcript.FormatWhatsApp {
				t = title // iOS: _chat.txt inside "WhatsApp Chat - Family.zip"
			}
			in.Items = append(in.Items, Input{Path: p, Format: f, Members: []string{m.name}, Zip: isZipFile, Title: t, Size: m.size})
		}
	}
	return nil
}

// walkZip adds the inputs of a zip archive a walk found.
func (in *Inputs) walkZip(p string) error {
	z, err := openZip(p)
	if err != nil {
		in.Unrecognised = append(in.Unrecognised, Unrecognised{Path: p, LooksLike: "a damaged zip archive (" + err.Error() + ")"})
		return nil
	}
	defer z.close()
	n := len(in.Items)
	if err := in.walk(z, p, true, transcript.FormatUnknown, chatTitle(p)); err != nil {
		return err
	}
	if len(in.Items) == n && len(z.members()) == 0 {
		in.Unrecognised = append(in.Unrecognised, Unrecognised{Path: p, LooksLike: "an empty zip archive"})
	}
	return nil
}

// walkFormat adds the inputs of a walk for one named format: the files
// its exports are made of, or the whole folder for Slack.
func (in *Inputs) walkFormat(p string, isZipFile bool, format transcript.Format, all []member, title string) {
	row, ok := formatOf(format)
	if !ok {
		in.Items = append(in.Items, Input{Path: p, Format: format})
		return
	}
	if row.whole {
		item := Input{Path: p, Format: format, Zip: isZipFile}
		for _, m := range all {
			item.Members = append(item.Members, m.name)
			item.Size += m.size
		}
		in.Items = append(in.Items, item)
		return
	}
	dirs := map[string]int{}
	for _, m := range all {
		if !row.walked(path.Base(m.name)) {
			continue
		}
		if row.parseFiles != nil {
			if i, ok := dirs[dirOf(m.name)]; ok {
				in.Items[i].Members = append(in.Items[i].Members, m.name)
				in.Items[i].Size += m.size
				continue
			}
			dirs[dirOf(m.name)] = len(in.Items)
		}
		t := chatTitle(m.name)
		if t == "" {
			t = title // _chat.txt inside "WhatsApp Chat - Family.zip"
		}
		in.Items = append(in.Items, Input{Path: p, Format: format, Members: []string{m.name}, Zip: isZipFile, Title: t, Size: m.size})
	}
}

// slackRoots are the folders that may hold a Slack export, shallowest
// first: those holding one of its lists. In a zip the root of the zip is
// always one (a zip of one export: ParseFiles finds the lists).
func slackRoots(all []member, isZipFile bool) []string {
	seen := map[string]bool{}
	var roots []string
	if isZipFile {
		seen["."] = true
		roots = append(roots, ".")
	}
	for _, m := range all {
		if d := dirOf(m.name); slackLists[path.Base(m.name)] && !seen[d] {
			seen[d] = true
			roots = append(roots, d)
		}
	}
	sort.SliceStable(roots, func(i, j int) bool { return depth(roots[i]) < depth(roots[j]) })
	return roots
}

func depth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// under reports whether the member name lies in the folder dir.
func under(name, dir string) bool {
	return dir == "." || strings.HasPrefix(name, dir+"/")
}

// Size is what the inputs hold in all, in bytes; -1 when one is stdin.
func (in Inputs) Size() int64 {
	var total int64
	for _, it := range in.Items {
		if it.Path == "-" {
			return -1
		}
		total += it.Size
	}
	return total
}
