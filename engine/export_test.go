package engine

import (
	"math/rand/v2"
	"testing"
)

// What the external tests (package engine_test) reach of the internal
// ones: they may import the services, which import the core.

// IncWorld is incWorld: random installs through engines on one workspace.
type IncWorld = incWorld

// NewIncWorld draws random installs through e from the seeds given.
func NewIncWorld(t *testing.T, e *Engine, seed1, seed2 uint64) *IncWorld {
	return &incWorld{t: t, r: rand.New(rand.NewPCG(seed1, seed2)), engines: []*Engine{e}}
}

// Step installs one random change.
func (w *incWorld) Step() { w.step() }

// SetAfterTopicsListed runs f between a walk's listing of topics/ and its
// reads (nil removes it).
func SetAfterTopicsListed(f func()) { afterTopicsListed = f }
