package engine_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace"
)

// TestTransaction_Ops applies each op of SPEC §6 to the "valid" fixture and
// checks the resulting bytes, the revision, the history row and that the
// workspace still verifies.
func TestTransaction_Ops(t *testing.T) {
	const newFile = "# New\n\nA brand new fact.[^e-9000000001] ^90000001\n\n" +
		"[^e-9000000001]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m1](../../" + groupDev + "#" + anchorM1 + ")\n"
	craig := "topics/people/craig.md"
	cases := []struct {
		name    string
		edits   []result.Edit
		changed []string
		check   func(t *testing.T, state string, old map[string]string)
	}{
		{
			name:    "create",
			edits:   []result.Edit{ftCreate("topics/new/fact.md", newFile)},
			changed: []string{"topics/new/fact.md"},
			check: func(t *testing.T, state string, _ map[string]string) {
				if got := ftRead(t, state, "topics/new/fact.md"); got != newFile {
					t.Errorf("created file holds %q", got)
				}
			},
		},
		{
			name:    "replace",
			edits:   []result.Edit{ftReplace("topics/projects/legacy.md", strings.Replace(ftFixtureFile(t, "valid", "topics/projects/legacy.md"), "agreed to tea", "agreed to green tea", 1))},
			changed: []string{"topics/projects/legacy.md"},
			check: func(t *testing.T, state string, _ map[string]string) {
				if got := ftRead(t, state, "topics/projects/legacy.md"); !strings.Contains(got, "agreed to green tea.[^e-7a8b9cadb4] ^b1ab1ab1") {
					t.Errorf("replaced file holds %q", got)
				}
			},
		},
		{
			name:    "append",
			edits:   []result.Edit{ftAppend(craig, "Craig also likes chess. ^90000002\n")},
			changed: []string{craig},
			check: func(t *testing.T, state string, _ map[string]string) {
				old := ftFixtureFile(t, "valid", craig)
				// The old bytes stay a prefix; one blank line separates.
				if got, want := ftRead(t, state, craig), old+"\nCraig also likes chess. ^90000002\n"; got != want {
					t.Errorf("appended file:\n%q\nwant\n%q", got, want)
				}
			},
		},
		{
			name:    "delete",
			edits:   []result.Edit{ftDelete(craig)},
			changed: []string{craig},
			check: func(t *testing.T, state string, _ map[string]string) {
				if ftExists(state, craig) {
					t.Errorf("%s still exists", craig)
				}
			},
		},
		{
			name:    "move rewrites relative paths",
			edits:   []result.Edit{ftMove(craig, "topics/people/team/craig.md")},
			changed: []string{craig, "topics/people/team/craig.md"},
			check: func(t *testing.T, state string, _ map[string]string) {
				old := ftFixtureFile(t, "valid", craig)
				want := strings.NewReplacer(
					"](../core.md#", "](../../core.md#",
					"](../projects/", "](../../projects/",
					"](../../sources/", "](../../../sources/",
				).Replace(old)
				if got := ftRead(t, state, "topics/people/team/craig.md"); got != want {
					t.Errorf("moved file:\n%s\nwant\n%s", got, want)
				}
				if !strings.Contains(want, "[above](#^c0ffee01)") {
					t.Errorf("same-file link was rewritten")
				}
				if ftExists(state, craig) {
					t.Errorf("%s still exists after the move", craig)
				}
			},
		},
		{
			name: "several ops at once",
			edits: []result.Edit{
				ftCreate("topics/new/fact.md", newFile),
				ftMove(craig, "topics/craig.md"),
				ftAppend("topics/new/fact.md", "More. ^90000003\n"),
			},
			changed: []string{"topics/craig.md", "topics/new/fact.md", craig},
			check: func(t *testing.T, state string, _ map[string]string) {
				if got := ftRead(t, state, "topics/new/fact.md"); got != newFile+"\nMore. ^90000003\n" {
					t.Errorf("fact.md holds %q", got)
				}
				if got := ftRead(t, state, "topics/craig.md"); !strings.Contains(got, "](core.md#^f888f60e)") ||
					!strings.Contains(got, "](../sources/cli/_v2/sess-1.md#") {
					t.Errorf("moved craig.md not rebased:\n%s", got)
				}
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := ftFixture(t, "valid")
			e := ftOpen(t, state)
			ctx := context.Background()
			before := ftTree(t, state)
			res, err := e.Update(ctx, ftTx(0, c.edits...))
			if err != nil {
				t.Fatalf("update: %v", err)
			}
			if res.Revision != 1 || !slices.Equal(res.Changed, c.changed) {
				t.Errorf("result %+v, want revision 1 changed %v", res, c.changed)
			}
			c.check(t, state, before)
			ftVerifyClean(t, e)
			if got := ftRevision(t, e); got != 1 {
				t.Errorf("revision %d after one install", got)
			}
			h := ftHistory(t, e)
			if len(h) != 1 || h[0].Revision != 1 || h[0].Kind != "update" || h[0].Actor != "owner" ||
				!slices.Equal(h[0].Changed, c.changed) || h[0].Time != "2026-08-11T09:00:00Z" {
				t.Fatalf("history %+v", h)
			}
			for _, p := range c.changed {
				if d := h[0].Diffs[p]; !strings.HasPrefix(d, "--- ") || !strings.Contains(d, "\n+++ ") {
					t.Errorf("history diff of %s is not a unified diff: %q", p, d)
				}
			}
		})
	}
}

