// Package cachedb opens a bbolt file that is only a cache (the vector
// cache, embeddings.db) so that damage costs a refill, never the process.
// bbolt trusts its pages: a damaged file makes it panic (an invalid
// freelist, a page that names another id) where it could return an error,
// and a file cut short under its mapping faults. Guard turns both into
// ErrDamaged, and a damaged file is removed and started afresh.
package cachedb

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged is a cache file bbolt panicked on.
var ErrDamaged = errors.New("the cache file is damaged")

// Guard runs fn on a cache, turning a panic or a memory fault into
// ErrDamaged.
func Guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrDamaged, r)
		}
	}()
	return fn()
}

// Open opens the cache at p, waiting up to timeout for another process
// (bolterrors.ErrTimeout after that). A file bbolt refuses as not a valid
// database, or panics opening, is removed and created afresh.
func Open(p string, timeout time.Duration) (*bolt.DB, error) {
	var db *bolt.DB
	err := Guard(func() (err error) {
		db, err = bolt.Open(p, 0o600, &bolt.Options{Timeout: timeout})
		return err
	})
	switch {
	case err == nil, errors.Is(err, bolterrors.ErrTimeout):
		return db, err
	case errors.Is(err, ErrDamaged), errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum),
		errors.Is(err, bolterrors.ErrVersionMismatch):
		return Reset(nil, p, timeout)
	}
	return nil, err
}

// Reset closes db (if any), removes the damaged file at p and opens a new,
// empty cache there.
func Reset(db *bolt.DB, p string, timeout time.Duration) (*bolt.DB, error) {
	if db != nil {
		_ = Guard(db.Close)
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return bolt.Open(p, 0o600, &bolt.Options{Timeout: timeout})
}
