package importer

import (
	"errors"
	"io"

	"scriptorium/engine/sessions"
	"scriptorium/errcode"
	"scriptorium/transcript"
)

// streamed reads a file of a streaming format (format.stream) and stores
// its turns a chunk at a time: each chunk is one more file of the batch,
// whose parents the store finds among the chunks stored before it. Memory
// is bounded by a chunk, not by the file. A parse error after some chunks
// were stored is the file's problem, and the batch then commits nothing.
func (im *run) streamed(file File, row format, r io.Reader, o parseOptions) error {
	res, ok, err := im.streamWith(&file, row, func(emit func([]transcript.Turn) error) (transcript.Result, error) {
		return row.stream(r, o, emit)
	})
	if ok {
		im.finishFile(file, res)
	}
	return err
}

// streamedExport reads a multi-file export of a streaming format
// (format.streamFiles: a Slack export, the Discord exports of a folder),
// storing its turns a chunk at a time as streamed does: memory is bounded
// by what the parser holds (for Slack, the root files and a day; for
// Discord, a few bytes a message and a decoder an export), not by the
// export.
func (im *run) streamedExport(c container, in Input, row format) error {
	display := exportDisplay(c, in, row)
	file := File{Path: display, Format: row.name}
	reads := int64(max(row.reads, 1))
	var total, read int64 // by the parser's goroutine, until streamWith returns
	open := func(i int) (io.ReadCloser, error) {
		rc, err := c.open(in.Members[i])
		if err != nil {
			return nil, err
		}
		return readCloser{&sourceReader{r: rc, progress: progressFunc(func(n int) {
			// A parser that reads each file twice moves the bar by half
			// of what it reads.
			total += int64(n)
			step := total/reads - read
			read += step
			if im.opts.Progress != nil && step > 0 {
				im.opts.Progress.Read(int(step))
			}
		})}, rc}, nil
	}
	res, ok, err := im.streamWith(&file, row, func(emit func([]transcript.Turn) error) (transcript.Result, error) {
		return row.streamFiles(in.Members, open, display, emit)
	})
	if p := im.opts.Progress; p != nil && in.Size > read {
		p.Read(int(in.Size - read)) // the files the parser skips unread (attachments): the bar ends at the export's size
	}
	if ok {
		im.finishFile(file, res)
	}
	return err
}

// exportDisplay names a multi-file export in messages: the input, or for
// the Discord exports of a folder, the folder.
func exportDisplay(c container, in Input, row format) string {
	if !in.Zip && len(in.Members) > 0 {
		if d := dirOf(in.Members[0]); d != "." && row.name == transcript.FormatDiscord {
			return c.display(d)
		}
	}
	return in.Path
}

type readCloser struct {
	io.Reader
	io.Closer
}

// progressFunc counts reads towards a Progress that only reads.
type progressFunc func(n int)

func (f progressFunc) Read(n int) { f(n) }
func (progressFunc) File(File)    {}
func (progressFunc) Committing()  {}

// errStored ends a stream whose chunk the store could not take.
var errStored = errors.New("store failed")

// streamWith runs a stream, storing each chunk and noting its sessions
// and turns in file. The parser runs on its own goroutine, a chunk ahead
// of the store (a channel of one), so that parsing and storing share the
// machine's cores while memory stays bounded by about three chunks. Only a
// failure of the store is returned; a parse error is recorded as the
// file's problem, and ok is then false.
func (im *run) streamWith(file *File, row format, run func(emit func([]transcript.Turn) error) (transcript.Result, error)) (res transcript.Result, ok bool, err error) {
	chunks := make(chan []transcript.Turn, 1)
	stop := make(chan struct{})
	var perr error
	go func() {
		defer close(chunks)
		res, perr = run(func(turns []transcript.Turn) error {
			select {
			case chunks <- turns:
				return nil
			case <-stop:
				return errStored
			}
		})
	}()
	seen := map[sessions.SessionKey]bool{}
	file.Turns = 0
	var storeErr error
	for turns := range chunks {
		if storeErr != nil {
			continue // the parser is stopping: drain what it sent
		}
		if storeErr = im.storeChunk(file, row, turns, seen); storeErr != nil {
			close(stop)
		}
	}
	if storeErr != nil {
		return transcript.Result{}, false, storeErr
	}
	if perr != nil {
		im.problem(file.Path, perr)
		return transcript.Result{}, false, nil
	}
	return res, true, nil
}

// storeChunk notes a chunk's sessions and turns in file and hands its
// nodes to the batch (unless a problem means nothing will be stored).
func (im *run) storeChunk(file *File, row format, turns []transcript.Turn, seen map[sessions.SessionKey]bool) error {
	nodes, keys := nodesOf(turns, im.tiers)
	im.noteChats(turns, nodes)
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			file.Sessions = append(file.Sessions, k)
		}
	}
	file.Turns += len(turns)
	if len(im.problems) > 0 || len(nodes) == 0 {
		return nil
	}
	if err := im.store(*file); err != nil {
		return err
	}
	add := im.batch.AddNodes
	if row.chat {
		add = im.batch.AddChatNodes
	}
	if err := add(nodes); err != nil {
		return errcode.Wrap(errcode.IO, err, "import")
	}
	return nil
}

// finishFile counts a read file's skips and reports it, as parsed does.
func (im *run) finishFile(file File, res transcript.Result) {
	for k, n := range res.Skipped {
		im.res.Skipped[k] += n
	}
	if file.Turns == 0 {
		im.res.Warnings = append(im.res.Warnings, noTurnsWarning(file.Path, res.Skipped))
	}
	im.res.Files = append(im.res.Files, file)
	im.report(file)
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
