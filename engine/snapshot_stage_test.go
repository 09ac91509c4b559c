package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/result"
	"scriptorium/workspace/faultfs"
	"scriptorium/workspace/treetest"
)

// stageRenames returns the trace indexes of the renames that move staged
// files into place in one run of sc on a copy of state.
func stageRenames(t *testing.T, sc enginetest.FaultScenario, state string) []int {
	t.Helper()
	cp := t.TempDir() + "/state"
	if err := treetest.CopyTree(state, cp); err != nil {
		t.Fatal(err)
	}
	fsys := faultfs.New()
	e := enginetest.Open(t, cp, func(o *engine.Options) { o.FS = fsys })
	fsys.Start()
	if err := sc.Run(context.Background(), e); err != nil {
		t.Fatal(err)
	}
	fsys.Stop()
	var out []int
	for _, op := range fsys.Trace() {
		if op.Kind == faultfs.Rename && strings.Contains(op.Path, "/tx-") && !strings.HasSuffix(op.Path, ".part") {
			out = append(out, op.Index)
		}
	}
	if len(out) < 3 {
		t.Fatalf("the install renamed %d staged files; the scenario needs several", len(out))
	}
	return out
}

// residentState is what a long-lived engine shows of the install of
// multiFileInstall: "old", "new", or a description of the mix.
func residentState(t *testing.T, e *engine.Engine) string {
	t.Helper()
	ctx := context.Background()
	found := func(q string) bool {
		res, err := e.Search(ctx, result.SearchQuery{Text: q, Limit: 50})
		if err != nil {
			t.Fatalf("search %q on the resident engine: %v", q, err)
		}
		return len(res) > 0
	}
	has := func(id string) bool {
		_, err := e.Get(ctx, id)
		return err == nil
	}
	newMarks := []bool{found("quillwort"), has("^e0000003"), has("^e0000004"), has("^e0000005")}
	oldMarks := []bool{found("temporary"), has("^e0000001")}
	count := func(marks []bool) int {
		n := 0
		for _, v := range marks {
			if v {
				n++
			}
		}
		return n
	}
	n, o := count(newMarks), count(oldMarks)
	switch {
	case n == len(newMarks) && o == 0:
		return "new"
	case n == 0 && o == len(oldMarks):
		return "old"
	}
	return fmt.Sprintf("TORN: new marks %v, old marks %v", newMarks, oldMarks)
}

// TestResident_NoTornReadAfterStoppedInstall: a long-lived engine (serve,
// daemon, mcp) holds its snapshot while an install by another engine stops
// past its commit point after renaming some of its files (an EIO on every
// rename after the first k, the fault seam's stand-in for a process killed
// there). Until someone takes the write lock and rolls the stage forward,
// the resident engine's searches and reads must show the old or the new
// workspace, never a mix, and verify finds nothing torn.
func TestResident_NoTornReadAfterStoppedInstall(t *testing.T) {
	sc := multiFileInstall()
	base := sc.Base(t)
	renames := stageRenames(t, sc, base)
	for k := 1; k < len(renames); k++ {
		state := t.TempDir() + "/state"
		if err := treetest.CopyTree(base, state); err != nil {
			t.Fatal(err)
		}
		resident := enginetest.Open(t, state, func(o *engine.Options) { o.LongLived = true })
		if got := residentState(t, resident); got != "old" {
			t.Fatalf("before the install the resident engine shows %s", got)
		}
		fsys := faultfs.New()
		installer := enginetest.Open(t, state, func(o *engine.Options) { o.FS = fsys })
		fsys.Start()
		fsys.FailAt(renames[k], syscall.EIO, true)
		err := sc.Run(context.Background(), installer)
		fsys.Stop()
		if err == nil {
			t.Fatalf("k=%d: the install succeeded despite the fault", k)
		}
		for round := 0; round < 2; round++ {
			if got := residentState(t, resident); got != "new" && got != "old" {
				t.Fatalf("k=%d round %d: after an install stopped after %d renames the resident engine shows %s", k, round, k, got)
			}
			if rep, err := resident.Verify(context.Background()); err != nil || !rep.OK {
				t.Fatalf("k=%d: verify on the resident engine: %v %+v", k, err, rep)
			}
		}
		installer.Close()
		resident.Close()
	}
}

