package manifest

import (
	"errors"
	"strings"
	"testing"
)

func sample() *Manifest {
	m := New()
	m.Put(&Entry{Path: "topics/a.md", Sig: Sig{Size: 5, MtimeNS: 1, CtimeNS: 2, Ino: 3}, Blocks: []string{"0000000a"}, Cites: []string{"sources/x/_v2/t.md"}})
	m.Put(&Entry{Path: "sources/x/_v2/t.md", Sig: Sig{Size: 9, MtimeNS: 4, CtimeNS: 5, Ino: 6}, SHA256: Hash([]byte("123456789")), Records: 2, Pending: []string{"x/t/2"}})
	return m
}

func TestRoundTrip(t *testing.T) {
	m := sample()
	data := m.Encode(42)
	back, err := Decode(data, "m")
	if err != nil {
		t.Fatal(err)
	}
	if string(back.Encode(42)) != string(data) {
		t.Fatalf("round trip changed the manifest:\n%s", data)
	}
	if got := strings.Join(back.Paths(), ","); got != "sources/x/_v2/t.md,topics/a.md" {
		t.Errorf("paths %s", got)
	}
	// One line per file after the header, in path order: a person can diff it.
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], `"version":1`) || !strings.Contains(lines[1], `"path":"sources/x/_v2/t.md"`) {
		t.Errorf("layout:\n%s", data)
	}
}

func TestDecodeRefusesDamage(t *testing.T) {
	good := string(sample().Encode(1))
	lines := strings.SplitAfter(good, "\n")
	for name, data := range map[string]string{
		"empty":          "",
		"not json":       "garbage\n",
		"other version":  strings.Replace(good, `"version":1`, `"version":2`, 1),
		"torn":           good[:len(good)-20],
		"line dropped":   lines[0] + lines[2],
		"line repeated":  lines[0] + lines[1] + lines[1],
		"entry not json": lines[0] + lines[1] + "{\n",
		"entry no path":  lines[0] + lines[1] + `{"size":1}` + "\n",
	} {
		if _, err := Decode([]byte(data), "m"); !errors.Is(err, ErrDamaged) {
			t.Errorf("%s: %v, want ErrDamaged", name, err)
		}
	}
}

func TestDescribes(t *testing.T) {
	m := sample()
	a, s := m.Get("topics/a.md"), m.Get("sources/x/_v2/t.md")
	read := func(b string) func() ([]byte, error) { return func() ([]byte, error) { return []byte(b), nil } }
	if !a.Describes(a.Sig, read("")) {
		t.Error("a non-racy entry is decided by its signature")
	}
	for _, sig := range []Sig{{Size: 6, MtimeNS: 1, CtimeNS: 2, Ino: 3}, {Size: 5, MtimeNS: 9, CtimeNS: 2, Ino: 3}, {Size: 5, MtimeNS: 1, CtimeNS: 9, Ino: 3}, {Size: 5, MtimeNS: 1, CtimeNS: 2, Ino: 9}} {
		if a.Describes(sig, read("")) {
			t.Errorf("signature %+v accepted for %+v", sig, a.Sig)
		}
	}
	if !s.Describes(s.Sig, read("123456789")) {
		t.Error("a racy entry with its bytes rejected")
	}
	if s.Describes(s.Sig, read("123456780")) {
		t.Error("a racy entry with other bytes of the same size accepted")
	}
	if s.Describes(s.Sig, func() ([]byte, error) { return nil, errors.New("gone") }) {
		t.Error("an unreadable racy file accepted")
	}
	var none *Entry
	if none.Describes(a.Sig, read("")) {
		t.Error("no entry describes a file")
	}
}