// ftFixtureFile reads a file of a fixture workspace straight from testdata.
func ftFixtureFile(t *testing.T, fixture, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "ws", fixture, "state", "memory", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestTransaction_NoChange: a transaction whose edits change no byte
// installs nothing and keeps the revision.
func TestTransaction_NoChange(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	core := ftRead(t, state, "topics/core.md")
	res, err := e.Update(context.Background(), ftTx(0, ftReplace("topics/core.md", core)))
	if err != nil || res.Revision != 0 || len(res.Changed) != 0 {
		t.Fatalf("no-op update: %+v, %v", res, err)
	}
	if h := ftHistory(t, e); len(h) != 0 {
		t.Errorf("no-op update wrote history %+v", h)
	}
}

// TestTransaction_PathRules: every bad path of one transaction is listed,
// and the transaction is rejected whole.
func TestTransaction_PathRules(t *testing.T) {
	state := ftFixture(t, "valid")
	mem := filepath.Join(state, "memory")
	// A symlinked directory inside topics/: writing through it could land
	// anywhere.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(mem, "topics", "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(mem, "topics", "dir.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := ftOpen(t, state)
	body := "# X\n\nFine. ^91000001\n"
	bad := []result.Edit{
		ftCreate("sources/openprogram/_v2/x.md", body), // outside topics/
		ftCreate("core.md", body),                      // derived view, outside topics/
		ftCreate("topics/notes.txt", body),             // not .md
		ftCreate("topics/.md", body),                   // no name
		ftCreate("topics/../sources/x.md", body),       // traversal
		ftCreate("topics/a/../../x.md", body),          // traversal
		ftCreate("/etc/topics/x.md", body),             // absolute
		ftCreate(mem+"/topics/x.md", body),             // absolute, inside
		ftCreate("./topics/x.md", body),                // not clean
		ftCreate("topics//x.md", body),                 // not clean
		ftCreate(`topics\x.md`, body),                  // backslash
		ftCreate("topics/elsewhere/x.md", body),        // symlink component
		ftCreate("topics/dir.md", body),                // a directory
		ftCreate("", body),                             // empty
		ftMove("topics/core.md", "topics/../core.md"),  // bad destination
		ftMove("topics/core.md", "topics/elsewhere/core.md"),
		ftDelete("topics/elsewhere/x.md"),
	}
	// One good edit rides along and must not be installed either.
	edits := append([]result.Edit{ftCreate("topics/good.md", body)}, bad...)
	before := ftTree(t, state)
	_, err := e.Update(context.Background(), ftTx(0, edits...))
	if code := ftCode(err); code != errcode.Rejected && code != errcode.InvalidArgument {
		t.Fatalf("update: %v (code %s), want REJECTED", err, code)
	}
	vs := ftViolations(err)
	if len(vs) != len(bad) {
		t.Errorf("%d violations for %d bad edits:\n%v", len(vs), len(bad), vs)
	}
	for i, ed := range bad {
		found := false
		for _, v := range vs {
			if v.Path == ed.Path && strings.Contains(v.Message, fmt.Sprintf("edit %d ", i+1)) {
				found = true
			}
		}
		if !found {
			t.Errorf("edit %d (%s %q) is not listed: %v", i+1, ed.Op, ed.Path, vs)
		}
	}
	if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
		t.Errorf("a rejected transaction changed the workspace:\n%s", d)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written through the symlink: %v", entries)
	}
}

