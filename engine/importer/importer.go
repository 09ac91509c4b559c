package importer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/transcript"
	"scriptorium/transcript/formats"
)

// Skip reasons the importer adds to the parsers' own (Result.Skipped).
const (
	// SkipNotTranscript counts the files of a directory walk that match no
	// format.
	SkipNotTranscript = "not_a_transcript"
	// SkipDuplicate counts the turns that were stored already (or came
	// twice in the input): they add nothing.
	SkipDuplicate = "duplicate"
	// SkipForgotten counts the turns of nodes the owner forgot: importing
	// them again never brings their text back.
	SkipForgotten = "forgotten"
	// SkipChanged counts the chat turns whose stored node differs from the
	// export (an edit, a rename, a deletion since the last import): the
	// stored node is kept, since archives are append-only.
	SkipChanged = "changed"
)

// detectBytes is how much of a file auto detection reads: enough for the
// first lines of a Claude Code transcript even when one holds a long paste.
const detectBytes = 64 << 10

// Options configures an import. The zero value detects every file's format
// and reads nothing from stdin.
type Options struct {
	// Format is every file's format; FormatUnknown detects each file's
	// from its content, never its name.
	Format transcript.Format
	// Stdin is what the path "-" reads.
	Stdin io.Reader
	// Senders gives the tier of the senders of turns whose parser leaves it
	// open (a group chat): the owner's stored choice ([trust.<provider>] in
	// config.toml); nil makes them all unpaired.
	Senders Senders
	// Named are the senders the owner names on this import (import --owner,
	// --paired); they win over Senders, and those some turn of the import
	// has are stored in ConfigPath before the import commits.
	Named Named
	// ConfigPath is the config.toml the Named senders are stored in; ""
	// stores nothing.
	ConfigPath string
	// Location is the time zone of exports that write wall-clock times
	// (WhatsApp, old Telegram exports); nil means the machine's, time.Local.
	Location *time.Location
	// Progress hears how the import advances; nil hears nothing.
	Progress Progress
	// BusyTimeout bounds the wait for another writer of sessions.db; zero
	// is the store's default (5 s).
	BusyTimeout time.Duration
	// Resume, when set, reads each Claude Code file from where the last
	// resumable import of it stopped, within its bounds, and stores where
	// this one stops (resume.go): the hook's and the daemon's imports.
	Resume *Resume
}

// Progress hears how an import advances, on the importing goroutine,
// except Read (below); no two calls are concurrent.
type Progress interface {
	// Read counts n more bytes read from the inputs; a streamed file's
	// reads come from the goroutine that parses it.
	Read(n int)
	// File reports a file read (and stored, unless a problem was found).
	File(f File)
	// Committing says every file is stored and the transaction commits.
	Committing()
}

// File is one input as the import read it.
type File struct {
	Path string
	// Format is the format it was read as; FormatUnknown when a walk
	// skipped it as no transcript.
	Format transcript.Format
	// Sessions are the sessions its turns belong to, for a parsed format
	// (a JSONL file is read by the store, which does not say).
	Sessions []sessions.SessionKey
	// Turns is the number of turns its parser gave; -1 for JSONL.
	Turns int
	// From is the byte a resumable import started reading at, and Left
	// what it left unread when it stopped at its bound (Options.Resume).
	From, Left int64
}

// Result is what an import stored and skipped.
type Result struct {
	// Imported is the number of turns newly stored.
	Imported int
	// Sessions is the number of sessions that got new turns.
	Sessions int
	// Skipped counts what was not stored, by reason: the parsers' reasons
	// and SkipNotTranscript, SkipDuplicate, SkipForgotten, SkipChanged.
	// Never nil.
	Skipped map[string]int
	// Retiered is the number of stored turns, not yet written, that took
	// the tier the owner gave their sender on this import.
	Retiered int
	// Files are the inputs read as transcripts, in order (the skipped
	// ones are not among them).
	Files []File
	// Unrecognised are the files of a walk that no format recognises.
	Unrecognised []Unrecognised
	// Chats are the chats whose senders' tiers the import decided (the
	// group chats and direct messages of chat exports), in order of first
	// appearance.
	Chats []Chat
	// Warnings say what the owner should know: a group chat whose
	// messages will all be pending, a direct message that will not enter
	// memory, a file that gave no turn, a named sender nobody is.
	Warnings []Warning
	// Trust is what the import stored in config.toml: per provider, the
	// owner and paired senders after the merge; nil when nothing changed.
	Trust map[string]TrustLists
}