// TestResident_NoTornReadDuringInstalls: a long-lived engine reads while
// another engine installs, again and again, a pair of topic files and
// removes the previous pair in one transaction. Every view it reads holds
// exactly one whole pair (or none before the first install): never one
// file of a pair, never two pairs. A walk an install lands in is walked
// again.
func TestResident_NoTornReadDuringInstalls(t *testing.T) {
	state := ftFixture(t, "valid")
	resident := enginetest.Open(t, state, func(o *engine.Options) { o.LongLived = true })
	installer := enginetest.Open(t, state)
	ctx := context.Background()
	const rounds = 10
	done := make(chan error, 1)
	go func() {
		defer close(done)
		for i := range rounds {
			rev := ftRevision(t, installer)
			edits := []result.Edit{
				ftCreate(fmt.Sprintf("topics/pair/a%02d.md", i), fmt.Sprintf("# A\n\nFirst of pair %d. ^%08x\n", i, 0xa0000000+i)),
				ftCreate(fmt.Sprintf("topics/pair/b%02d.md", i), fmt.Sprintf("# B\n\nSecond of pair %d. ^%08x\n", i, 0xb0000000+i)),
			}
			if i > 0 {
				edits = append(edits, ftDelete(fmt.Sprintf("topics/pair/a%02d.md", i-1)), ftDelete(fmt.Sprintf("topics/pair/b%02d.md", i-1)))
			}
			if _, err := installer.Update(ctx, ftTx(rev, edits...)); err != nil {
				done <- err
				return
			}
		}
	}()
	reads := 0
	for finished := false; !finished; {
		select {
		case err, ok := <-done:
			if ok && err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
		v, err := resident.View(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var pair []string
		for _, p := range v.TopicPaths() {
			if strings.HasPrefix(p, "topics/pair/") {
				pair = append(pair, p)
			}
		}
		reads++
		if len(pair) == 0 {
			continue
		}
		if len(pair) != 2 || pair[0][len("topics/pair/")+1:] != pair[1][len("topics/pair/")+1:] {
			t.Fatalf("read %d saw a torn install: %v", reads, pair)
		}
	}
	t.Logf("%d reads during %d installs", reads, rounds)
}

// A file that a walk listed and that is gone when it reads it was removed
// by a writer; the read walks again rather than failing, even when the
// stages and the revision look the same before and after (seen once under
// load in TestResident_NoTornReadDuringInstalls: "read topics/pair/a02.md:
// no such file or directory").
func TestLoad_FileGoneBetweenListAndRead(t *testing.T) {
	state := ftFixture(t, "valid")
	resident := enginetest.Open(t, state, func(o *engine.Options) { o.LongLived = true })
	ctx := context.Background()
	gone := filepath.Join(resident.Root(), "topics", "gone.md")
	if err := os.WriteFile(gone, []byte("# Gone\n\nSoon gone. ^0000dead\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	once := true
	engine.SetAfterTopicsListed(func() {
		if once {
			once = false
			if err := os.Remove(gone); err != nil {
				t.Error(err)
			}
		}
	})
	defer engine.SetAfterTopicsListed(nil)
	v, err := resident.View(ctx)
	if err != nil {
		t.Fatalf("a file removed during the walk failed the read: %v", err)
	}
	for _, p := range v.TopicPaths() {
		if p == "topics/gone.md" {
			t.Fatal("the removed file is in the view")
		}
	}
	if once {
		t.Fatal("the hook did not run")
	}
}
