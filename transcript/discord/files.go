package discord

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"scriptorium/transcript"
	"scriptorium/transcript/internal/chunks"
)

// FilesOptions tunes StreamFiles.
type FilesOptions struct {
	// ChunkBytes is what is handed to emit at a time (0: DefaultChunkBytes).
	ChunkBytes int
	// MaxWholeBytes bounds the exports of one channel that must be merged
	// whole (0: DefaultMaxWholeBytes): more is an error.
	MaxWholeBytes int64
}

// DefaultMaxWholeBytes is FilesOptions.MaxWholeBytes when it is 0.
const DefaultMaxWholeBytes = 512 << 20

// maxMergeFiles is the most exports of one channel merged as they are
// read (each is an open file and a decoder); more are merged whole.
const maxMergeFiles = 64

// StreamFiles reads a folder's files as ParseFiles does, opening them
// (open(i) opens names[i]; StreamFiles closes what it opens) rather than
// holding them, and hands the turns to emit a chunk at a time. It reads
// every export twice. The first pass validates each file, decoding of a
// message only its id and times, and keeps, per message id of a channel,
// which copy wins (the id, its edit time and where the copy is: no text).
// The second hands out each channel in turn:
// one export streams as Stream does; several exports, each in time order
// as the exporter writes them, are merged as they are read (a k-way merge
// by time, then id), so memory is a chunk, the open exports' decoders and
// the per-message state, not the folder. Exports of one channel that are
// not each in time order (or hold ids of both snowflake and other forms,
// which do not sort one way, or are more than maxMergeFiles) are merged
// whole, up to MaxWholeBytes of them. The turns, their order, the skips
// and the errors are ParseFiles' (the first file's in name order). Most
// errors of the files' contents come from the first pass, before any
// chunk; a wrong type in a message's other fields comes from the second,
// after chunks were emitted (nothing of the folder should then be
// imported), and the files are then read again for the first error. An
// error of emit ends the stream with it. With a nil emit every turn is
// kept in the Result.
func StreamFiles(names []string, open func(i int) (io.ReadCloser, error), name string, o FilesOptions,
	emit func([]transcript.Turn) error) (transcript.Result, error) {
	s := &folderStream{names: names, open: open, name: name, o: o,
		buf: chunks.Buffer{Emit: emit, Bytes: o.ChunkBytes}, channels: map[string]*channelFiles{}}
	if s.o.MaxWholeBytes <= 0 {
		s.o.MaxWholeBytes = DefaultMaxWholeBytes
	}
	// In name order, as ParseFiles: the file read later wins a tie.
	byName := make([]int, len(names))
	for i := range byName {
		byName[i] = i
	}
	slices.SortStableFunc(byName, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	s.files = make([]*exportFile, len(names))
	s.byName = byName
	if emit != nil {
		s.buf.Emit = func(turns []transcript.Turn) error {
			if err := emit(turns); err != nil {
				s.emitErr = err
				return err
			}
			return nil
		}
	}
	if err := s.run(); err != nil {
		if s.emitErr != nil {
			return transcript.Result{}, s.emitErr
		}
		return transcript.Result{}, s.firstError(err)
	}
	if emit == nil {
		s.res.Turns = s.buf.Turns
	}
	return s.res, nil
}

// run is StreamFiles' two passes.
func (s *folderStream) run() error {
	for order, i := range s.byName {
		if err := s.scan(order, i); err != nil {
			return err
		}
	}
	if len(s.ids) == 0 {
		return &transcript.Error{File: s.name,
			Message: fmt.Sprintf("none of the %d files is a DiscordChatExporter JSON export", len(s.names))}
	}
	slices.SortFunc(s.ids, snowflakeCompare)
	for _, id := range s.ids {
		if err := s.channel(s.channels[id]); err != nil {
			return err
		}
		delete(s.channels, id) // its per-message state
	}
	return s.buf.Flush()
}

// firstError is the error ParseFiles would give, err's or an earlier
// file's: the first pass decodes only what it needs of each message, so a
// wrong type elsewhere is found by the second, perhaps in a file after one
// with another such error. Each export is read again in name order, whole
// messages decoded (the error path only). err stands when none of them
// fails (a file that changed, or could not be read).
func (s *folderStream) firstError(err error) error {
	for _, i := range s.byName {
		rc, oerr := s.open(i)
		if oerr != nil {
			return err
		}
		br := bufio.NewReaderSize(rc, sniffBytes)
		head, _ := br.Peek(sniffBytes)
		var ferr error
		if Sniff(head) {
			ferr = read(newJSONFile(br, s.display(i)), &export{}, func(*message) error { return nil })
		}
		rc.Close()
		if ferr != nil {
			return ferr
		}
	}
	return err
}

type folderStream struct {
	names []string
	open  func(i int) (io.ReadCloser, error)
	name  string
	o     FilesOptions

	byName   []int         // indexes of names in name order
	files    []*exportFile // by name order; nil for a file that is not an export
	channels map[string]*channelFiles
	ids      []string // of channels, as first read

	res     transcript.Result
	buf     chunks.Buffer
	emitErr error // emit's, which ends the stream as it is
}

// exportFile is what the first pass learnt of one export.
type exportFile struct {
	index, order int // in names; in name order
	display      string
	channel      channel
	exportedAt   time.Time
	messages     int
	bytes        int64
	sorted       bool // its messages in time, then id order
}

// channelFiles are the exports of one channel and, per message id, the
// copy that wins (ParseFiles' newer).
type channelFiles struct {
	files  []*exportFile // in name order
	info   *exportFile   // the latest export: its channel's name and type
	win    map[uint64]winner
	winStr map[string]winner
	kinds  uint8 // idSnowflake, idOther: the forms of its message ids
}

const (
	idDigits uint8 = 1 << iota
	idOther
)

// winner is the copy of a message that wins so far.
type winner struct {
	edited time.Time
	order  int32 // the export's name order
	idx    int32 // the message's position in it
}

// record is a message as the first pass keeps it until its file's end
// (when the file's export time is surely known).
type record struct {
	id     string
	edited time.Time
}

// errStopped ends a read whose reader stopped pulling.
var errStopped = errors.New("stopped")

func (s *folderStream) display(i int) string {
	if s.name != "" {
		return s.name + "/" + s.names[i]
	}
	return s.names[i]
}

// changed is the error of an export that reads otherwise the second time.
func changed(f *exportFile) error {
	return &transcript.Error{File: f.display, Message: "the file changed while it was imported"}
}

// scan is the first pass over names[i], the order-th in name order.
func (s *folderStream) scan(order, i int) error {
	f := &exportFile{index: i, order: order, display: s.display(i), sorted: true}
	rc, err := s.open(i)
	if err != nil {
		return fmt.Errorf("%s: %w", f.display, err)
	}
	defer rc.Close()
	cr := &countingReader{r: rc}
	br := bufio.NewReaderSize(cr, sniffBytes)
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF {
		return fmt.Errorf("%s: read: %w", f.display, err)
	}
	if !Sniff(head) {
		s.res.Skip(ReasonOtherFile)
		return nil
	}
	ex := &export{}
	var recs []record
	var last message // the one before: its id and time
	var kinds uint8
	jf := newJSONFile(br, f.display)
	jf.light = true
	err = read(jf, ex, func(m *message) error {
		if len(recs) > 0 && compareMessages(&last, m) > 0 {
			f.sorted = false
		}
		last.ID, last.time = m.ID, m.time
		kinds |= idKind(m.ID)
		recs = append(recs, record{m.ID, m.edited})
		return nil
	})
	if err != nil {
		return err
	}
	f.channel, f.exportedAt, f.messages, f.bytes = ex.channel, ex.exportedAt, len(recs), cr.n
	s.files[order] = f
	c, ok := s.channels[f.channel.ID]
	if !ok {
		c = &channelFiles{info: f, win: map[uint64]winner{}, winStr: map[string]winner{}}
		s.channels[f.channel.ID] = c
		s.ids = append(s.ids, f.channel.ID)
	}
	if !f.exportedAt.Before(c.info.exportedAt) {
		c.info = f // later, or as late and later in name order
	}
	c.files = append(c.files, f)
	c.kinds |= kinds
	for idx, r := range recs {
		w := winner{edited: r.edited, order: int32(order), idx: int32(idx)}
		if n, ok := snowflake(r.id); ok {
			if prev, dup := c.win[n]; !dup || s.beats(w, prev) {
				c.win[n] = w
			}
		} else if prev, dup := c.winStr[r.id]; !dup || s.beats(w, prev) {
			c.winStr[r.id] = w
		}
	}
	return nil
}

// beats reports whether copy a replaces b, as newer does.
func (s *folderStream) beats(a, b winner) bool {
	if c := a.edited.Compare(b.edited); c != 0 {
		return c > 0
	}
	if c := s.files[a.order].exportedAt.Compare(s.files[b.order].exportedAt); c != 0 {
		return c > 0
	}
	return a.order > b.order
}

// wins reports whether the idx-th message of f, m, is its id's winning
// copy.
func (c *channelFiles) wins(f *exportFile, idx int, m *message) (bool, error) {
	var w winner
	var ok bool
	if n, isNum := snowflake(m.ID); isNum {
		w, ok = c.win[n]
	} else {
		w, ok = c.winStr[m.ID]
	}
	if !ok || idx >= f.messages {
		return false, changed(f)
	}
	return int(w.order) == f.order && int(w.idx) == idx, nil
}

func idKind(id string) uint8 {
	if digits(id) {
		return idDigits
	}
	return idOther
}

// compareMessages is the order of a merged channel: time, then id.
func compareMessages(a, b *message) int {
	if c := a.time.Compare(b.time); c != 0 {
		return c
	}
	return snowflakeCompare(a.ID, b.ID)
}

// channel is the second pass over one channel's exports.
func (s *folderStream) channel(cf *channelFiles) error {
	c := &chain{ch: cf.info.channel, buf: &s.buf}
	var err error
	switch {
	case len(cf.files) == 1:
		err = s.single(c, cf.files[0])
	case s.mergeable(cf):
		c.unique = true
		err = s.merge(c, cf)
	default:
		c.unique = true
		err = s.whole(c, cf)
	}
	for k, n := range c.res.Skipped {
		if s.res.Skipped == nil {
			s.res.Skipped = map[string]int{}
		}
		s.res.Skipped[k] += n
	}
	return err
}

// mergeable reports whether the channel's exports can be merged as they
// are read: each in order, under one order of ids, and not too many.
func (s *folderStream) mergeable(cf *channelFiles) bool {
	if len(cf.files) > maxMergeFiles || cf.kinds == idDigits|idOther {
		return false
	}
	for _, f := range cf.files {
		if !f.sorted {
			return false
		}
	}
	return true
}

// single streams a channel one export holds, in its order, as Stream.
func (s *folderStream) single(c *chain, f *exportFile) error {
	rc, err := s.open(f.index)
	if err != nil {
		return fmt.Errorf("%s: %w", f.display, err)
	}
	defer rc.Close()
	ex := &export{}
	n := 0
	err = read(newJSONFile(rc, f.display), ex, func(m *message) error {
		n++
		return c.add(m)
	})
	if err == nil && (n != f.messages || ex.channel.ID != f.channel.ID) {
		err = changed(f)
	}
	return err
}

// countingReader counts the bytes of a file the first pass reads.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
