package importer

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/transcript"
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
)

// detectBytes is how much of a file auto detection reads: enough for the
// first lines of a Claude Code transcript even when one holds a long paste.
const detectBytes = 64 << 10

// Inputs is what an import reads.
type Inputs struct {
	// Paths are the files, in the order they are read; "-" is
	// Options.Stdin.
	Paths []string
	// Walked says Paths come from a directory walk: a file no format
	// recognises is then skipped (SkipNotTranscript), where a file named
	// on its own is read as JSONL so that its bad lines are reported.
	Walked bool
}

// List returns the inputs of an import of path: path itself ("-" is
// stdin), or the files under the directory path that the format takes
// (every file when format is FormatUnknown), in lexical order. Symbolic
// links and devices are not followed. A directory the walk cannot read is
// refused rather than silently left out.
func List(path string, format transcript.Format) (Inputs, error) {
	if path == "-" {
		return Inputs{Paths: []string{"-"}}, nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Inputs{}, errcode.Wrap(errcode.InvalidArgument, err, "read turns")
	}
	if !fi.IsDir() {
		return Inputs{Paths: []string{path}}, nil
	}
	in := Inputs{Walked: true}
	row, known := formatOf(format)
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && (!known || row.walked(d.Name())) {
			in.Paths = append(in.Paths, p)
		}
		return nil
	})
	if err != nil {
		return Inputs{}, errcode.Wrap(errcode.InvalidArgument, err, "read directory %s", path)
	}
	return in, nil
}

// Options configures an import. The zero value detects every file's format
// and reads nothing from stdin.
type Options struct {
	// Format is every file's format; FormatUnknown detects each file's
	// from its content, never its name.
	Format transcript.Format
	// Stdin is what the path "-" reads.
	Stdin io.Reader
	// Senders gives the tier of the senders of turns whose parser leaves it
	// open (a group chat); nil makes them all unpaired.
	Senders Senders
	// Progress hears how the import advances; nil hears nothing.
	Progress Progress
	// BusyTimeout bounds the wait for another writer of sessions.db; zero
	// is the store's default (5 s).
	BusyTimeout time.Duration
}

// Progress hears how an import advances, on the importing goroutine.
type Progress interface {
	// Read counts n more bytes read from the inputs.
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
}

// Result is what an import stored and skipped.
type Result struct {
	// Imported is the number of turns newly stored.
	Imported int
	// Sessions is the number of sessions that got new turns.
	Sessions int
	// Skipped counts what was not stored, by reason: the parsers' reasons
	// and SkipNotTranscript, SkipDuplicate, SkipForgotten. Never nil.
	Skipped map[string]int
	// Files are the inputs read as transcripts, in order (the skipped
	// ones are not among them).
	Files []File
}

// Import reads the inputs into the sessions.db of stateDir, creating the
// state dir and the database if needed, and stores them all or nothing. A
// malformed input is an INVALID_ARGUMENT *errcode.Error whose violations
// name every problem's file and line; nothing is stored then, and a state
// dir without sessions.db is left as it was. ctx bounds the store's work.
func Import(ctx context.Context, stateDir string, in Inputs, opts Options) (Result, error) {
	im := &run{ctx: ctx, dir: stateDir, in: in, opts: opts, res: Result{Skipped: map[string]int{}}}
	defer im.end()
	for _, p := range in.Paths {
		if err := im.file(p); err != nil {
			return Result{}, err
		}
	}
	if len(im.problems) > 0 {
		return Result{}, reject(im.problems)
	}
	if im.batch == nil {
		return im.res, nil // nothing needed the store
	}
	if opts.Progress != nil {
		opts.Progress.Committing()
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
	im.res.Imported, im.res.Sessions = stored.Imported, stored.Sessions
	if stored.Duplicate > 0 {
		im.res.Skipped[SkipDuplicate] += stored.Duplicate
	}
	if stored.Forgotten > 0 {
		im.res.Skipped[SkipForgotten] += stored.Forgotten
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

// file reads one input: detects its format, parses it and hands its turns
// to the store. Only a failure of the store is returned; a file that does
// not read or parse is a problem.
func (im *run) file(p string) error {
	var r io.Reader = im.opts.Stdin
	if r == nil {
		r = eofReader{}
	}
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
	name := im.opts.Format
	if name == transcript.FormatUnknown {
		head, _ := br.Peek(detectBytes)
		name = transcript.Detect(head)
		if name == transcript.FormatUnknown {
			if im.in.Walked {
				im.res.Skipped[SkipNotTranscript]++
				im.report(File{Path: p})
				return nil
			}
			// One file named on the command line: read it as our own
			// format, so the store names its bad lines.
			name = transcript.FormatJSONL
		}
	}
	row, ok := formatOf(name)
	if !ok {
		im.problem(p, errcode.Errorf(errcode.InvalidArgument, "no importer reads the format %q", name))
		return nil
	}
	file := File{Path: p, Format: name}
	if row.parse == nil {
		if err := im.storeJSONL(br, src, file); err != nil {
			return err
		}
		im.res.Files = append(im.res.Files, file)
		im.report(file)
		return nil
	}
	parsed, err := row.parse(br, p)
	if err != nil {
		im.problem(p, err)
		return nil
	}
	for k, n := range parsed.Skipped {
		im.res.Skipped[k] += n
	}
	nodes, keys := nodesOf(parsed.Turns, im.opts.Senders)
	file.Sessions = keys
	if len(im.problems) == 0 {
		if err := im.store(file); err != nil {
			return err
		}
		if err := im.batch.AddNodes(nodes); err != nil {
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
	if im.batch == nil {
		t, err := openTarget(im.dir, im.opts.BusyTimeout)
		if err != nil {
			return err
		}
		im.target = t
		im.batch = t.store.BeginImport(im.ctx)
	}
	im.added = append(im.added, file)
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

// sourceReader counts what is read from an input towards the progress,
// and keeps the input's own read failure apart from the store's.
type sourceReader struct {
	r        io.Reader
	progress Progress
	err      error
}

func (s *sourceReader) Read(b []byte) (int, error) {
	n, err := s.r.Read(b)
	if s.progress != nil && n > 0 {
		s.progress.Read(n)
	}
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// eofReader is an empty stdin.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
