package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"scriptorium/workspace/archive"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/gofrs/flock"
	bolterrors "go.etcd.io/bbolt/errors"
)

// FormatVersion is the on-disk format of the index: the mapping, the analyzer
// and the internal keys. An index stamped with another version is discarded
// and rebuilt. Bump it with any change to newMapping or to Doc's encoding.
const FormatVersion = 3

// Kinds of documents.
const (
	KindTopic  = "topic"
	KindSource = "source"
)

// Names inside the index directory.
const (
	formatFile = "format"
	lockFile   = "lock"
	bleveDir   = "bleve"
	newDir     = "bleve.new" // Rebuild stages here
	oldDir     = "bleve.old" // the replaced index, until it is removed
	tmpPrefix  = ".tmp-"
)

// Keys in bleve's internal store. They are written in the same batch as the
// documents, so they are exactly as durable and atomic as the documents.
const (
	statsKey   = "scriptorium/stats"
	metaPrefix = "scriptorium/meta/"
)

// rebuildBatchSize bounds the memory of one Rebuild batch.
const rebuildBatchSize = 500

// Doc is one searchable document: a trusted topic block or a source record.
type Doc struct {
	// ID is unique across the index, for example "topic:f888f60e" or
	// "source:<path>#<anchor>". Upserting an existing ID replaces it.
	ID string
	// Kind is KindTopic or KindSource.
	Kind string
	// Path is the workspace-relative file, "topics/people/craig.md" or
	// "sources/openprogram/_v2/sess.md".
	Path string
	// Anchor is "^<block id>" or "source-<hash>".
	Anchor string
	// Ref is the block id (8 hex digits) or the source-id.
	Ref string
	// Time is the record time, or for a block the date of its newest
	// footnote; zero if none. It is kept to the second. Documents without a
	// time never match a Since/Until filter and sort last by date.
	Time time.Time
	// Text is what gets analysed and scored. It is not stored.
	Text string
	// Who is who said it, as far as it is trusted: the speaker id and
	// display name of a trusted source, or of the trusted sources a block
	// cites. A name in the question lifts these documents. Never a name
	// taken from message text.
	Who string
	// Context is scored at a low weight: for a source the turn before it
	// in its conversation, so a reply is found by the question it answers;
	// for a block the sources it cites. Only trusted text belongs here.
	Context string
	// SpeakerID, SpeakerDisplay and SpeakerLabel identify who said a source
	// record; the speaker filter matches any of them. They are ignored for
	// topic blocks, which never match a speaker filter.
	SpeakerID, SpeakerDisplay, SpeakerLabel string
	// SpeakerTrusted is true only for a speaker-id from a valid v2 frame.
	SpeakerTrusted bool
	// Frame is where a v2 record's frame lies in the archive version
	// indexed (archive.FrameSpans), so a hit's text is read with one pread
	// (Hit.Frame); zero when unknown. Stored only: an index built before
	// it was kept has no span, and its hits are read as before.
	Frame archive.Span
	// Visible is false for pending sources and blocks. Such documents are not
	// indexed at all; upserting an invisible doc removes any earlier version.
	Visible bool
}

// Options tunes Open. The zero value gives the defaults.
type Options struct {
	// LockTimeout is how long Open waits for another handle on the same
	// directory to close before returning ErrLocked. Zero means 1 s; a
	// negative value tries once.
	LockTimeout time.Duration

	// ReadOnly opens the index for searches only, beside other read-only
	// handles in any process: a shared lock, and bleve without its
	// persister and merger. Such a handle sees the index as it was when it
	// opened. A writable open waits for every read-only handle to close.
	ReadOnly bool
}