// TestTransaction_ValidationRejects: each rule of the would-be workspace
// rejects the transaction, and one transaction with every kind of damage
// lists every violation.
func TestTransaction_ValidationRejects(t *testing.T) {
	craig := "topics/people/craig.md"
	cases := []struct {
		name string
		edit result.Edit
		code string // violation code
	}{
		{"create existing", ftCreate("topics/core.md", "# X\n\nx ^92000001\n"), "exists"},
		{"replace missing", ftReplace("topics/none.md", "# X\n\nx ^92000002\n"), "not_found"},
		{"delete missing", ftDelete("topics/none.md"), "not_found"},
		{"move missing", ftMove("topics/none.md", "topics/none2.md"), "not_found"},
		{"move onto existing", ftMove(craig, "topics/core.md"), "exists"},
		{"missing block id", ftCreate("topics/a.md", "# A\n\nNo id here.\n"), "missing_block_id"},
		{"bad block id", ftCreate("topics/a.md", "# A\n\nUpper. ^ABCDEF12\n"), "bad_block_id"},
		{"duplicate block id across files", ftCreate("topics/a.md", "# A\n\nReused. ^f888f60e\n"), "duplicate_block_id"},
		{"undefined footnote", ftCreate("topics/a.md", "# A\n\nCites.[^e-9200000001] ^92000003\n"), "undefined_footnote"},
		{"citation to a missing frame", ftCreate("topics/a.md", "# A\n\nCites.[^e-9200000002] ^92000004\n\n"+
			"[^e-9200000002]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m9](../"+groupDev+"#source-00000000)\n"), "unresolved_source"},
		{"citation to a missing archive", ftCreate("topics/a.md", "# A\n\nCites.[^e-9200000003] ^92000005\n\n"+
			"[^e-9200000003]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m1](../sources/x/_v2/y.md#"+anchorM1+")\n"), "unresolved_source"},
		{"source-id mismatch", ftCreate("topics/a.md", "# A\n\nCites.[^e-9200000004] ^92000006\n\n"+
			"[^e-9200000004]: Time: `2026-08-10`; Sources: [openprogram/group-dev/m2](../"+groupDev+"#"+anchorM1+")\n"), "unresolved_source"},
		{"link to a missing file", ftCreate("topics/a.md", "# A\n\nSee [x](gone.md#^12345678). ^92000007\n"), "broken_link"},
		{"link to a missing block", ftCreate("topics/a.md", "# A\n\nSee [x](core.md#^12345678). ^92000008\n"), "broken_link"},
		{"delete breaks a link", ftDelete("topics/projects/legacy.md"), "broken_link"},
		{"move breaks an incoming link", ftMove("topics/projects/legacy.md", "topics/legacy.md"), "broken_link"},
		{"invalid UTF-8", ftCreate("topics/a.md", "# A\n\nbad \xff byte ^92000009\n"), "invalid_utf8"},
		{"malformed definition", ftCreate("topics/a.md", "# A\n\nCites.[^e-9200000005] ^9200000a\n\n[^e-9200000005]: Time: yesterday\n"), "bad_footnote_definition"},
	}
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	before := ftTree(t, state)
	var all []result.Edit
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.Update(ctx, ftTx(0, c.edit))
			if code := ftCode(err); code != errcode.Rejected {
				t.Fatalf("update: %v (code %q), want REJECTED", err, code)
			}
			var codes []string
			for _, v := range ftViolations(err) {
				codes = append(codes, v.Code)
			}
			if !slices.Contains(codes, c.code) {
				t.Errorf("violations %v do not include %s", ftViolations(err), c.code)
			}
		})
		if c.edit.Path != "topics/a.md" {
			all = append(all, c.edit)
		}
	}
	if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
		t.Errorf("rejected transactions changed the workspace:\n%s", d)
	}
	// All the edits that do not collide on one path, in one transaction:
	// every violation is listed, not just the first.
	_, err := e.Update(ctx, ftTx(0, all...))
	if n := len(ftViolations(err)); ftCode(err) != errcode.Rejected || n < len(all)-1 {
		t.Errorf("combined transaction: %v with %d violations for %d bad edits", ftCode(err), n, len(all))
	}
	if ftRevision(t, e) != 0 || len(ftHistory(t, e)) != 0 {
		t.Errorf("rejected transactions moved the revision or wrote history")
	}
}

