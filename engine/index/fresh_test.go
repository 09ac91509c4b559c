package index

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"scriptorium/workspace/manifest"
)

// TestFingerprint: a file given without a signature is stat'ed (the same
// fingerprint as with its signature), a missing one is named, promotions
// count, and a record's fingerprint is its snapshot's (topics first).
func TestFingerprint(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"topics/a.md", "sources/x/_v2/t.md"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(p), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	sig := func(p string) manifest.Sig {
		fi, err := os.Lstat(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		return manifest.SigOf(fi)
	}
	files := []FileSig{{"topics/a.md", sig("topics/a.md")}, {"sources/x/_v2/t.md", sig("sources/x/_v2/t.md")}}
	fp := Fingerprint(root, files, nil)
	if got := Fingerprint(root, []FileSig{{Path: "topics/a.md"}, files[1]}, nil); got != fp {
		t.Error("a zero signature was not stat'ed")
	}
	if Fingerprint(root, files, map[string]bool{"x/t/1": true}) == fp {
		t.Error("a promotion did not change the fingerprint")
	}
	if Fingerprint(root, []FileSig{files[1], files[0]}, nil) == fp {
		t.Error("the order of the files did not count")
	}
	if Fingerprint(root, append(files, FileSig{Path: "topics/gone.md"}), nil) == fp {
		t.Error("a missing file did not count")
	}
	rec := Files{Sigs: map[string]manifest.Sig{"sources/x/_v2/t.md": files[1].Sig, "topics/a.md": files[0].Sig}}
	if RecordFingerprint(root, rec) != fp {
		t.Error("a record's fingerprint is not its snapshot's")
	}
}

// TestFingerprint_Lines: the lines hashed are exactly fmt's "%s %d %d %d
// %d\n" of each file (an index built before the hand-written appends must
// stay fresh), negative and extreme values included.
func TestFingerprint_Lines(t *testing.T) {
	files := []FileSig{
		{Path: "topics/a b.md", Sig: manifest.Sig{Size: 1, MtimeNS: -5, CtimeNS: 1 << 62, Ino: 1<<64 - 1}},
		{Path: "sources/x/_v2/t.md", Sig: manifest.Sig{Size: 9_000_000_000, MtimeNS: 1764806400123456789, CtimeNS: 0, Ino: 7}},
	}
	h := sha256.New()
	for _, f := range files {
		fmt.Fprintf(h, "%s %d %d %d %d\n", f.Path, f.Sig.Size, f.Sig.MtimeNS, f.Sig.CtimeNS, f.Sig.Ino)
	}
	fmt.Fprintf(h, "promoted %s\n", "p/t/1")
	if got, want := Fingerprint(t.TempDir(), files, map[string]bool{"p/t/1": true}), hex.EncodeToString(h.Sum(nil)); got != want {
		t.Fatalf("Fingerprint = %s, want fmt's %s", got, want)
	}
}
