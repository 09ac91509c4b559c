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
	data, err := io.ReadAll(f)
	if err != nil || int64(len(data)) != want.Size {
		return nil, false
	}
	return data, true
}
