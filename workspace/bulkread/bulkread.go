// Package bulkread reads many small files into shared buffers instead of
// one allocation each. A fresh one-shot process reads every memory file
// of the workspace (issue 26: 2,000 archives, 33 MB at 100k records), and
// on a virtual machine first touching fresh memory page by page was a
// third of a one-file `update`'s CPU; a buffer of a few megabytes, marked
// for huge pages where the kernel allows it, is touched a few times
// instead. A leaf: it knows files, not the workspace.
//
// Only one-shot processes turn it on (Enable): a file's bytes keep their
// whole buffer alive, so a long-lived engine that reads a changed file
// again would keep the old buffer for its neighbours' sake.
package bulkread

import (
	"errors"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// chunkSize is one shared buffer's size: four huge pages. A file larger
// than a quarter of it gets an allocation of its own, so at most that
// much of a buffer is left unused when the next file does not fit.
const chunkSize = 8 << 20

var (
	enabled atomic.Bool
	mu      sync.Mutex
	chunk   []byte // the current buffer's unused rest
)

// Enable makes ReadFile share buffers for the rest of the process.
func Enable() { enabled.Store(true) }

// ReadFile is os.ReadFile, the bytes in a shared buffer when enabled. The
// slice's capacity is its length: appending to it copies, never writes
// into the next file's bytes.
func ReadFile(name string) ([]byte, error) {
	if !enabled.Load() {
		return os.ReadFile(name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size <= 0 || size > chunkSize/4 {
		return os.ReadFile(name) // its own allocation, sized by os.ReadFile
	}
	n := int(size)
	buf := take(n)
	if _, err := io.ReadFull(f, buf); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return os.ReadFile(name) // shrank since its stat: read it on its own
		}
		return nil, err
	}
	var one [1]byte
	if m, _ := f.Read(one[:]); m > 0 {
		return os.ReadFile(name) // grew since its stat
	}
	return buf, nil
}

// take returns n bytes of the current buffer, starting a new one when
// they do not fit.
func take(n int) []byte {
	mu.Lock()
	defer mu.Unlock()
	if len(chunk) < n {
		chunk = make([]byte, chunkSize)
		adviseHuge(chunk)
	}
	b := chunk[:n:n]
	chunk = chunk[n:]
	return b
}