// Import reads the inputs into the sessions.db of stateDir, creating the
// state dir and the database if needed, and stores them all or nothing. A
// malformed input is an INVALID_ARGUMENT *errcode.Error whose violations
// name every problem's file and line; nothing is stored then, and a state
// dir without sessions.db is left as it was. ctx bounds the store's work.
//
// Senders named in Options.Named that some turn has are stored in
// Options.ConfigPath just before the commit; a failure to store them
// stores nothing at all.
func Import(ctx context.Context, stateDir string, in Inputs, opts Options) (Result, error) {
	if opts.Location == nil {
		opts.Location = time.Local
	}
	im := &run{ctx: ctx, dir: stateDir, in: in, opts: opts, res: Result{Skipped: map[string]int{}},
		tiers: newTiering(opts.Senders, opts.Named), chats: map[sessions.SessionKey]*Chat{}}
	defer im.end()
	for _, u := range in.Unrecognised {
		im.res.Skipped[SkipNotTranscript]++
		im.res.Unrecognised = append(im.res.Unrecognised, u)
		im.report(File{Path: u.Path})
	}
	for _, item := range in.Items {
		if err := im.input(item); err != nil {
			return Result{}, err
		}
	}
	if len(im.problems) > 0 {
		return Result{}, reject(im.problems)
	}
	im.finish()
	if im.batch == nil {
		return im.res, im.storeTrust() // nothing needed the store
	}
	if opts.Progress != nil {
		opts.Progress.Committing()
	}
	// The owner's choice is stored first: an import whose tiers the
	// config would not repeat next time must not commit.
	if err := im.storeTrust(); err != nil {
		return Result{}, err
	}
	stored, err := im.batch.Commit()
	if err != nil {
		var ie *sessions.ImportError
		if errors.As(err, &ie) {
			return Result{}, reject(im.trace(ie))
		}
		return Result{}, errcode.Wrap(errcode.IO, err, "import")
	}
	if err := im.target.publish(); err != nil {
		return Result{}, err
	}
	im.target = nil
	im.res.Imported, im.res.Sessions, im.res.Retiered = stored.Imported, stored.Sessions, stored.Retiered
	for reason, n := range map[string]int{SkipDuplicate: stored.Duplicate, SkipForgotten: stored.Forgotten, SkipChanged: stored.Changed} {
		if n > 0 {
			im.res.Skipped[reason] += n
		}
	}
	if stored.TierKept > 0 {
		im.res.Warnings = append(im.res.Warnings, tierKeptWarning(stored.TierKept))
	}
	return im.res, nil
}

// run is one import in progress.
type run struct {
	ctx  context.Context
	dir  string
	in   Inputs
	opts Options
	res  Result

	target *target
	batch  *sessions.ImportBatch
	// added are the files added to the batch, by their index there.
	added []File
	// problems are the inputs that did not parse (or read); once there is
	// one, files are only parsed, never stored.
	problems []errcode.Violation

	tiers     *tiering
	chats     map[sessions.SessionKey]*Chat
	chatOrder []sessions.SessionKey
}

// end releases what the import holds; a committed import has published
// its target already.
func (im *run) end() {
	if im.batch != nil {
		im.batch.Rollback()
	}
	if im.target != nil {
		im.target.discard()
	}
}

