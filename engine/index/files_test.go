package index

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"scriptorium/workspace/manifest"
)

func TestFiles_RoundTripAndChanged(t *testing.T) {
	ix, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, ok := ix.ReadFiles(); ok {
		t.Fatal("a new index has a record")
	}
	sig := func(n int64) manifest.Sig {
		return manifest.Sig{Size: n, MtimeNS: n * 10, CtimeNS: n * 11, Ino: uint64(n)}
	}
	rec := Files{Sigs: map[string]manifest.Sig{"topics/a b.md": sig(1), "topics/c.md": sig(2), "sources/x/_v2/t.md": sig(3)},
		Promoted: []string{"x/t/1"}}
	ix.WriteFiles(rec)
	got, ok := ix.ReadFiles()
	if !ok || len(got.Sigs) != 3 || got.Sigs["topics/a b.md"] != sig(1) || !slices.Equal(got.Promoted, rec.Promoted) {
		t.Fatalf("read back %+v %v", got, ok)
	}
	now := map[string]manifest.Sig{
		"topics/a b.md":      sig(1), // unchanged
		"topics/c.md":        sig(2), // same signature, racy, other bytes
		"sources/x/_v2/t.md": {},     // read through a stage: unknown
		"topics/new.md":      sig(4), // new
	}
	racy := map[string]string{"topics/c.md": manifest.Hash([]byte("indexed")), "topics/a b.md": manifest.Hash([]byte("same"))}
	content := map[string]string{"topics/c.md": "edited", "topics/a b.md": "same"}
	files, ids := got.Changed(now, func(p string) []byte { return []byte(content[p]) }, racy, []string{"x/t/2"})
	if want := []string{"sources/x/_v2/t.md", "topics/c.md", "topics/new.md"}; !slices.Equal(files, want) {
		t.Errorf("changed %v, want %v", files, want)
	}
	if len(ids) != 2 || !ids["x/t/1"] || !ids["x/t/2"] {
		t.Errorf("promotions changed %v", ids)
	}
	// A damaged record is no record.
	if err := os.WriteFile(filepath.Join(ix.Dir(), filesName), []byte("f 1 2 x 4 topics/a.md\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := ix.ReadFiles(); ok {
		t.Error("a damaged record was read")
	}
}

// TestDocIDsIn: the ids of exactly the named files' documents, as DocsIn
// lists them: not a file under the same directory, not a file whose path
// starts with the name.
func TestDocIDsIn(t *testing.T) {
	ix := mustOpen(t)
	var docs []Doc
	for _, p := range []string{"topics/core.md", "topics/core.md.bak.md", "topics/core/x.md", "topics/other.md"} {
		for _, id := range []string{"0000000a", "0000000b"} {
			docs = append(docs, Doc{ID: "topic:" + p + "#^" + id, Kind: KindTopic, Path: p, Anchor: "^" + id, Ref: id, Text: "tea " + p, Visible: true})
		}
	}
	if err := ix.Apply(docs, nil); err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{"topics/core.md"}, {"topics/core.md", "topics/other.md"}, {"topics/none.md"}, nil} {
		ids, err := ix.DocIDsIn(paths)
		if err != nil {
			t.Fatal(err)
		}
		refs, err := ix.DocsIn(paths)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, d := range docs {
			if slices.Contains(paths, d.Path) {
				want = append(want, d.ID)
			}
		}
		slices.Sort(want)
		got := slices.Clone(ids)
		slices.Sort(got)
		if !slices.Equal(got, want) || len(refs) != len(ids) {
			t.Errorf("%v: ids %v, want %v (DocsIn: %d)", paths, got, want, len(refs))
		}
	}
}
