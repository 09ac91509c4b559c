package engine_test

import (
	"context"
	"strings"
	"testing"

	"scriptorium/engine"
	"scriptorium/errcode"
)

// TestForgetArchives_TheOnlySanctionedRewrite: archived bytes change only
// through an install of kind forget that owes the forget finish step, and
// only to exactly the core's tombstoning of its sources; anything else is
// refused and changes nothing.
func TestForgetArchives_TheOnlySanctionedRewrite(t *testing.T) {
	ctx := context.Background()
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	before := ftTree(t, state)
	v, err := e.View(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const m1 = "openprogram/group-dev/m1"
	files, removed := engine.ForgetArchives(v, map[string]bool{m1: true})
	if len(files) != 1 || files[groupDev] == nil || len(removed) != 1 || removed[0].SourceID != m1 {
		t.Fatalf("ForgetArchives: %d files, removed %+v", len(files), removed)
	}
	fin := &engine.Finish{Service: "forget", Payload: []byte(`{"selector":{"sources":["` + m1 + `"]},"actor":"owner"}`)}
	tampered := map[string][]byte{groupDev: []byte(strings.Replace(string(files[groupDev]), "forgotten", "remembered", 1))}
	for _, tc := range []struct {
		name string
		ch   engine.Change
		code errcode.Code
	}{
		{"an update", engine.Change{Kind: "update", Archives: files}, errcode.Rejected},
		{"a forget without its finish step", engine.Change{Kind: "forget", Sources: []string{m1}, Archives: files}, errcode.InvalidArgument},
		{"a forget of other bytes", engine.Change{Kind: "forget", Sources: []string{m1}, Archives: tampered, Finish: fin}, errcode.Rejected},
		{"a forget of another source's bytes", engine.Change{Kind: "forget", Sources: []string{"openprogram/group-dev/m3"}, Archives: files, Finish: fin}, errcode.Rejected},
	} {
		if _, err := e.Install(ctx, tc.ch); ftCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		}
	}
	if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
		t.Fatalf("a refused rewrite changed files:\n%s", d)
	}
	if _, err := e.Install(ctx, engine.Change{Kind: "forget", Sources: []string{m1}, Archives: files, Finish: fin}); err != nil {
		t.Fatalf("the sanctioned rewrite: %v", err)
	}
}