// input reads one input. Only a failure of the store is returned; an input
// that does not read or parse is a problem.
func (im *run) input(in Input) error {
	if len(in.Members) == 0 {
		return im.file(in)
	}
	var c container
	if in.Zip {
		z, err := openZip(in.Path)
		if err != nil {
			im.problem(in.Path, err)
			return nil
		}
		c = z
	} else {
		c = &folder{root: in.Path}
	}
	defer c.close()
	row, ok := formatOf(in.Format)
	if !ok {
		im.problem(in.Path, errcode.Errorf(errcode.InvalidArgument, "no importer reads the format %q", in.Format))
		return nil
	}
	if row.streamFiles != nil && (row.whole || len(in.Members) > 1) {
		return im.streamedExport(c, in, row)
	}
	if row.parseFiles != nil && (row.parse == nil || len(in.Members) > 1 || row.whole) {
		return im.export(c, in, row)
	}
	for _, m := range in.Members {
		if err := im.member(c, m, in, row); err != nil {
			return err
		}
	}
	return nil
}

// file reads an input that is a file on its own (or stdin): detects its
// format when none was given, parses it and hands its turns to the store.
func (im *run) file(in Input) error {
	var r io.Reader = im.opts.Stdin
	if r == nil {
		r = eofReader{}
	}
	p := in.Path
	if p != "-" {
		f, err := os.Open(p)
		if err != nil {
			im.problem(p, err)
			return nil
		}
		defer f.Close()
		r = f
	}
	src := &sourceReader{r: r, progress: im.opts.Progress}
	br := bufio.NewReaderSize(src, detectBytes)
	name := in.Format
	if name == transcript.FormatUnknown {
		name = im.opts.Format
	}
	if name == transcript.FormatUnknown {
		head, _ := br.Peek(detectBytes)
		name = formats.Detect(head)
		switch {
		case name == transcript.FormatSlack:
			im.problem(p, errors.New("a Slack day file: import the Slack export's folder or zip, which holds users.json and channels.json"))
			return nil
		case name == transcript.FormatUnknown && jsonLines(head):
			// JSON lines that are no known transcript: read as our own
			// format, so the store names each bad line.
			name = transcript.FormatJSONL
		case name == transcript.FormatUnknown:
			im.problem(p, notATranscript(head))
			return nil
		}
	}
	row, ok := formatOf(name)
	if !ok {
		im.problem(p, errcode.Errorf(errcode.InvalidArgument, "no importer reads the format %q", name))
		return nil
	}
	file := File{Path: p, Format: name, Turns: -1}
	if f, ok := r.(*os.File); ok && p != "-" && im.opts.Resume != nil && row.name == transcript.FormatClaudeCode {
		return im.resumed(p, f, row)
	}
	switch {
	case row.parse == nil && row.parseFiles == nil:
		if err := im.storeJSONL(br, src, file); err != nil {
			return err
		}
		im.res.Files = append(im.res.Files, file)
		im.report(file)
		return nil
	case row.parse == nil:
		data, err := io.ReadAll(br)
		if err != nil {
			im.problem(p, err)
			return nil
		}
		return im.parsed(file, row, func() (transcript.Result, error) {
			return row.parseFiles([]transcript.File{{Name: baseName(p), Data: data}}, p)
		})
	}
	title := in.Title
	if title == "" && p != "-" {
		title = chatTitle(p)
	}
	o := parseOptions{Name: p, Title: title, Location: im.opts.Location}
	if row.stream != nil {
		return im.streamed(file, row, br, o)
	}
	return im.parsed(file, row, func() (transcript.Result, error) { return row.parse(br, o) })
}

// member reads one file of a folder or zip with a single-file format.
func (im *run) member(c container, name string, in Input, row format) error {
	display := c.display(name)
	rc, err := c.open(name)
	if err != nil {
		im.problem(display, err)
		return nil
	}
	defer rc.Close()
	src := &sourceReader{r: rc, progress: im.opts.Progress}
	file := File{Path: display, Format: row.name, Turns: -1}
	if row.parse == nil {
		if err := im.storeJSONL(src, src, file); err != nil {
			return err
		}
		im.res.Files = append(im.res.Files, file)
		im.report(file)
		return nil
	}
	title := in.Title
	if title == "" {
		title = chatTitle(name)
	}
	o := parseOptions{Name: display, Title: title, Location: im.opts.Location}
	if row.stream != nil {
		return im.streamed(file, row, src, o)
	}
	return im.parsed(file, row, func() (transcript.Result, error) { return row.parse(src, o) })
}

