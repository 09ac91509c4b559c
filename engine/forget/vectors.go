package forget

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"scriptorium/engine/cachedb"
	"scriptorium/engine/search"

	"scriptorium/engine"
	"scriptorium/workspace"
)

// vectorFile is the vector cache's name under .scriptorium/.
const vectorFile = workspace.EmbeddingsName

// The vector cache's part of a forget. embeddings.db keys each vector by
// the SHA-256 of the exact text embedded, so a kept key confirms a guessed
// sentence even without the text. The scrub keeps only the vectors of
// texts the workspace still embeds (the cache loses nothing else of use)
// and rewrites the file, because bbolt leaves deleted keys in free pages.
// Working from the files alone, it needs no forgotten text, so recovery
// runs it as it is.

// forgottenVectors counts the vectors in embeddings.db of texts before
// embeds and after no longer does: what a forget removes there. A missing
// file holds none.
func forgottenVectors(e *engine.Engine, before, after *engine.View) (int, error) {
	gone := search.VectorKeys(e.CorpusOf(before))
	for k := range search.VectorKeys(e.CorpusOf(after)) {
		delete(gone, k)
	}
	if len(gone) == 0 {
		return 0, nil
	}
	n := 0
	err := withVectorFile(e, true, func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(_ []byte, b *bolt.Bucket) error {
				for k := range gone {
					if b.Get([]byte(k)) != nil {
						n++
					}
				}
				return nil
			})
		})
	})
	return n, err
}

// scrubVectors drops every vector whose text s does not embed and, if any
// went, replaces the file by a fresh copy of what stays. It returns how
// many vectors went.
func scrubVectors(e *engine.Engine, v *engine.View) (int, error) {
	keep := search.VectorKeys(e.CorpusOf(v))
	dropped := 0
	err := withVectorFile(e, false, func(db *bolt.DB) error {
		live := map[string][][2][]byte{}
		err := db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
				kv := [][2][]byte{}
				err := b.ForEach(func(k, v []byte) error {
					if !keep[string(k)] {
						dropped++
						return nil
					}
					kv = append(kv, [2][]byte{append([]byte(nil), k...), append([]byte(nil), v...)})
					return nil
				})
				live[string(name)] = kv
				return err
			})
		})
		if err != nil || dropped == 0 {
			return err
		}
		// Still holding the old file's lock: no vector lands in it while
		// the copy is made and renamed over it.
		return rewriteVectorFile(e, db.Path(), live)
	})
	return dropped, err
}

// withVectorFile opens embeddings.db (read-only for a count) and runs fn;
// a missing file holds nothing and runs nothing. A damaged file (bbolt
// refuses or panics on it, cachedb) is only a cache that may still hold
// keys in its bytes: the scrub removes it, a count finds nothing in it.
func withVectorFile(e *engine.Engine, readOnly bool, fn func(*bolt.DB) error) error {
	p := workspace.MetaPath(e.Root(), workspace.EmbeddingsName)
	if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	var db *bolt.DB
	err := cachedb.Guard(func() (err error) {
		db, err = bolt.Open(p, workspace.PrivateFile, &bolt.Options{Timeout: 2 * time.Second, ReadOnly: readOnly})
		if err != nil {
			return err
		}
		defer db.Close()
		return fn(db)
	})
	damaged := errors.Is(err, cachedb.ErrDamaged) || errors.Is(err, bolterrors.ErrInvalid) ||
		errors.Is(err, bolterrors.ErrChecksum) || errors.Is(err, bolterrors.ErrVersionMismatch)
	switch {
	case damaged && readOnly:
		return nil
	case damaged:
		if rerr := e.FS().Remove(p); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			return fmt.Errorf("remove the damaged %s: %w", vectorFile, rerr)
		}
		return nil
	case err != nil:
		return fmt.Errorf("%s: %w", vectorFile, err)
	}
	return nil
}

// rewriteVectorFile writes live into a new file beside path, fsynced, and
// renames it over path.
func rewriteVectorFile(e *engine.Engine, path string, live map[string][][2][]byte) error {
	idb := make([]byte, 6)
	_, _ = rand.Read(idb)
	tmp := path + ".scrub-" + hex.EncodeToString(idb)
	ndb, err := bolt.Open(tmp, workspace.PrivateFile, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return fmt.Errorf("rewrite %s: %w", vectorFile, err)
	}
	names := make([]string, 0, len(live))
	for n := range live {
		names = append(names, n)
	}
	sort.Strings(names)
	err = ndb.Update(func(tx *bolt.Tx) error {
		for _, n := range names {
			b, err := tx.CreateBucket([]byte(n))
			if err != nil {
				return err
			}
			for _, kv := range live[n] {
				if err := b.Put(kv[0], kv[1]); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if cerr := ndb.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = e.FS().Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("rewrite %s: %w", vectorFile, err)
	}
	return e.FS().SyncDir(filepath.Dir(path))
}
