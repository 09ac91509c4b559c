package httpapi

import (
	"context"
	"sync"

	"scriptorium/engine"
	"scriptorium/engine/config"
	"scriptorium/errcode"
	"scriptorium/trust"
	"scriptorium/workspace"
)

// Engines keeps one engine open per tier for a long-lived server
// (`scriptorium serve`). An engine opened once answers every request from
// its snapshot cache, re-reading only the files another process changed
// (they are told apart by size, modification time and inode), where an
// engine per request read and parsed the whole workspace each time.
//
// What an engine per request did on every request is kept: config.toml is
// read first, so a broken file fails the request with its error and
// memory.backend = "none" answers MEMORY_DISABLED (an open engine follows
// a valid config by itself); an engine that fails to open is not kept, so
// the next request tries again; and writes take the workspace write lock
// per transaction, as they always did, so the CLI and the TUI take turns
// with the server. Engines is safe for concurrent use.
type Engines struct {
	stateDir string
	open     Opener

	mu     sync.Mutex
	closed bool
	tiers  map[trust.Tier]*tierEngine
}

// tierEngine is the engine of one tier, opened on the first request. e is
// guarded by Engines.mu; mu is held while opening, so that concurrent
// first requests of a tier open one engine, not several.
type tierEngine struct {
	mu sync.Mutex
	e  *engine.Engine
}

// errShuttingDown answers a request that arrives after Close.
var errShuttingDown = errcode.Errorf(errcode.IO, "the server is shutting down")

// NewEngines returns the engines of the state dir stateDir, opened through
// open on first use.
func NewEngines(stateDir string, open Opener) *Engines {
	return &Engines{stateDir: stateDir, open: open, tiers: map[trust.Tier]*tierEngine{}}
}

// Engine returns the open engine of tier, opening it on first use.
func (es *Engines) Engine(ctx context.Context, tier trust.Tier) (*engine.Engine, error) {
	cfg, err := config.Load(workspace.ConfigPath(es.stateDir))
	if err != nil {
		return nil, err
	}
	if cfg.Disabled() {
		return nil, errcode.ErrDisabled
	}
	te, e, err := es.lookup(tier)
	if e != nil || err != nil {
		return e, err
	}
	te.mu.Lock()
	defer te.mu.Unlock()
	if _, e, err := es.lookup(tier); e != nil || err != nil {
		return e, err // opened while this request waited
	}
	e, err = es.open(ctx, tier)
	if err != nil {
		return nil, err // not kept: the next request tries again
	}
	es.mu.Lock()
	defer es.mu.Unlock()
	if es.closed {
		e.Close()
		return nil, errShuttingDown
	}
	te.e = e
	return e, nil
}

// lookup returns tier's slot and its engine, nil until it is opened.
func (es *Engines) lookup(tier trust.Tier) (*tierEngine, *engine.Engine, error) {
	es.mu.Lock()
	defer es.mu.Unlock()
	if es.closed {
		return nil, nil, errShuttingDown
	}
	te := es.tiers[tier]
	if te == nil {
		te = &tierEngine{}
		es.tiers[tier] = te
	}
	return te, te.e, nil
}

// Close closes every engine; Engine fails afterwards. Call it once the
// server has stopped handling requests.
func (es *Engines) Close() error {
	es.mu.Lock()
	es.closed = true
	var open []*engine.Engine
	for _, te := range es.tiers {
		if te.e != nil {
			open = append(open, te.e)
		}
	}
	es.mu.Unlock()
	var first error
	for _, e := range open {
		if err := e.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}