// Index is an open search index. Its methods are safe for concurrent use;
// Apply, Rebuild and SetMeta are serialised, searches run concurrently with
// them.
type Index struct {
	dir      string
	lock     *flock.Flock
	readOnly bool

	// wmu serialises writers (Apply, Rebuild, SetMeta, Close).
	wmu sync.Mutex
	// mu guards the bleve handle: searches hold it shared, Rebuild's swap and
	// Close hold it exclusively.
	mu  sync.RWMutex
	idx bleve.Index // nil once closed

	stats atomic.Pointer[corpusStats]

	// tieFallbacks counts the asks whose tie at the cut-off needed a
	// wider one (ties.go); tests and benchmarks read it.
	tieFallbacks atomic.Int64
	// exactSorts counts the searches asked again in id order: a tie at
	// the cut-off that widening did not settle.
	exactSorts atomic.Int64
	// batches is odd while Apply commits a batch, and moves with every
	// one: top loads fields outside its search's snapshot and checks it.
	batches atomic.Int64
	// pruned counts the documents the pruning top-k skipped on their
	// bound (pruned.go); tests read it.
	pruned        atomic.Int64
	prunedAnswers atomic.Int64
	// noPruning sends every search to bleve's own top-k (tests compare).
	noPruning bool

	// smu guards needsRebuild and reason, so status calls never wait for a
	// long Rebuild holding wmu.
	smu          sync.Mutex
	needsRebuild bool
	reason       string
}

// corpusStats are the BM25 corpus totals of the text field.
type corpusStats struct {
	Docs      int64 `json:"docs"`
	Tokens    int64 `json:"tokens"`
	WhoTokens int64 `json:"who_tokens"`
	CtxTokens int64 `json:"ctx_tokens"`
	DateTerms int64 `json:"date_terms"`
}

// add adds (sign 1) or removes (sign -1) one document's counts.
func (st *corpusStats) add(sign int64, n fieldCounts) {
	st.Docs += sign
	st.Tokens += sign * n.text
	st.WhoTokens += sign * n.who
	st.CtxTokens += sign * n.ctx
	st.DateTerms += sign * n.date
}

// fieldCounts are the analysed token counts of one document's scored
// fields.
type fieldCounts struct{ text, who, ctx, date int64 }

// Open opens the index in dir with default Options.
func Open(dir string) (*Index, error) {
	return OpenWith(dir, Options{})
}

// OpenWith opens the index in dir, creating dir if needed. A missing,
// corrupt or different-version index is replaced by an empty one and
// NeedsRebuild reports true; that is never an error. Errors are reserved for
// a directory that cannot be created or written and for ErrLocked.
func OpenWith(dir string, opts Options) (*Index, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	lk := flock.New(filepath.Join(dir, lockFile))
	if err := acquire(lk, opts.LockTimeout, opts.ReadOnly); err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	ix := &Index{dir: dir, lock: lk, readOnly: opts.ReadOnly}
	if opts.ReadOnly {
		if err := ix.loadReadOnly(); err != nil {
			_ = lk.Unlock()
			return nil, fmt.Errorf("open index %s: %w", dir, err)
		}
		return ix, nil
	}
	if err := ix.load(); err != nil {
		_ = lk.Unlock()
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	return ix, nil
}

// acquire takes the directory lock (shared when readOnly), waiting at
// most timeout.
func acquire(lk *flock.Flock, timeout time.Duration, readOnly bool) error {
	if timeout == 0 {
		timeout = time.Second
	}
	try, tryCtx := lk.TryLock, lk.TryLockContext
	if readOnly {
		try, tryCtx = lk.TryRLock, lk.TryRLockContext
	}
	if timeout < 0 {
		ok, err := try()
		if err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		if !ok {
			return ErrLocked
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ok, err := tryCtx(ctx, 20*time.Millisecond)
	if !ok {
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			return ErrLocked
		}
		return fmt.Errorf("lock: %w", err)
	}
	return nil
}

// load opens what is on disk or, failing that, starts an empty index that
// needs a rebuild.
func (ix *Index) load() error {
	ix.sweep()
	reason := ix.checkFormat()
	if reason == "" {
		idx, st, err := openBleve(filepath.Join(ix.dir, bleveDir))
		switch {
		case errors.Is(err, bolterrors.ErrTimeout) && !leakedBolt(filepath.Join(ix.dir, bleveDir)):
			// Someone outside our lock holds bolt's lock: never wipe an
			// index that may be in use.
			return ErrLocked
		case err != nil:
			reason = "unreadable index: " + err.Error()
		default:
			ix.idx = idx
			ix.stats.Store(st)
			return nil
		}
	}
	// Discard whatever is there. The stamp goes first so a crash part-way
	// leaves an unstamped directory, which is rebuilt again next time.
	if err := removeIfExists(filepath.Join(ix.dir, formatFile)); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(ix.dir, bleveDir)); err != nil {
		return fmt.Errorf("remove old index: %w", err)
	}
	idx, err := createBleve(filepath.Join(ix.dir, bleveDir))
	if err != nil {
		return err
	}
	ix.idx = idx
	ix.stats.Store(&corpusStats{})
	ix.setRebuild(true, reason)
	return nil
}

// loadReadOnly opens what is on disk for searches; it never discards or
// sweeps anything (a writer may be working beside it).
func (ix *Index) loadReadOnly() error {
	if reason := ix.checkFormat(); reason != "" {
		return fmt.Errorf("%w: %s", ErrUnavailable, reason)
	}
	idx, st, err := openBleveWith(filepath.Join(ix.dir, bleveDir), true)
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return ErrLocked
	case err != nil:
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	ix.idx = idx
	ix.stats.Store(st)
	return nil
}

// checkFormat returns why the stamped format is unusable, or "".
func (ix *Index) checkFormat() string {
	b, err := os.ReadFile(filepath.Join(ix.dir, formatFile))
	if errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat(filepath.Join(ix.dir, bleveDir)); serr == nil {
			return "incomplete build (no format stamp)"
		}
		return "missing index"
	}
	if err != nil {
		return "unreadable format stamp: " + err.Error()
	}
	v, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return fmt.Sprintf("bad format stamp %q", truncate(string(b), 40))
	}
	if v != FormatVersion {
		return fmt.Sprintf("format version %d, want %d", v, FormatVersion)
	}
	return ""
}

