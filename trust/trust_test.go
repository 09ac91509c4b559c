package trust

import (
	"errors"
	"testing"
)

func TestCheck_GateTable(t *testing.T) {
	cases := []struct {
		tier Tier
		op   Op
		ok   bool
	}{
		{Owner, OpUpdate, true}, {Owner, OpPromote, true}, {Owner, OpSleep, true}, {Owner, OpSearch, true},
		{Paired, OpStatus, true}, {Paired, OpUpdate, true},
		{Paired, OpPromote, false}, {Paired, OpSearch, false}, {Paired, OpSleep, false}, {Paired, OpWrite, false},
		{Unpaired, OpStatus, false}, {Unpaired, OpUpdate, false}, {Unpaired, OpGet, false},
		{Owner, Op("no-such-op"), false},
	}
	for _, c := range cases {
		err := Check(c.tier, c.op)
		if (err == nil) != c.ok {
			t.Errorf("Check(%s, %s) = %v, want allowed=%v", c.tier, c.op, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrForbidden) {
			t.Errorf("Check(%s, %s) error %v does not match ErrForbidden", c.tier, c.op, err)
		}
	}
}

func TestCheckEdit_PairedOnlyCreatesOrAppends(t *testing.T) {
	old := []byte("# A\n\nfact ^aaaaaaaa\n")
	cases := []struct {
		name   string
		tier   Tier
		kind   EditKind
		exists bool
		new    []byte
		ok     bool
	}{
		{"owner rewrites", Owner, EditReplace, true, []byte("other"), true},
		{"owner deletes", Owner, EditDelete, true, nil, true},
		{"paired creates", Paired, EditCreate, false, []byte("x"), true},
		{"paired creates over existing", Paired, EditCreate, true, []byte("x"), false},
		{"paired appends", Paired, EditAppend, true, append(append([]byte{}, old...), "\nmore ^bbbbbbbb\n"...), true},
		{"paired replace keeping prefix", Paired, EditReplace, true, append(append([]byte{}, old...), "x"...), true},
		{"paired rewrite", Paired, EditReplace, true, []byte("# A\n\nchanged ^aaaaaaaa\n"), false},
		{"paired one byte changed", Paired, EditReplace, true, []byte("# B\n\nfact ^aaaaaaaa\nmore"), false},
		{"paired delete", Paired, EditDelete, true, nil, false},
		{"paired move", Paired, EditMove, true, old, false},
		{"unpaired create", Unpaired, EditCreate, false, []byte("x"), false},
	}
	for _, c := range cases {
		err := CheckEdit(c.tier, c.kind, "topics/a.md", c.exists, old, c.new)
		if (err == nil) != c.ok {
			t.Errorf("%s: CheckEdit = %v, want allowed=%v", c.name, err, c.ok)
		}
	}
}

func TestBlockTrusted_AllOrNothing(t *testing.T) {
	state := map[string]SourceState{"a": SourceTrusted, "b": SourceTrusted, "p": SourcePending}
	lookup := func(id string) SourceState { return state[id] } // unknown ids are SourceMissing
	cases := []struct {
		cited []string
		want  bool
	}{
		{nil, true},
		{[]string{"a"}, true},
		{[]string{"a", "b"}, true},
		{[]string{"a", "p"}, false},
		{[]string{"a", "gone"}, false},
		{[]string{"p"}, false},
	}
	for _, c := range cases {
		if got := BlockTrusted(c.cited, lookup); got != c.want {
			t.Errorf("BlockTrusted(%v) = %v, want %v", c.cited, got, c.want)
		}
	}
}

func TestSourcePendingNow(t *testing.T) {
	if !SourcePendingNow(true, false) || SourcePendingNow(true, true) || SourcePendingNow(false, false) {
		t.Error("a source is pending only while its frame says so and the ledger holds no promotion")
	}
}

func TestParseTier(t *testing.T) {
	for _, s := range []string{"owner", "paired", "unpaired"} {
		if _, err := ParseTier(s); err != nil {
			t.Errorf("ParseTier(%q): %v", s, err)
		}
	}
	if _, err := ParseTier("admin"); err == nil {
		t.Error("ParseTier accepted admin")
	}
}
