package index

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// releaseMapped drops this process's resident pages of every read-only,
// shared mapping of a file under dir: the segment files a build's merges
// read through mmap. The kernel counts those pages in the process's RSS
// until they are unmapped, so the final merges of a 1M-record build held
// the whole index's inputs (800 MB) on top of the heap (issue 26). The
// pages stay in the page cache: a later read of one faults it back in, and
// no data can be lost from a read-only shared file mapping. It returns the
// bytes of mappings advised.
func releaseMapped(dir string) int64 {
	data, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0
	}
	prefix := strings.TrimSuffix(dir, "/") + "/"
	var n int64
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		// start-end perms offset dev inode path (which may hold spaces)
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "r--s" {
			continue
		}
		_, rest, _ := strings.Cut(sc.Text(), " "+f[4]+" ")
		if !strings.HasPrefix(strings.TrimLeft(rest, " "), prefix) {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		if !ok {
			continue
		}
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if err1 != nil || err2 != nil || end <= start {
			continue
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(start), uintptr(end-start), syscall.MADV_DONTNEED); errno == 0 {
			n += int64(end - start)
		}
	}
	return n
}
