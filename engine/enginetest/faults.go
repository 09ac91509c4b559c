package enginetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/result"
	"scriptorium/errcode"
	"scriptorium/workspace"
	"scriptorium/workspace/faultfs"
	"scriptorium/workspace/treetest"
)

// FaultScenario is one operation of the write path that the fault matrix
// (FaultMatrix) and the power-loss run (PowerLoss) drive through a faulty
// filesystem. The operation must make exactly one install.
type FaultScenario struct {
	// Base returns a state dir holding the old state. It is called once;
	// every run starts from a copy.
	Base func(t *testing.T) string
	// Run performs the operation on an engine opened on a copy of Base.
	Run func(ctx context.Context, e *engine.Engine) error
	// Rerun, if set, runs on a healthy engine after recovery, and the
	// canonical tree must then equal the uncrashed run's: the writer's
	// "nothing lost, nothing written twice".
	Rerun func(ctx context.Context, e *engine.Engine) error
	// Word, if set, is a word only the new state holds: search must find it
	// exactly when the outcome is new (the index follows the files).
	Word string
	// Options adjusts the engine options of every open (the clock is
	// already fixed).
	Options func(*engine.Options)
}

// faultRef is what an uncrashed run of a scenario gives.
type faultRef struct {
	base             string
	oldTree, newTree map[string]string
	oldRev, newRev   int64
	oldHist, newHist []result.HistoryEntry
	trace            []faultfs.Op
}

// Canonical is the state of topics/ and sources/: the part an install
// must leave exactly old or exactly new.
func Canonical(t *testing.T, state string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, sub := range []string{"topics", "sources"} {
		st, err := treetest.State(filepath.Join(state, "memory", sub))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range st {
			out[sub+"/"+k] = v
		}
	}
	return out
}

