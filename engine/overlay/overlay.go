// Package overlay is a string-keyed map whose versions share what they do
// not change. The core keeps a snapshot's source index (100k entries at
// 100k records) in one; a writer batch changes one archive, and copying
// the whole map for the new snapshot cost a tenth of the batch (issue 26).
// A version made by Clone shares its parent's base and copies only the
// changes made since the base was flattened; once those outgrow a
// sixteenth of the base, Clone flattens them into a new base.
//
// A version is changed only while it is being built: once another version
// has been cloned from it, or it is read concurrently, it must not be
// changed again (the snapshots' rule: never mutated once built).
package overlay

import (
	"iter"
	"maps"
)

// Map is one version. The zero value is not ready: use New.
type Map[V any] struct {
	base  map[string]V // never written once shared (owned is then false)
	delta map[string]change[V]
	owned bool // base is this version's alone: written in place
}

type change[V any] struct {
	v    V
	gone bool // deleted from base
}

// New returns an empty map, built in place until it is cloned.
func New[V any](hint int) *Map[V] {
	return &Map[V]{base: make(map[string]V, hint), owned: true}
}

// Get returns the value of k.
func (m *Map[V]) Get(k string) (V, bool) {
	if c, ok := m.delta[k]; ok {
		if c.gone {
			var zero V
			return zero, false
		}
		return c.v, true
	}
	v, ok := m.base[k]
	return v, ok
}

// Lookup returns the value of k, the zero value when absent.
func (m *Map[V]) Lookup(k string) V {
	v, _ := m.Get(k)
	return v
}

// Set gives k the value v.
func (m *Map[V]) Set(k string, v V) {
	if m.owned {
		m.base[k] = v
		return
	}
	m.delta[k] = change[V]{v: v}
}

// Delete removes k.
func (m *Map[V]) Delete(k string) {
	if m.owned {
		delete(m.base, k)
		return
	}
	if _, inBase := m.base[k]; inBase {
		m.delta[k] = change[V]{gone: true}
	} else {
		delete(m.delta, k)
	}
}

// Clone returns a new version holding what m holds, which Set and Delete
// change without changing m. It costs the changes m carries over its
// base, or one copy of everything when those have grown large.
func (m *Map[V]) Clone() *Map[V] {
	if len(m.delta) <= max(1024, len(m.base)/16) {
		d := make(map[string]change[V], len(m.delta)+64)
		maps.Copy(d, m.delta)
		return &Map[V]{base: m.base, delta: d}
	}
	base := maps.Clone(m.base)
	for k, c := range m.delta {
		if c.gone {
			delete(base, k)
		} else {
			base[k] = c.v
		}
	}
	return &Map[V]{base: base, owned: true}
}

// All yields every key and value, in no order.
func (m *Map[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for k, c := range m.delta {
			if !c.gone && !yield(k, c.v) {
				return
			}
		}
		for k, v := range m.base {
			if _, changed := m.delta[k]; !changed && !yield(k, v) {
				return
			}
		}
	}
}