// TestTransaction_Conflict: a stale base_revision is CONFLICT, retryable,
// and changes nothing; the same edits at the right revision install.
func TestTransaction_Conflict(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	ctx := context.Background()
	tx := ftTx(0, ftCreate("topics/a.md", "# A\n\nOne. ^93000001\n"))
	if _, err := e.Update(ctx, tx); err != nil {
		t.Fatal(err)
	}
	before := ftTree(t, state)
	for _, base := range []int64{0, 2, 41} {
		_, err := e.Update(ctx, ftTx(base, ftCreate("topics/b.md", "# B\n\nTwo. ^93000002\n")))
		var ee *errcode.Error
		if ftCode(err) != errcode.Conflict || !asEngineError(err, &ee) || !ee.Retryable() {
			t.Errorf("base %d: %v, want retryable CONFLICT", base, err)
		}
	}
	if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
		t.Errorf("a conflicting transaction changed the workspace:\n%s", d)
	}
	if _, err := e.Update(ctx, ftTx(1, ftCreate("topics/b.md", "# B\n\nTwo. ^93000002\n"))); err != nil {
		t.Errorf("retry at the current revision: %v", err)
	}
}

func asEngineError(err error, target **errcode.Error) bool { return errors.As(err, target) }

// TestTransaction_Paired: the paired tier may create new topic files and
// byte-append; anything that changes existing bytes is FORBIDDEN.
func TestTransaction_Paired(t *testing.T) {
	craig := "topics/people/craig.md"
	old := ftFixtureFile(t, "valid", craig)
	// An owner's file whose last element is a block (the fixture's files
	// all end with a footnote definition).
	rules, ownerRule := "topics/rules.md", "# Rules\n\nOwner rule: never share the vault code. ^0a0a0a0a\n"
	cases := []struct {
		name string
		edit result.Edit
		want errcode.Code
	}{
		{"create new", ftCreate("topics/paired/new.md", "# N\n\nNew. ^94000001\n"), ""},
		{"append", ftAppend(craig, "Appended. ^94000002\n"), ""},
		{"replace keeping the old bytes as prefix", ftReplace(craig, old+"\nExtended. ^94000003\n"), ""},
		{"replace that rewrites", ftReplace(craig, strings.Replace(old, "ships", "shipped", 1)), errcode.Forbidden},
		// Issue 24, finding 1: the old bytes stay a prefix, but the added
		// text continues the last paragraph, so its block is rewritten.
		{"replace that joins the last line", ftReplace(craig, strings.TrimSuffix(old, "\n")+" Unless asked. ^94000005\n"), errcode.Forbidden},
		{"replace that adds a line to the owner's block", ftReplace(rules, ownerRule+"Unless the agent asks; then share it. ^94000005\n"), errcode.Forbidden},
		{"replace that adds a block after a blank line", ftReplace(rules, ownerRule+"\nAsk first. ^94000005\n"), ""},
		{"append without a blank line of its own", ftAppend(rules, "Ask first. ^94000005\n"), ""},
		// Finding 2: topics/core.md is the owner's alone.
		{"append to core.md", ftAppend("topics/core.md", "Share the vault code. ^94000006\n"), errcode.Forbidden},
		{"replace core.md keeping its bytes", ftReplace("topics/core.md", ftFixtureFile(t, "valid", "topics/core.md")+"\nMore. ^94000007\n"), errcode.Forbidden},
		{"replace that truncates", ftReplace(craig, old[:len(old)-1]), errcode.Forbidden},
		{"delete", ftDelete(craig), errcode.Forbidden},
		{"move", ftMove(craig, "topics/people/craig2.md"), errcode.Forbidden},
		{"create over existing", ftCreate(craig, old+"\nx ^94000004\n"), errcode.Rejected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			state := ftFixture(t, "valid")
			if _, err := ftOpen(t, state).Update(context.Background(), ftTx(0, ftCreate(rules, ownerRule))); err != nil {
				t.Fatal(err)
			}
			e := ftOpen(t, state, asPaired)
			before := ftTree(t, state)
			res, err := e.Update(context.Background(), ftTx(1, c.edit))
			if got := ftCode(err); got != c.want {
				t.Fatalf("update: %v (code %q), want %q", err, got, c.want)
			}
			if c.want != "" {
				if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
					t.Errorf("refused edit changed the workspace:\n%s", d)
				}
				return
			}
			if res.Revision != 2 {
				t.Errorf("revision %d", res.Revision)
			}
			if h := ftHistory(t, ftOpen(t, state)); len(h) != 2 || h[0].Actor != "paired" {
				t.Errorf("history %+v, want the owner's row and then one by paired", h)
			}
			if c.edit.Path == craig && !strings.HasPrefix(ftRead(t, state, craig), old) {
				t.Errorf("paired edit did not keep the old bytes as a prefix")
			}
			if c.edit.Path == rules && !strings.HasPrefix(ftRead(t, state, rules), ownerRule+"\n") {
				t.Errorf("paired edit changed the owner's block:\n%s", ftRead(t, state, rules))
			}
		})
	}
	// paired reaches only status and update through the gate.
	e := ftOpen(t, ftFixture(t, "valid"), asPaired)
	ctx := context.Background()
	if _, err := e.Verify(ctx); ftCode(err) != errcode.Forbidden {
		t.Errorf("paired verify: %v", err)
	}
	if _, err := e.Promote(ctx, []string{"openprogram/group-dev/m5"}); ftCode(err) != errcode.Forbidden {
		t.Errorf("paired promote: %v", err)
	}
	if _, err := e.Status(ctx); err != nil {
		t.Errorf("paired status: %v", err)
	}
}