// copyState copies a state dir for one run.
func copyState(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "state")
	if err := treetest.CopyTree(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

func (sc FaultScenario) open(t *testing.T, state string, fsys *faultfs.FS) (*engine.Engine, error) {
	opts := engine.Options{StateDir: state, Interactive: true, Now: Clock}
	if fsys != nil {
		opts.FS = fsys
	}
	if sc.Options != nil {
		sc.Options(&opts)
	}
	return engine.Open(context.Background(), opts)
}

func (sc FaultScenario) reference(t *testing.T) faultRef {
	t.Helper()
	ctx := context.Background()
	r := faultRef{base: sc.Base(t)}
	r.oldTree = Canonical(t, r.base)
	e, err := sc.open(t, r.base, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.oldRev, r.oldHist = Revision(t, e), History(t, e)
	e.Close()

	ref := copyState(t, r.base)
	fsys := faultfs.New()
	e, err = sc.open(t, ref, fsys)
	if err != nil {
		t.Fatal(err)
	}
	fsys.Start()
	err = sc.Run(ctx, e)
	fsys.Stop()
	r.trace = fsys.Trace()
	e.Close()
	if err != nil {
		t.Fatalf("uncrashed run: %v", err)
	}
	e, err = sc.open(t, ref, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	r.newTree, r.newRev, r.newHist = Canonical(t, ref), Revision(t, e), History(t, e)
	if r.newRev != r.oldRev+1 || treetest.Diff(r.oldTree, r.newTree) == "" {
		t.Fatalf("the scenario must make one install that changes files: revision %d -> %d, diff:\n%s",
			r.oldRev, r.newRev, treetest.Diff(r.oldTree, r.newTree))
	}
	if len(r.trace) == 0 {
		t.Fatal("the scenario performed no filesystem operation through the FS")
	}
	return r
}

// followUpPath is the file the follow-up install creates on the engine a
// fault hit, before anything reopens the workspace.
const followUpPath = "topics/follow-up.md"

// followUp makes one more install on the engine a fault hit, with a healthy
// filesystem, as a long-lived engine (TUI, MCP server) would: it must build
// on the state the failed call left, and retries on CONFLICT as callers do.
func followUp(ctx context.Context, e *engine.Engine) error {
	var err error
	for i := 0; i < 3; i++ {
		var rev int64
		rev, err = e.Revision()
		if err != nil {
			return err
		}
		_, err = e.Update(ctx, Tx(rev, Create(followUpPath, "# Follow-up\n\nWritten after the fault. ^f0110a01\n")))
		if Code(err) != errcode.Conflict {
			return err
		}
	}
	return err
}

// outcome reopens state with a healthy filesystem and says whether it
// holds the old or the new state (with the follow-up file when followed),
// failing the test for anything else: a torn tree, a revision or history
// that does not match it, a stage left behind, a search that disagrees.
func (sc FaultScenario) outcome(t *testing.T, r faultRef, state string, followed bool, what string) string {
	t.Helper()
	ctx := context.Background()
	e, err := sc.open(t, state, nil)
	if err != nil {
		t.Fatalf("%s: reopen: %v", what, err)
	}
	defer e.Close()
	if rep, err := e.Verify(ctx); err != nil || !rep.OK {
		t.Fatalf("%s: verify after reopening: %v %+v", what, err, rep)
	}
	got := Canonical(t, state)
	_, hasFollow := got[followUpPath]
	delete(got, followUpPath)
	if hasFollow != followed {
		t.Fatalf("%s: follow-up file present %v, want %v", what, hasFollow, followed)
	}
	which := ""
	switch {
	case treetest.Diff(r.oldTree, got) == "":
		which = "old"
	case treetest.Diff(r.newTree, got) == "":
		which = "new"
	default:
		t.Fatalf("%s: TORN workspace: neither old nor new\nvs old:\n%s\nvs new:\n%s", what,
			treetest.Diff(r.oldTree, got), treetest.Diff(r.newTree, got))
	}
	want, wantHist := r.oldRev, r.oldHist
	if which == "new" {
		want, wantHist = r.newRev, r.newHist
	}
	hist := History(t, e)
	rev := Revision(t, e)
	if followed {
		want++
	}
	if rev != want || int64(len(hist)) != rev {
		t.Fatalf("%s: %s state but revision %d and %d history rows, want %d", what, which, rev, len(hist), want)
	}
	rows := hist
	if followed {
		if hist[0].Revision != rev || !slices.Equal(hist[0].Changed, []string{followUpPath}) {
			t.Fatalf("%s: the newest history row is not the follow-up: %+v", what, hist[0])
		}
		rows = hist[1:]
	}
	for i := range wantHist {
		if rows[i].Revision != wantHist[i].Revision || rows[i].Kind != wantHist[i].Kind || !slices.Equal(rows[i].Changed, wantHist[i].Changed) {
			t.Fatalf("%s: %s state but history row %d is %+v, want %+v", what, which, i, rows[i], wantHist[i])
		}
	}
	runtime, _ := os.ReadDir(workspace.MetaPath(filepath.Join(state, "memory"), workspace.RuntimeName))
	for _, ent := range runtime {
		if strings.HasPrefix(ent.Name(), workspace.StagePrefix) {
			t.Fatalf("%s: stage %s left after reopening", what, ent.Name())
		}
	}
	if sc.Word != "" {
		res, err := e.Search(ctx, result.SearchQuery{Text: sc.Word})
		if err != nil {
			t.Fatalf("%s: search: %v", what, err)
		}
		if (len(res) > 0) != (which == "new") {
			t.Fatalf("%s: %s state but search for %q found %d results", what, which, sc.Word, len(res))
		}
	}
	if sc.Rerun != nil {
		if err := sc.Rerun(ctx, e); err != nil {
			t.Fatalf("%s: rerun: %v", what, err)
		}
		after := Canonical(t, state)
		delete(after, followUpPath)
		if d := treetest.Diff(r.newTree, after); d != "" {
			t.Fatalf("%s: after the rerun the tree differs from the uncrashed run's:\n%s", what, d)
		}
	}
	return which
}

// FaultPlan is one injected fault: the operation at Index fails with
// Errno, once or (Sticky) from then on.
type FaultPlan struct {
	Index  int
	Errno  syscall.Errno
	Sticky bool
}

func (p FaultPlan) String() string {
	mode := "once"
	if p.Sticky {
		mode = "sticky"
	}
	return fmt.Sprintf("op%d-%s-%s", p.Index, errnoName(p.Errno), mode)
}

func errnoName(e syscall.Errno) string {
	switch e {
	case syscall.ENOSPC:
		return "ENOSPC"
	case syscall.EIO:
		return "EIO"
	case syscall.EACCES:
		return "EACCES"
	}
	return fmt.Sprintf("errno%d", int(e))
}

// FaultPlans lists the faults to inject into a trace of n operations: with
// full, every operation × every errno of faultfs.Errnos × once and sticky;
// otherwise every operation once, the errno and the mode taking turns.
func FaultPlans(n int, full bool) []FaultPlan {
	var out []FaultPlan
	for i := 0; i < n; i++ {
		if !full {
			out = append(out, FaultPlan{Index: i, Errno: faultfs.Errnos[i%len(faultfs.Errnos)], Sticky: i%2 == 1})
			continue
		}
		for _, errno := range faultfs.Errnos {
			for _, sticky := range []bool{false, true} {
				out = append(out, FaultPlan{Index: i, Errno: errno, Sticky: sticky})
			}
		}
	}
	return out
}

// FaultStats counts the outcomes of a matrix, for the test's log.
type FaultStats struct {
	Runs, Old, New, Succeeded int
	// Swallowed lists the operations whose injected failure the call did
	// not report (best-effort steps such as the lock-holder record); the
	// outcome was new every time, or the run failed.
	Swallowed []string
}

// FaultMatrix runs sc once without faults to learn its trace, then once
// per plan of FaultPlans(len(trace), full). In each run the call must
// return an *errcode.Error, or succeed only if the outcome is new; then a
// follow-up install on the same engine (healthy again) must build on
// whatever the failed call left; then, reopened, the workspace must be
// exactly old or exactly new (plus the follow-up), revision and history
// to match, and search and Rerun must agree.
func FaultMatrix(t *testing.T, sc FaultScenario, full bool) FaultStats {
	t.Helper()
	ctx := context.Background()
	r := sc.reference(t)
	var st FaultStats
	for _, plan := range FaultPlans(len(r.trace), full) {
		what := plan.String()
		state := copyState(t, r.base)
		fsys := faultfs.New()
		e, err := sc.open(t, state, fsys)
		if err != nil {
			t.Fatalf("%s: open: %v", what, err)
		}
		fsys.Start()
		fsys.FailAt(plan.Index, plan.Errno, plan.Sticky)
		runErr := sc.Run(ctx, e)
		fsys.Stop()
		injected := fsys.Injected()
		if len(injected) == 0 {
			e.Close()
			continue // this run took fewer steps than the reference
		}
		st.Runs++
		if runErr != nil {
			var ee *errcode.Error
			if !errors.As(runErr, &ee) {
				t.Fatalf("%s (%v): the error is not an *errcode.Error: %T %v", what, injected[0], runErr, runErr)
			}
		} else {
			st.Succeeded++
			step := injected[0].Kind + " " + tempName.ReplaceAllString(rel(state, injected[0].Path), ".tmp-*")
			if !slices.Contains(st.Swallowed, step) {
				st.Swallowed = append(st.Swallowed, step)
			}
		}
		followed := followUp(ctx, e) == nil
		e.Close()
		if !followed {
			t.Fatalf("%s (%v): the follow-up install on the same engine failed", what, injected[0])
		}
		which := sc.outcome(t, r, state, followed, fmt.Sprintf("%s (%v, run error: %v)", what, injected[0], runErr))
		if runErr == nil && which != "new" {
			t.Fatalf("%s (%v): reported success but the workspace is %s", what, injected[0], which)
		}
		// What the error says happened must be what happened.
		if runErr != nil && strings.Contains(runErr.Error(), "nothing was changed") && which != "old" {
			t.Fatalf("%s (%v): the error says nothing was changed but the workspace is %s: %v", what, injected[0], which, runErr)
		}
		if which == "old" {
			st.Old++
		} else {
			st.New++
		}
	}
	return st
}

// PowerLoss runs sc once per operation of its trace with the power lost at
// that operation (nothing from it on happens), rebuilds the tree from only
// what was durable (faultfs.Restore), and checks that reopening gives
// exactly old or exactly new. A call that returned success must leave new.
func PowerLoss(t *testing.T, sc FaultScenario) FaultStats {
	t.Helper()
	ctx := context.Background()
	r := sc.reference(t)
	var st FaultStats
	for k := 0; k <= len(r.trace); k++ {
		what := fmt.Sprintf("power lost at op %d", k)
		state := copyState(t, r.base)
		mem := filepath.Join(state, "memory")
		fsys := faultfs.NewPowerLoss(mem, k, untrackedByFS)
		e, err := sc.open(t, state, fsys)
		if err != nil {
			t.Fatalf("%s: open: %v", what, err)
		}
		if err := fsys.StartPowerLoss(); err != nil {
			t.Fatal(err)
		}
		runErr := sc.Run(ctx, e)
		trace := fsys.Trace()
		e.Close()
		if err := fsys.Restore(); err != nil {
			t.Fatalf("%s: restore: %v", what, err)
		}
		if k < len(trace) {
			what += fmt.Sprintf(" (%v)", trace[k])
		}
		st.Runs++
		which := sc.outcome(t, r, state, false, what+fmt.Sprintf(", run error: %v", runErr))
		if runErr == nil {
			st.Succeeded++
			if which != "new" {
				t.Fatalf("%s: reported success but the workspace is %s after the power loss", what, which)
			}
		}
		if which == "old" {
			st.Old++
		} else {
			st.New++
		}
	}
	return st
}

// untrackedByFS names the files of a workspace that other code writes
// itself (SQLite, bleve, flock), which the power-loss model leaves alone.
func untrackedByFS(rel string) bool {
	switch {
	case strings.HasPrefix(rel, workspace.MetaRel(workspace.StateDBName)), rel == workspace.MetaRel(workspace.IndexName),
		strings.HasPrefix(rel, workspace.MetaRel(workspace.IndexName)+"/"), rel == workspace.MetaRel(workspace.WriteLockName):
		return true
	}
	return false
}

// tempName matches the atomic writer's temp file names.
var tempName = regexp.MustCompile(`\.tmp-[0-9]+-[^/]*`)

func rel(state, p string) string {
	if r, err := filepath.Rel(filepath.Join(state, "memory"), p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}
