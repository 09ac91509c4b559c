package search

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/scale"
	"scriptorium/workspace/treetest"
)

// BenchmarkFirstBuild is a cold process's first search: open, read the
// snapshot, build the index from nothing (issue 26's 1M row). Its figure
// is the peak heap: reported as peak-heap-MiB, and with
// SCRIPTORIUM_BENCH_PEAKHEAP=FILE the heap profile taken at that peak
// (a -memprofile is taken at the end, when the build's memory is gone).
//
//	SCRIPTORIUM_BENCH_STATE=DIR  copy this state dir (scripts/scale's cache) instead of
//	                             generating SCRIPTORIUM_BENCH_RECORDS (default 20000) records
func BenchmarkFirstBuild(b *testing.B) {
	src := os.Getenv("SCRIPTORIUM_BENCH_STATE")
	if src == "" {
		n := 20_000
		if v, err := strconv.Atoi(os.Getenv("SCRIPTORIUM_BENCH_RECORDS")); err == nil {
			n = v
		}
		src = filepath.Join(b.TempDir(), "src")
		if _, err := scale.Workspace(filepath.Join(src, "memory"), n, scale.DefaultSeed); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		b.StopTimer()
		state := filepath.Join(b.TempDir(), "state")
		if err := treetest.CopyTree(src, state); err != nil {
			b.Fatal(err)
		}
		_ = os.RemoveAll(filepath.Join(state, "memory", ".scriptorium"))
		runtime.GC()
		peak := watchPeak(os.Getenv("SCRIPTORIUM_BENCH_PEAKHEAP"))
		b.StartTimer()
		ctx := context.Background()
		e, err := engine.Open(ctx, engine.Options{StateDir: state})
		if err != nil {
			b.Fatal(err)
		}
		c, err := e.Corpus(ctx)
		if err != nil {
			b.Fatal(err)
		}
		st := stateOf(e)
		ix, done, err := st.openIndex()
		if err != nil {
			b.Fatal(err)
		}
		if rebuilt, err := st.syncIndex(ctx, ix, c); err != nil || !rebuilt {
			b.Fatalf("first sync: rebuilt %v, %v", rebuilt, err)
		}
		n, _ := ix.Count()
		done(false)
		b.StopTimer()
		b.ReportMetric(float64(peak()>>20), "peak-heap-MiB")
		b.ReportMetric(float64(n), "docs")
		runtime.KeepAlive(c)
		_ = e.Close()
	}
}

// watchPeak samples the heap in use every 50 ms until the returned
// function is called, which returns the highest figure seen; with a file
// name it writes a heap profile each time a new peak passes the last
// profiled one by 5%, so the file ends as the profile of (about) the peak.
func watchPeak(file string) func() uint64 {
	var mu sync.Mutex
	var peak, profiled uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			mu.Lock()
			if ms.HeapInuse > peak {
				peak = ms.HeapInuse
			}
			write := file != "" && peak > profiled+profiled/20
			if write {
				profiled = peak
			}
			mu.Unlock()
			if write {
				if f, err := os.Create(file); err == nil {
					_ = pprof.Lookup("heap").WriteTo(f, 0)
					_ = f.Close()
				}
			}
		}
	}()
	return func() uint64 {
		close(done)
		<-stopped
		mu.Lock()
		defer mu.Unlock()
		return peak
	}
}
