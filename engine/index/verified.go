package index

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"scriptorium/workspace/manifest"
)

// A segment file never changes once written, so its checksum needs
// checking once, not at every open: reading every segment cost an open
// ≈10 ms at 100k records and grows with the index. The segments verified
// are recorded beside the index with their signature (size, mtime, ctime,
// inode); one whose signature still matches is not read again. Any write
// to a segment moves its ctime, so a damaged segment is checked again. A
// segment changed within verifiedRacy of its check is not recorded (a
// same-size rewrite in the same clock tick would keep its signature).

var verifiedRacy = 2 * time.Second // a var: tests shorten it

// segSig is one version of a segment file.
type segSig struct {
	size, mtime, ctime int64
	ino                uint64
}

func segSigOf(fi fs.FileInfo) segSig {
	m := manifest.SigOf(fi)
	return segSig{size: m.Size, mtime: m.MtimeNS, ctime: m.CtimeNS, ino: m.Ino}
}

// verifiedFile is the record of the segments of the bleve directory path.
func verifiedFile(path string) string { return path + ".verified" }

// readVerified reads the record; anything unreadable is an empty record.
func readVerified(path string) map[string]segSig {
	out := map[string]segSig{}
	data, err := os.ReadFile(verifiedFile(path))
	if err != nil {
		return out
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var name string
		var s segSig
		if n, err := fmt.Sscanf(sc.Text(), "%s %d %d %d %d", &name, &s.size, &s.mtime, &s.ctime, &s.ino); err != nil || n != 5 {
			return map[string]segSig{}
		}
		out[name] = s
	}
	return out
}

// writeVerified replaces the record, best effort (it is a cache).
func writeVerified(path string, rec map[string]segSig) {
	names := make([]string, 0, len(rec))
	for n := range rec {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	for _, n := range names {
		s := rec[n]
		fmt.Fprintf(&buf, "%s %d %d %d %d\n", n, s.size, s.mtime, s.ctime, s.ino)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".verified-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(buf.Bytes())
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if os.Rename(tmp.Name(), verifiedFile(path)) != nil {
		os.Remove(tmp.Name())
	}
}

// A scorch open that fails while loading can leave bolt's file open, and
// with it bolt's lock (scorch's error path panics before closing bolt). A
// writable open would then time out on our own process's stale lock and
// report the index as in use forever. The root.bolt files whose read-only
// open failed here are remembered by inode, so the writable open, which
// holds the directory lock exclusively, knows the holder is this process's
// leak and discards the damaged index instead.
var leaked sync.Map // inode of root.bolt → true

func rootBoltIno(path string) (uint64, bool) {
	fi, err := os.Lstat(filepath.Join(path, "store", "root.bolt"))
	if err != nil {
		return 0, false
	}
	ino := manifest.SigOf(fi).Ino
	return ino, ino != 0
}

func noteLeakedBolt(path string) {
	if ino, ok := rootBoltIno(path); ok {
		leaked.Store(ino, true)
	}
}

func leakedBolt(path string) bool {
	ino, ok := rootBoltIno(path)
	if !ok {
		return false
	}
	_, yes := leaked.Load(ino)
	return yes
}
