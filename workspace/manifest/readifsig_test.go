package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadIfSig: the bytes of the version whose signature is given, and
// nothing once the file changed or went.
func TestReadIfSig(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.md")
	if err := os.WriteFile(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	sig := SigOf(fi)
	if data, ok := ReadIfSig(p, sig); !ok || string(data) != "one" {
		t.Fatalf("unchanged file: %q %v", data, ok)
	}
	if err := os.WriteFile(p, []byte("three"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := ReadIfSig(p, sig); ok {
		t.Error("a changed file was read as the old version")
	}
	if _, ok := ReadIfSig(filepath.Join(filepath.Dir(p), "gone.md"), sig); ok {
		t.Error("a missing file was read")
	}
}
