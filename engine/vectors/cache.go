package vectors

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"scriptorium/engine/cachedb"
	"scriptorium/errcode"
)

// The vector cache is .scriptorium/embeddings.db, a bbolt file beside the
// index: one bucket per embedding model, keyed by the SHA-256 of the text
// embedded, so an unchanged document is never sent twice and a changed one
// simply gets a new key. Like the index it is a cache: deleting it costs
// one re-embedding, never memory.

// vectors returns one vector per text, from the cache or, for the texts it
// lacks, from the embedder in batches, each batch stored as it arrives (an
// interrupted fill keeps what it got).
func (s *Searcher) vectors(ctx context.Context, r Request, texts []string) ([][]float32, error) {
	keys := make([][]byte, len(texts))
	for i, t := range texts {
		sum := sha256.Sum256([]byte(t))
		keys[i] = sum[:]
	}
	out := make([][]float32, len(texts))
	emb := r.Embedder
	bucket := []byte("model:" + emb.Name())
	db, err := cachedb.Open(r.CachePath, time.Second)
	if errors.Is(err, bolterrors.ErrTimeout) {
		db = nil // another process holds the cache: embed without keeping the vectors
	} else if err != nil {
		return nil, errcode.Wrap(errcode.IO, err, "open the vector cache")
	}
	if db != nil {
		defer func() { _ = cachedb.Guard(db.Close) }()
		err := cachedb.Guard(func() error {
			return db.View(func(tx *bolt.Tx) error {
				b := tx.Bucket(bucket)
				if b == nil {
					return nil
				}
				for i, k := range keys {
					if v := b.Get(k); v != nil {
						out[i] = decodeVector(v)
					}
				}
				return nil
			})
		})
		if err != nil { // damaged: start afresh, everything is embedded again
			clear(out)
			if db, err = cachedb.Reset(db, r.CachePath, time.Second); err != nil {
				return nil, errcode.Wrap(errcode.IO, err, "reset the damaged vector cache")
			}
		}
	}
	// The texts still missing, each once.
	var todo []int
	first := map[string]int{}
	for i := range texts {
		if out[i] != nil {
			continue
		}
		if _, seen := first[string(keys[i])]; !seen {
			first[string(keys[i])] = i
			todo = append(todo, i)
		}
	}
	batch := max(1, r.BatchSize)
	progress := s.progress.Load()
	for start := 0; start < len(todo); start += batch {
		idx := todo[start:min(start+batch, len(todo))]
		in := make([]string, len(idx))
		for j, i := range idx {
			in[j] = texts[i]
		}
		vecs, err := embedWithRetry(ctx, emb, in)
		if err != nil {
			return nil, err
		}
		for j, i := range idx {
			out[i] = normalize(vecs[j])
		}
		if db != nil {
			err := cachedb.Guard(func() error {
				return db.Update(func(tx *bolt.Tx) error {
					b, err := tx.CreateBucketIfNotExists(bucket)
					if err != nil {
						return err
					}
					for _, i := range idx {
						if err := b.Put(keys[i], encodeVector(out[i])); err != nil {
							return err
						}
					}
					return nil
				})
			})
			if errors.Is(err, cachedb.ErrDamaged) {
				db, err = cachedb.Reset(db, r.CachePath, time.Second)
			}
			if err != nil {
				return nil, errcode.Wrap(errcode.IO, err, "write the vector cache")
			}
		}
		if progress != nil {
			(*progress)(min(start+batch, len(todo)), len(todo))
		}
	}
	for i := range texts {
		if out[i] == nil {
			out[i] = out[first[string(keys[i])]]
		}
	}
	return out, nil
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
