package cachedb

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

func TestGuard_PanicIsErrDamaged(t *testing.T) {
	err := Guard(func() error { panic("page 12 names page 7") })
	if !errors.Is(err, ErrDamaged) {
		t.Fatalf("a panic: %v", err)
	}
	if err := Guard(func() error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestOpen_DamagedFileStartsAfresh: garbage, a zeroed file and half a
// database are each opened as a new, empty, working cache.
func TestOpen_DamagedFileStartsAfresh(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good.db")
	db, err := Open(good, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("m"))
		if err != nil {
			return err
		}
		for i := range 2000 {
			if err := b.Put([]byte{byte(i), byte(i >> 8)}, make([]byte, 512)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for name, bytes := range map[string][]byte{
		"garbage": []byte("not a bolt file, not at all, not in the least\x00\xff"),
		"zeroed":  make([]byte, len(data)),
		"halved":  data[:len(data)/2],
	} {
		p := filepath.Join(t.TempDir(), name+".db")
		if err := os.WriteFile(p, bytes, 0o600); err != nil {
			t.Fatal(err)
		}
		db, err := Open(p, time.Second)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		write := func() error {
			return Guard(func() error {
				return db.Update(func(tx *bolt.Tx) error {
					b, err := tx.CreateBucketIfNotExists([]byte("m"))
					if err != nil {
						return err
					}
					return b.Put([]byte("k"), []byte("v"))
				})
			})
		}
		// Damage bolt opened without noticing shows on first use: the
		// caller resets then, as the engine does.
		if err = write(); errors.Is(err, ErrDamaged) {
			if db, err = Reset(db, p, time.Second); err != nil {
				t.Fatalf("%s: reset: %v", name, err)
			}
			err = write()
		}
		if err != nil {
			t.Errorf("%s: the fresh cache does not take a write: %v", name, err)
		}
		db.Close()
	}
}