// sweep removes what an interrupted Rebuild or stamp write left behind.
func (ix *Index) sweep() {
	_ = os.RemoveAll(filepath.Join(ix.dir, newDir))
	_ = os.RemoveAll(filepath.Join(ix.dir, oldDir))
	entries, err := os.ReadDir(ix.dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			_ = os.RemoveAll(filepath.Join(ix.dir, e.Name()))
		}
	}
}

// scorchConfig makes bolt give up instead of waiting forever when a process
// outside our lock holds the index.
func scorchConfig() map[string]interface{} {
	return map[string]interface{}{"bolt_timeout": "1s"}
}

// createBleve makes a new empty index at path (which must not exist) with
// zeroed corpus stats.
func createBleve(path string) (bleve.Index, error) {
	idx, err := newBleve(path)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(corpusStats{})
	if err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("create index: %w", err)
	}
	if err := idx.SetInternal([]byte(statsKey), b); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("create index: %w", err)
	}
	return idx, nil
}

// newBleve makes a new empty index at path (which must not exist) without
// corpus stats: the caller writes them in its first batch.
func newBleve(path string) (bleve.Index, error) {
	m, err := newMapping()
	if err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing(path, m, scorch.Name, bleve.Config.DefaultKVStore, scorchConfig())
	if err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	// bleve makes its meta file 0666 (less the umask); the index is as
	// private as the memory it is made of.
	if err := os.Chmod(filepath.Join(path, "index_meta.json"), 0o600); err != nil {
		_ = idx.Close()
		return nil, fmt.Errorf("create index: %w", err)
	}
	return idx, nil
}

// openBleve opens an existing index and checks that it is usable: it reads,
// it is a scorch index, and its stats agree with its document count. bleve
// may panic on garbage files; that is reported as an error too.
func openBleve(path string) (bleve.Index, *corpusStats, error) { return openBleveWith(path, false) }