// export reads the files of a multi-file export at once, for a format
// that has no streamFiles (the tests' whole reading of Slack and Discord).
func (im *run) export(c container, in Input, row format) error {
	files := make([]transcript.File, 0, len(in.Members))
	var total int64
	for _, name := range in.Members {
		rc, err := c.open(name)
		if err != nil {
			im.problem(c.display(name), err)
			return nil
		}
		data, err := io.ReadAll(&sourceReader{r: rc, progress: im.opts.Progress})
		rc.Close()
		if err != nil {
			im.problem(c.display(name), err)
			return nil
		}
		if total += int64(len(data)); total > maxExportBytes {
			im.problem(in.Path, fmt.Errorf("the export holds more than %d MiB; import its folders one by one", maxExportBytes>>20))
			return nil
		}
		files = append(files, transcript.File{Name: name, Data: data})
	}
	display := exportDisplay(c, in, row)
	return im.parsed(File{Path: display, Format: row.name}, row, func() (transcript.Result, error) {
		return row.parseFiles(files, display)
	})
}

// parsed runs a parser and hands its turns to the store.
func (im *run) parsed(file File, row format, parse func() (transcript.Result, error)) error {
	parsed, err := parse()
	if err != nil {
		im.problem(file.Path, err)
		return nil
	}
	for k, n := range parsed.Skipped {
		im.res.Skipped[k] += n
	}
	nodes, keys := nodesOf(parsed.Turns, im.tiers)
	im.noteChats(parsed.Turns, nodes)
	file.Sessions, file.Turns = keys, len(parsed.Turns)
	if len(parsed.Turns) == 0 {
		im.res.Warnings = append(im.res.Warnings, noTurnsWarning(file.Path, parsed.Skipped))
	}
	if len(im.problems) == 0 && len(nodes) > 0 {
		if err := im.store(file); err != nil {
			return err
		}
		add := im.batch.AddNodes
		if row.chat {
			add = im.batch.AddChatNodes
		}
		if err := add(nodes); err != nil {
			return errcode.Wrap(errcode.IO, err, "import")
		}
	}
	im.res.Files = append(im.res.Files, file)
	im.report(file)
	return nil
}

// storeJSONL hands a JSONL file to the store, which reads it line by line;
// once a problem is known it only reads it, to report a read failure.
func (im *run) storeJSONL(r io.Reader, src *sourceReader, file File) error {
	if len(im.problems) > 0 {
		if _, err := io.Copy(io.Discard, r); err != nil {
			im.problem(file.Path, err)
		}
		return nil
	}
	if err := im.store(file); err != nil {
		return err
	}
	if err := im.batch.AddJSONL(r); err != nil {
		if src.err != nil {
			// The file could not be read: a problem of that file, and the
			// end of storing (the batch is over).
			im.problem(file.Path, src.err)
			return nil
		}
		return errcode.Wrap(errcode.IO, err, "import")
	}
	return nil
}

// store opens the target and the batch on first use and records the file
// as the batch's next.
func (im *run) store(file File) error {
	if err := im.open(); err != nil {
		return err
	}
	im.added = append(im.added, file)
	return nil
}

// open opens the target and the batch, once.
func (im *run) open() error {
	if im.batch == nil {
		t, err := openTarget(im.dir, im.opts.BusyTimeout)
		if err != nil {
			return err
		}
		im.target = t
		im.batch = t.store.BeginImport(im.ctx)
	}
	return nil
}

// problem records an input that did not read or parse.
func (im *run) problem(path string, err error) {
	im.problems = append(im.problems, parseViolation(path, err))
}

func (im *run) report(f File) {
	if im.opts.Progress != nil {
		im.opts.Progress.File(f)
	}
}

// notATranscript is the problem of a file named on its own that no format
// recognises: what it looks like, and the formats there are.
func notATranscript(head []byte) error {
	return fmt.Errorf("not a format import reads: it looks like %s (the formats are %s; --format FORMAT forces one)",
		looksLike(head, int64(len(head))), orList(FormatNames()))
}