// TestTransaction_RejectedLeavesNoTrace is a property test: random
// transactions that each hold at least one bad edit (or a stale base
// revision) are refused, and after every one the whole memory tree, the
// revision and the state.db history are exactly as before. Good edits mixed
// into the same transaction are not installed either.
func TestTransaction_RejectedLeavesNoTrace(t *testing.T) {
	state := ftFixture(t, "valid")
	owner := ftOpen(t, state)
	paired := ftOpen(t, state, asPaired)
	ctx := context.Background()
	// One good install first, so history is not empty.
	if _, err := owner.Update(ctx, ftTx(0, ftCreate("topics/seed.md", "# Seed\n\nSeed. ^95000000\n"))); err != nil {
		t.Fatal(err)
	}
	const rev = 1
	before := ftTree(t, state)
	hist := fmt.Sprint(ftHistory(t, owner))
	craig := "topics/people/craig.md"
	craigOld := ftRead(t, state, craig)

	rng := rand.New(rand.NewSource(20260811))
	n := 0
	fresh := func() string { n++; return fmt.Sprintf("%08x", 0x96000000+n) }
	goodEdit := func() result.Edit {
		switch rng.Intn(3) {
		case 0:
			return ftCreate(fmt.Sprintf("topics/gen/%d.md", rng.Intn(1000)), "# G\n\nGenerated. ^"+fresh()+"\n")
		case 1:
			return ftAppend(craig, "Appended. ^"+fresh()+"\n")
		}
		return ftAppend("topics/seed.md", "More seed. ^"+fresh()+"\n")
	}
	badPaths := []string{"sources/x.md", "core.md", "topics/x.txt", "topics/../x.md", "/tmp/topics/x.md",
		"topics//x.md", "./topics/x.md", `topics\x.md`, "", "topics/.md", "relations.json", ".scriptorium/revision"}
	badEdit := func() (result.Edit, bool) { // the edit and whether only paired is refused
		switch rng.Intn(13) {
		case 0:
			return ftCreate(badPaths[rng.Intn(len(badPaths))], "# X\n\nx ^"+fresh()+"\n"), false
		case 1:
			return ftCreate("topics/core.md", "# X\n\nx ^"+fresh()+"\n"), false
		case 2:
			return []result.Edit{ftReplace("topics/missing.md", "x ^"+fresh()+"\n"), ftDelete("topics/missing.md"),
				ftMove("topics/missing.md", "topics/m2.md")}[rng.Intn(3)], false
		case 3:
			return ftCreate("topics/bad.md", "# B\n\n"+randomJunk(rng)+"\n"), false
		case 4:
			return ftAppend(craig, "Reused id. ^f888f60e\n"), false
		case 5:
			return ftAppend(craig, "Undefined.[^e-9600000001] ^"+fresh()+"\n"), false
		case 6:
			return ftAppend("topics/seed.md", "Cites.[^e-9600000002] ^"+fresh()+"\n\n[^e-9600000002]: Time: `2026-08-10`; Sources: "+
				fmt.Sprintf("[openprogram/group-dev/m1](../%s#source-%08x)", groupDev, rng.Uint32())+"\n"), false
		case 7:
			return ftAppend("topics/seed.md", fmt.Sprintf("Link [x](people/craig.md#^%08x). ^%s\n", rng.Uint32()|1, fresh())), false
		case 8:
			return ftMove(craig, "topics/core.md"), false
		case 9:
			return ftDelete("topics/projects/legacy.md"), false
		case 10:
			return ftReplace(craig, craigOld[:rng.Intn(len(craigOld))]+"x ^"+fresh()+"\n"), true
		case 11:
			return ftDelete("topics/seed.md"), true
		}
		return ftAppend(craig, "Bad utf8 \xc3\x28 ^"+fresh()+"\n"), false
	}
	for i := 0; i < 150; i++ {
		var edits []result.Edit
		for k := rng.Intn(3); k > 0; k-- {
			edits = append(edits, goodEdit())
		}
		eng := owner
		base := int64(rev)
		want := []errcode.Code{errcode.Rejected}
		switch rng.Intn(8) {
		case 0: // only the base revision is wrong
			edits = append(edits, goodEdit())
			base = int64(rng.Intn(5))
			if base == rev {
				base = rev + 1
			}
			want = []errcode.Code{errcode.Conflict}
		default:
			ed, pairedOnly := badEdit()
			if pairedOnly {
				eng = paired
				want = []errcode.Code{errcode.Forbidden, errcode.Rejected}
			} else if rng.Intn(4) == 0 {
				eng = paired
				want = []errcode.Code{errcode.Forbidden, errcode.Rejected}
			}
			at := rng.Intn(len(edits) + 1)
			edits = slices.Insert(edits, at, ed)
		}
		res, err := eng.Update(ctx, ftTx(base, edits...))
		if !slices.Contains(want, ftCode(err)) {
			t.Fatalf("transaction %d %s: result %+v, error %v (code %q), want one of %v", i, describe(edits), res, err, ftCode(err), want)
		}
		if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
			t.Fatalf("transaction %d %s was refused (%v) but changed the workspace:\n%s", i, describe(edits), ftCode(err), d)
		}
		if got := fmt.Sprint(ftHistory(t, owner)); got != hist {
			t.Fatalf("transaction %d changed the history", i)
		}
		if r := ftRevision(t, owner); r != rev {
			t.Fatalf("transaction %d moved the revision to %d", i, r)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(state, "memory", ".scriptorium", "runtime")); len(stageDirs(entries)) > 0 {
		t.Errorf("refused transactions left stages behind: %v", entries)
	}
}

