package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"scriptorium/engine/config"
	"scriptorium/engine/model"
	"scriptorium/engine/records"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
	"scriptorium/workspace/manifest"
)

// Options configures Open. Every field is optional except StateDir.
type Options struct {
	// StateDir is the state directory; the workspace is StateDir/memory.
	StateDir string
	// Config, if nil, is read from StateDir/config.toml.
	Config *config.Config
	// Tier is the caller's authority tier; the zero value means owner.
	Tier trust.Tier
	// Interactive callers (CLI update/promote/sleep, the TUI) wait for the
	// write lock; background callers give up after 1 s with LOCK_BUSY.
	Interactive bool
	// OnLockWait is called when an interactive caller starts waiting for
	// the write lock, so it can say so.
	OnLockWait func()
	// Holder names this process in the lock-holder record while it holds
	// the write lock ("scriptorium update"); "" means the program name.
	Holder string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Getenv reads environment variables (API keys); nil means os.Getenv.
	Getenv func(string) string
	// CrashAt names a test-only crash point inside install: the process
	// exits at once when it is reached. Empty in production.
	CrashAt string
	// FS replaces the filesystem the workspace and the install write
	// through, for tests only (fault injection and power-loss simulation,
	// package workspace/faultfs). Nil in production: the real filesystem.
	FS workspace.FS
	// Model replaces the configured model provider (tests, embedding hosts).
	Model model.Model
	// Distiller distils what Promote promotes (package writer provides
	// it); nil leaves promoted sources for backfill.
	Distiller Distiller
	// LongLived marks a front end that lives for many calls (the TUI,
	// serve, mcp, the daemon): it keeps its snapshot in memory, watched
	// for changes (snapshot_watch.go), and a read-only handle on the
	// search index between searches, which other processes' searches
	// share and a writer anywhere gets back within ~50 ms
	// (index_reader.go). A one-shot engine (a CLI verb) instead reads
	// only what each answer needs (search_fast.go, manifest.go).
	LongLived bool
}

// Engine is an open memory workspace. It is safe for use by several
// goroutines; writes serialise on the workspace's write lock.
type Engine struct {
	opts    Options
	doubted doubtedJournals // journals this process could neither make durable nor withdraw
	cfg     config.Config
	cfgMu   sync.Mutex // guards cfg and cfgSig (config.toml is followed)
	cfgSig  manifest.Sig
	state   string
	ws      *workspace.Workspace
	rec     *records.Store // state.db: history, the promotion ledger, finish steps

	mu sync.Mutex // guards derived-view rebuilds within this process

	locks       atomic.Int32 // write locks this engine holds (finish.go)
	finishRetry atomic.Int64 // when reads may next try a failed finish step, unix ns (finish.go)

	partialReads    atomic.Int64 // verbs answered from a partial snapshot, for tests
	indexTrustReads atomic.Int64 // TrustedTopics answered from the index, for tests

	loadMu    sync.Mutex // serialises snapshot loads
	closeOnce sync.Once
	cacheMu   sync.Mutex
	cache     *snapshot // the last snapshot read, reused for unchanged files
	// cacheGen is the change watch's generation when cache was walked;
	// cacheRacy says cache holds a racy file (it is walked again).
	cacheGen  uint64
	cacheRacy bool
	watchOnce sync.Once
	watch     workspace.TreeWatch // a long-lived engine's inotify watch (snapshot_watch.go)

	attachMu sync.Mutex
	attached map[string]any // what services keep with the engine (search_service.go)

	inc incState // incremental derived views and validation (derived_cache.go, depindex.go)
}

// Open opens (creating if needed) the workspace of opts.StateDir. It
// refuses with MEMORY_DISABLED before touching the disk when the backend is
// "none". Opening finishes any interrupted install (roll forward or
// discard) and moves an old layout aside.
func Open(ctx context.Context, opts Options) (*Engine, error) {
	if opts.StateDir == "" {
		return nil, errcode.Errorf(errcode.InvalidArgument, "no state directory given")
	}
	if opts.Tier == "" {
		opts.Tier = trust.Owner
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	var cfg config.Config
	if opts.Config != nil {
		cfg = *opts.Config
	} else {
		c, err := config.Load(workspace.ConfigPath(opts.StateDir))
		if err != nil {
			return nil, err
		}
		cfg = c
	}
	if cfg.Disabled() {
		return nil, errcode.ErrDisabled
	}
	e := &Engine{opts: opts, cfg: cfg, state: opts.StateDir}
	e.cfgSig = configSig(workspace.ConfigPath(opts.StateDir))
	memDir := workspace.MemoryDir(opts.StateDir)
	if err := os.MkdirAll(memDir, workspace.PrivateDir); err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "create workspace %s", memDir)
	}
	metaDir := filepath.Join(memDir, workspace.MetaDir)
	if err := os.MkdirAll(metaDir, workspace.PrivateDir); err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "create %s", metaDir)
	}
	rec, err := records.Open(metaDir)
	if err != nil {
		// The path tells a person which file to look at; the cause says
		// what went wrong with it ("migrate to version 3: …").
		return nil, errcode.Wrap(errcode.IO, err, "open %s", filepath.Join(metaDir, workspace.StateDBName))
	}
	e.rec = rec
	// Opening takes the write lock to finish an interrupted install, so a
	// background caller must give up after 1 s here too, not hang.
	openCtx := ctx
	if !opts.Interactive {
		var cancel context.CancelFunc
		openCtx, cancel = context.WithTimeout(ctx, workspace.BackgroundLockWait)
		defer cancel()
	}
	ws, err := workspace.OpenContext(openCtx, memDir, &workspace.Options{
		Recover:       e.recover,
		NeedsRecovery: e.needsRecovery,
		OnLockWait:    opts.OnLockWait,
		Holder:        opts.Holder,
		FS:            opts.FS,
	})
	if err != nil {
		rec.Close()
		return nil, classifyLockErr(err, "open workspace")
	}
	e.ws, e.inc.idx.dir = ws, ws.RuntimeDir()
	joinShared(ws.Root())
	return e, nil
}

