package engine

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// bbolt trusts its pages: a damaged embeddings.db makes it panic (an
// invalid freelist, a page that names another id) where it could return
// an error, and a file cut short under its mapping faults. The cache is
// only a cache, so damage is repaired by starting it afresh.

var errDamagedCache = errors.New("the vector cache is damaged")

// cacheGuard runs fn on the vector cache, turning a panic or a memory
// fault into errDamagedCache.
func cacheGuard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", errDamagedCache, r)
		}
	}()
	return fn()
}

// openVectorCache opens the cache at p; one bolt refuses as not a valid
// database (or panics opening) is removed and created afresh. A cache
// held by another process is ErrTimeout.
func openVectorCache(p string) (*bolt.DB, error) {
	var db *bolt.DB
	err := cacheGuard(func() (err error) {
		db, err = bolt.Open(p, 0o600, &bolt.Options{Timeout: time.Second})
		return err
	})
	switch {
	case err == nil, errors.Is(err, bolterrors.ErrTimeout):
		return db, err
	case errors.Is(err, errDamagedCache), errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum),
		errors.Is(err, bolterrors.ErrVersionMismatch):
		return resetVectorCache(nil, p)
	}
	return nil, err
}

// resetVectorCache closes db (if any), removes the damaged file at p and
// opens a new, empty cache there.
func resetVectorCache(db *bolt.DB, p string) (*bolt.DB, error) {
	if db != nil {
		_ = cacheGuard(db.Close)
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return bolt.Open(p, 0o600, &bolt.Options{Timeout: time.Second})
}
