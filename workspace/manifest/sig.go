package manifest

import (
	"io"
	"os"
)

// ReadIfSig reads a file if its signature, taken on the open file, is
// want (and it reads want.Size bytes): the version a stat walk saw, or
// nothing.
func ReadIfSig(path string, want Sig) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || SigOf(fi) != want {
		return nil, false
	}
	// One buffer of the size the walk saw: io.ReadAll's doubling cost a
	// cold search a tenth of its CPU on the hit archives (clearing and
	// copying). A file grown or shrunk since is not the version wanted.
	data := make([]byte, want.Size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, false
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 {
		return nil, false
	}
	return data, true
}