// openBleveWith is openBleve, read-only if asked.
func openBleveWith(path string, readOnly bool) (idx bleve.Index, st *corpusStats, err error) {
	defer func() {
		if err != nil && readOnly {
			noteLeakedBolt(path)
		}
	}()
	defer func() {
		if r := recover(); r != nil {
			if idx != nil {
				closeQuietly(idx)
			}
			idx, st, err = nil, nil, fmt.Errorf("panic while opening: %v", r)
		}
	}()
	if err := checkSegments(path); err != nil {
		return nil, nil, err
	}
	cfg := scorchConfig()
	if readOnly {
		cfg["read_only"] = true
	}
	idx, err = bleve.OpenUsing(path, cfg)
	if err != nil {
		return nil, nil, err
	}
	fail := func(e error) (bleve.Index, *corpusStats, error) {
		_ = idx.Close()
		return nil, nil, e
	}
	raw, err := idx.GetInternal([]byte(statsKey))
	if err != nil {
		return fail(fmt.Errorf("read stats: %w", err))
	}
	if raw == nil {
		return fail(errors.New("no corpus stats"))
	}
	st = &corpusStats{}
	if err := json.Unmarshal(raw, st); err != nil {
		return fail(fmt.Errorf("decode stats: %w", err))
	}
	n, err := idx.DocCount()
	if err != nil {
		return fail(fmt.Errorf("count: %w", err))
	}
	if st.Docs < 0 || st.Tokens < 0 || st.WhoTokens < 0 || st.CtxTokens < 0 || st.DateTerms < 0 || uint64(st.Docs) != n {
		return fail(fmt.Errorf("corpus stats say %d docs, index holds %d", st.Docs, n))
	}
	// A search touches the segments' dictionaries, which a stamp and a
	// count alone do not: one lookup in each searched field's, of a term
	// no document holds. (A match-all search, which iterates every
	// document, was 6% of a cold recall at 100k records, issue 26.)
	req := bleve.NewSearchRequestOptions(probeQuery(), 1, 0, false)
	if _, err := idx.Search(req); err != nil {
		return fail(fmt.Errorf("probe search: %w", err))
	}
	return idx, st, nil
}

// closeQuietly closes idx, swallowing panics from a corrupt index.
func closeQuietly(idx bleve.Index) {
	defer func() { _ = recover() }()
	_ = idx.Close()
}

// NeedsRebuild reports whether Open found no usable index and started an
// empty one: the caller must feed every document through Rebuild. It turns
// false after a successful Rebuild.
func (ix *Index) NeedsRebuild() bool {
	ix.smu.Lock()
	defer ix.smu.Unlock()
	return ix.needsRebuild
}

// RebuildReason says why NeedsRebuild is true ("missing index", "format
// version 0, want 1", "unreadable index: …"), or "" when it is false.
func (ix *Index) RebuildReason() string {
	ix.smu.Lock()
	defer ix.smu.Unlock()
	return ix.reason
}

// setRebuild records whether (and why) the index needs a Rebuild.
func (ix *Index) setRebuild(needs bool, reason string) {
	ix.smu.Lock()
	defer ix.smu.Unlock()
	ix.needsRebuild, ix.reason = needs, reason
}

// Dir returns the directory the index lives in.
func (ix *Index) Dir() string { return ix.dir }

// Count returns the number of documents in the index.
func (ix *Index) Count() (uint64, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.idx == nil {
		return 0, ErrClosed
	}
	var n uint64
	err := ix.guard("count", func() (err error) {
		n, err = ix.idx.DocCount()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("count: %w", err)
	}
	return n, nil
}

// Close releases the index and its directory lock. Calling it twice is
// harmless.
func (ix *Index) Close() error {
	ix.wmu.Lock()
	defer ix.wmu.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.lock == nil {
		return nil
	}
	var err error
	if ix.idx != nil {
		if cerr := ix.guard("close", ix.idx.Close); cerr != nil {
			err = fmt.Errorf("close index: %w", cerr)
		}
		ix.idx = nil
	}
	if uerr := ix.lock.Unlock(); uerr != nil && err == nil {
		err = fmt.Errorf("unlock index: %w", uerr)
	}
	ix.lock = nil
	return err
}

// Meta returns the value of a caller-defined key (for example a fingerprint
// of the workspace the index was built from), or "" if unset. Meta lives in
// the index, so it vanishes with it when the index is discarded or rebuilt.
func (ix *Index) Meta(key string) (string, error) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.idx == nil {
		return "", ErrClosed
	}
	var v []byte
	err := ix.guard("meta", func() (err error) {
		v, err = ix.idx.GetInternal([]byte(metaPrefix + key))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("meta %s: %w", key, err)
	}
	return string(v), nil
}

// SetMeta durably sets a caller-defined key; an empty value deletes it. To
// record what the index reflects, call it after the Apply or Rebuild it
// describes, or use ApplyWithMeta.
func (ix *Index) SetMeta(key, value string) error {
	return ix.ApplyWithMeta(nil, nil, map[string]string{key: value})
}

// truncate cuts s to at most n bytes for messages.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