func stageDirs(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		if e.IsDir() && strings.HasPrefix(e.Name(), "tx-") {
			out = append(out, e.Name())
		}
	}
	return out
}

func describe(edits []result.Edit) string {
	var parts []string
	for _, e := range edits {
		parts = append(parts, e.Op+" "+fmt.Sprintf("%q", e.Path))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// randomJunk returns a paragraph that can never be a valid block: it
// never ends in " ^" and 8 lowercase hex digits.
func randomJunk(rng *rand.Rand) string {
	const alphabet = "abcXYZ ^[]()#*-_`\n\t\r01234567"
	var b strings.Builder
	for i := 0; i < 5+rng.Intn(60); i++ {
		b.WriteByte(alphabet[rng.Intn(len(alphabet))])
	}
	return strings.TrimRight(b.String(), "\n\r\t ") + " trailing words"
}

// TestTransaction_LockInteractiveWaits: while another writer holds
// write.lock, an interactive update says it is waiting and installs once
// the lock is free.
func TestTransaction_LockInteractiveWaits(t *testing.T) {
	state := ftFixture(t, "valid")
	waiting := make(chan struct{}, 1)
	e := ftOpen(t, state, func(o *engine.Options) {
		o.OnLockWait = func() {
			select {
			case waiting <- struct{}{}:
			default:
			}
		}
	})
	release := ftHoldLock(t, state)
	done := make(chan error, 1)
	go func() {
		_, err := e.Update(context.Background(), ftTx(0, ftCreate("topics/a.md", "# A\n\nOne. ^97000001\n")))
		done <- err
	}()
	<-waiting
	select {
	case err := <-done:
		t.Fatalf("update finished while the lock was held: %v", err)
	default:
	}
	if ftExists(state, "topics/a.md") {
		t.Fatal("update wrote while another writer held the lock")
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("update after the lock was released: %v", err)
	}
	if !ftExists(state, "topics/a.md") {
		t.Error("update did not install")
	}
}

// TestTransaction_LockBackgroundGivesUp: a background writer gives up on a
// held lock with LOCK_BUSY (retryable) and changes nothing.
func TestTransaction_LockBackgroundGivesUp(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state, func(o *engine.Options) { o.Interactive = false })
	release := ftHoldLock(t, state)
	defer release()
	before := ftTree(t, state)
	_, err := e.Update(context.Background(), ftTx(0, ftCreate("topics/a.md", "# A\n\nOne. ^97000002\n")))
	var ee *errcode.Error
	if ftCode(err) != errcode.LockBusy || !asEngineError(err, &ee) || !ee.Retryable() {
		t.Fatalf("background update under a held lock: %v, want retryable LOCK_BUSY", err)
	}
	if d := ftTreeDiff(before, ftTree(t, state)); d != "" {
		t.Errorf("LOCK_BUSY changed the workspace:\n%s", d)
	}
}

// ftHoldLock takes the workspace's write lock through a second handle, as
// another process would, and returns its release function.
func ftHoldLock(t *testing.T, state string) func() {
	t.Helper()
	w, err := workspace.Open(filepath.Join(state, "memory"), nil)
	if err != nil {
		t.Fatal(err)
	}
	release, err := w.Lock(context.Background(), workspace.LockInteractive)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	r := func() { once.Do(release) }
	t.Cleanup(r)
	return r
}

// TestTransaction_LockBackgroundOpenGivesUp: opening the workspace takes
// the write lock to finish an interrupted install, so a background caller
// that opens while another writer holds the lock must give up after 1 s
// too, instead of hanging (SPEC §6).
func TestTransaction_LockBackgroundOpenGivesUp(t *testing.T) {
	state := ftFixture(t, "valid")
	release := ftHoldLock(t, state)
	defer release()
	// An interrupted install's stage: recovery is due, so Open needs the lock.
	if err := os.MkdirAll(filepath.Join(state, "memory", ".scriptorium", "runtime", "tx-interrupted"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := engine.Open(context.Background(), engine.Options{StateDir: state})
	if err == nil {
		e.Close()
	}
	var ee *errcode.Error
	if ftCode(err) != errcode.LockBusy || !asEngineError(err, &ee) || !ee.Retryable() {
		t.Fatalf("background open under a held lock: %v, want retryable LOCK_BUSY", err)
	}
}

// TestTransaction_AllViolationsListed: a transaction with a bad path and
// invalid content in another edit lists both, not just the first kind
// found.
func TestTransaction_AllViolationsListed(t *testing.T) {
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	_, err := e.Update(context.Background(), ftTx(0,
		ftCreate("sources/x.md", "# X\n\nx ^98000001\n"),
		ftCreate("topics/a.md", "# A\n\nNo id here.\n"),
		ftAppend("topics/core.md", "Reused. ^f888f60e\n"),
	))
	if ftCode(err) != errcode.Rejected {
		t.Fatalf("update: %v, want REJECTED", err)
	}
	var codes []string
	for _, v := range ftViolations(err) {
		codes = append(codes, v.Code+" "+v.Path)
	}
	slices.Sort(codes)
	want := []string{"bad_path sources/x.md", "duplicate_block_id topics/core.md", "missing_block_id topics/a.md"}
	if !slices.Equal(codes, want) {
		t.Errorf("violations %v, want %v", codes, want)
	}
}

// TestTransaction_PreexistingDamageMoved: a transaction is judged on what
// it breaks. Damage already in a file (here a duplicate block id and a
// paragraph without an id) does not reject an edit that only moves it to
// other lines.
func TestTransaction_PreexistingDamageMoved(t *testing.T) {
	for _, c := range []struct{ fixture, path string }{
		{"duplicate-block-id", "topics/a.md"},
		{"topic-missing-block-id", "topics/notes.md"},
	} {
		t.Run(c.fixture, func(t *testing.T) {
			state := ftFixture(t, c.fixture)
			e := ftOpen(t, state)
			old := ftRead(t, state, c.path)
			moved := strings.Replace(old, "\n\n", "\n\nA new first block. ^99000001\n\nAnd a second one. ^99000002\n\n", 1)
			if _, err := e.Update(context.Background(), ftTx(0, ftReplace(c.path, moved))); err != nil {
				t.Fatalf("an edit that only moves old damage was refused: %v", err)
			}
			// Adding the same damage again is still refused.
			_, err := e.Update(context.Background(), ftTx(1, ftAppend(c.path, "No id, again.\n")))
			if ftCode(err) != errcode.Rejected {
				t.Errorf("new damage: %v, want REJECTED", err)
			}
		})
	}
}

// TestTransaction_MoveKeepsSelfLinks: a link from a moved file to itself
// by path ("craig.md#^id") follows the file to its new place, and links
// between files moved in the same transaction stay intact.
func TestTransaction_MoveKeepsSelfLinks(t *testing.T) {
	state := ftEmpty(t, map[string]string{
		"topics/people/craig.md": "# Craig\n\nFirst. ^99100001\n\nSee [first](craig.md#^99100001) and [bob](bob.md#^99100002). ^99100003\n",
		"topics/people/bob.md":   "# Bob\n\nBob. ^99100002\n\nSee [craig](craig.md#^99100001). ^99100004\n",
	})
	e := ftOpen(t, state)
	ctx := context.Background()
	_, err := e.Update(ctx, ftTx(0, ftMove("topics/people/craig.md", "topics/team/craig.md")))
	if ftCode(err) != errcode.Rejected {
		// bob.md still links to the old place: that breaks, as it should.
		t.Fatalf("move that breaks bob's incoming link: %v", err)
	}
	if _, err := e.Update(ctx, ftTx(0,
		ftMove("topics/people/craig.md", "topics/team/craig.md"),
		ftMove("topics/people/bob.md", "topics/team/bob.md"))); err != nil {
		t.Fatalf("moving both files: %v", err)
	}
	ftVerifyClean(t, e)
	if got := ftRead(t, state, "topics/team/craig.md"); !strings.Contains(got, "[first](craig.md#^99100001)") ||
		!strings.Contains(got, "[bob](bob.md#^99100002)") {
		t.Errorf("moved craig.md:\n%s", got)
	}
}

// TestTransaction_OtherEngineSeesInstall: a long-lived engine (the TUI, a
// host) sees what another engine or process installed, even an edit that
// keeps the file's size.
func TestTransaction_OtherEngineSeesInstall(t *testing.T) {
	state := ftFixture(t, "valid")
	reader := ftOpen(t, state)
	writer := ftOpen(t, state)
	ctx := context.Background()
	get := func() string {
		v, err := reader.Get(ctx, "^b1ab1ab1")
		if err != nil {
			t.Fatal(err)
		}
		return v.(result.BlockView).Text
	}
	if got := get(); !strings.HasPrefix(got, "The assistant agreed to tea.") {
		t.Fatalf("before: %q", got)
	}
	old := ftRead(t, state, "topics/projects/legacy.md")
	same := strings.Replace(old, "agreed to tea.", "agreed to TEA.", 1) // same size
	if _, err := writer.Update(ctx, ftTx(0, ftReplace("topics/projects/legacy.md", same))); err != nil {
		t.Fatal(err)
	}
	if got := get(); !strings.HasPrefix(got, "The assistant agreed to TEA.") {
		t.Errorf("the reader engine still sees %q", got)
	}
	if rev := ftRevision(t, reader); rev != 1 {
		t.Errorf("the reader engine sees revision %d", rev)
	}
}