// Close releases the engine's resources.
func (e *Engine) Close() error {
	e.closeAttached()
	e.watch.Close()
	e.closeOnce.Do(func() {
		if e.ws != nil {
			leaveShared(e.ws.Root())
		}
	})
	if e.rec != nil {
		return e.rec.Close()
	}
	return nil
}

// Config returns the configuration in force.
//
// A long-lived engine (the TUI, the daemon, the hosts) follows edits of
// config.toml: when the file changed since it was read, it is read again,
// so core.md, its report and the gauge agree with the budget on disk. A
// file that became invalid keeps the last valid configuration (the next
// one-shot verb reports the error).
func (e *Engine) Config() config.Config {
	e.cfgMu.Lock()
	defer e.cfgMu.Unlock()
	if e.opts.Config != nil {
		return e.cfg
	}
	path := workspace.ConfigPath(e.state)
	sig := configSig(path)
	if sig != e.cfgSig {
		if c, err := config.Load(path); err == nil && !c.Disabled() {
			e.cfg = c
		}
		e.cfgSig = sig
	}
	return e.cfg
}

// configSig identifies a version of config.toml (manifest.SigOf: size,
// modification and change times, inode); the zero Sig when it does not exist.
func configSig(path string) manifest.Sig {
	fi, err := os.Stat(path)
	if err != nil {
		return manifest.Sig{}
	}
	return manifest.SigOf(fi)
}

// Root returns the workspace directory.
func (e *Engine) Root() string { return e.ws.Root() }

// StateDir returns the state directory.
func (e *Engine) StateDir() string { return e.state }

func classifyLockErr(err error, what string) error {
	if errors.Is(err, workspace.ErrLockBusy) {
		return &errcode.Error{Code: errcode.LockBusy, Message: what + ": the write lock is held by another writer; try again", Err: err}
	}
	var ee *errcode.Error
	if errors.As(err, &ee) {
		return ee
	}
	if strings.HasPrefix(err.Error(), what) {
		// The cause names the operation already ("open workspace /x: …"):
		// saying it twice helps nobody.
		return &errcode.Error{Code: errcode.IO, Message: err.Error(), Err: err}
	}
	return errcode.Wrap(errcode.IO, err, "%s", what)
}

// gate passes an operation through the one trust table.
func (e *Engine) gate(op trust.Op) error {
	if err := trust.Check(e.opts.Tier, op); err != nil {
		return &errcode.Error{Code: errcode.Forbidden, Message: err.Error(), Err: err}
	}
	return nil
}

// snapshot reads the whole workspace with the current promotion ledger.
// Loads are serialised: callers arriving together (the TUI loads every
// pane at once) wait for one read and then reuse it, instead of each
// reading the whole workspace.
func (e *Engine) snapshot(ctx context.Context) (*snapshot, error) { return e.read(ctx, false) }

// read is snapshot, or with trustOnly on an engine holding and sharing none
// (a one-shot core) a trust-only one (loadFiles), never cached or shared.
func (e *Engine) read(ctx context.Context, trustOnly bool) (*snapshot, error) {
	e.finishOwed(ctx)
	e.loadMu.Lock()
	defer e.loadMu.Unlock()
	promoted, err := e.rec.Promoted(ctx)
	if err != nil {
		// The ledger names what it read ("read promotion ledger: …"); the
		// file is what a person must look at.
		return nil, errcode.Wrap(errcode.IO, err, "state.db")
	}
	if e.opts.LongLived {
		e.watchOnce.Do(e.startWatch)
	}
	gen, watched := e.watch.Poll()
	e.cacheMu.Lock()
	if c := e.cache; c != nil && watched && e.cacheGen == gen && sameSet(c.promoted, promoted) && !e.cacheRacy {
		e.cacheMu.Unlock()
		return c, nil // nothing under topics/ or sources/ moved (snapshot_watch.go)
	}
	prev := e.cache
	e.cacheMu.Unlock()
	if shared := newestShared(e.ws.Root()); shared != nil {
		prev = shared
	}
	if trustOnly && prev == nil && !e.opts.LongLived {
		return loadSnapshotDoubting(e.ws.Root(), promoted, nil, e.doubted.has, true)
	}
	s, err := loadSnapshotDoubting(e.ws.Root(), promoted, prev, e.doubted.has, false)
	if err != nil {
		return nil, err
	}
	racy := s.hasRacy()
	e.cacheMu.Lock()
	e.cache, e.cacheGen, e.cacheRacy = s, gen, racy
	e.cacheMu.Unlock()
	publishShared(e.ws.Root(), s)
	return s, nil
}

// warm reports whether the engine holds a snapshot from an earlier call.
func (e *Engine) warm() bool {
	e.cacheMu.Lock()
	defer e.cacheMu.Unlock()
	return e.cache != nil
}

// Verify validates the whole workspace (SPEC §3–§4). It never changes a
// memory file.
func (e *Engine) Verify(ctx context.Context) (result.VerifyReport, error) {
	if err := e.gate(trust.OpVerify); err != nil {
		return result.VerifyReport{}, err
	}
	s, err := e.snapshot(ctx)
	if err != nil {
		return result.VerifyReport{}, err
	}
	v := s.violations()
	if v == nil {
		v = []errcode.Violation{}
	}
	return result.VerifyReport{OK: len(v) == 0, Violations: v}, nil
}
