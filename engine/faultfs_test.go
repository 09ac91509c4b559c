package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/index"
	"scriptorium/engine/result"
	"scriptorium/workspace/archive"
)

// soak reports whether the long versions of the reliability checks run.
func soak() bool { return os.Getenv("SCRIPTORIUM_SOAK") == "1" }

// multiFileInstall is the scenario of the fault matrix for the engine's
// install: one transaction that replaces, appends to, moves, deletes and
// creates topics (one in two new directories), appends a frame to an
// existing v2 archive and creates a new archive, on the "valid" fixture
// after one earlier install.
func multiFileInstall() enginetest.FaultScenario {
	return enginetest.FaultScenario{
		Base: func(t *testing.T) string {
			state := ftFixture(t, "valid")
			e := ftOpen(t, state)
			if _, err := e.Update(context.Background(), ftTx(0, ftCreate("topics/tmp.md", "# Tmp\n\nTemporary note. ^e0000001\n"))); err != nil {
				t.Fatal(err)
			}
			e.Close()
			return state
		},
		Run: func(ctx context.Context, e *engine.Engine) error {
			root := e.Root()
			craig, err := os.ReadFile(filepath.Join(root, "topics", "people", "craig.md"))
			if err != nil {
				return err
			}
			sess1, err := os.ReadFile(filepath.Join(root, "sources", "cli", "_v2", "sess-1.md"))
			if err != nil {
				return err
			}
			at := time.Date(2024, 3, 15, 9, 31, 0, 0, time.UTC)
			grown, _, err := archive.Append(sess1, []archive.Record{{SourceID: "cli/sess-1/s3", Role: "user", Time: at,
				Content: "The tracker exports to quillwort CSV files."}})
			if err != nil {
				return err
			}
			fresh, _, err := archive.Append(nil, []archive.Record{{SourceID: "cli/sess-9/t1", Role: "user", Time: at,
				Content: "A new thread begins."}})
			if err != nil {
				return err
			}
			newCraig := strings.Replace(string(craig), "](../projects/legacy.md#^b1ab1ab1)", "](../archive/legacy.md#^b1ab1ab1)", 1) +
				"\nCraig moved the legacy notes. ^e0000002\n"
			base := int64(1)
			_, err = e.Install(ctx, engine.Change{Kind: "write", Base: &base, Edits: []result.Edit{
				ftAppend("topics/core.md", "A new core fact about quillwort. ^e0000003\n"),
				ftReplace("topics/people/craig.md", newCraig),
				ftMove("topics/projects/legacy.md", "topics/archive/legacy.md"),
				ftCreate("topics/new/deep/b.md", "# B\n\nDeep new file. ^e0000004\n"),
				ftCreate("topics/a.md", "# A\n\nAnother new file. ^e0000005\n"),
				ftDelete("topics/tmp.md"),
			}, Archives: map[string][]byte{
				"sources/cli/_v2/sess-1.md": grown,
				"sources/cli/_v2/sess-9.md": fresh,
			}})
			return err
		},
		Word: "quillwort",
	}
}

// TestFaults_InstallIsOldOrNew is the fault matrix of an install: every
// filesystem operation the install performs (stage, fsync, journal,
// renames, deletes, directory creation and fsyncs, revision, clean-up)
// fails in turn with ENOSPC, EIO or EACCES, once or from then on. The call
// reports an *errcode.Error (or succeeds only when the install stands), a
// follow-up install on the same engine builds on what it left, and the
// reopened workspace is exactly old or exactly new, revision, history and
// search to match. SCRIPTORIUM_SOAK=1 runs every errno × mode at every
// step.
func TestFaults_InstallIsOldOrNew(t *testing.T) {
	t.Parallel()
	st := enginetest.FaultMatrix(t, multiFileInstall(), soak())
	t.Logf("%d faulted runs: %d old, %d new, %d reported success (best-effort steps: %v)",
		st.Runs, st.Old, st.New, st.Succeeded, st.Swallowed)
	if st.Old == 0 || st.New == 0 {
		t.Errorf("the matrix should see both outcomes: %+v", st)
	}
}

// TestFaults_InstallSurvivesPowerLoss loses power at every operation of the
// same install: only what was fsynced (file bytes and directory entries)
// survives, and the reopened workspace is exactly old or exactly new.
func TestFaults_InstallSurvivesPowerLoss(t *testing.T) {
	t.Parallel()
	st := enginetest.PowerLoss(t, multiFileInstall())
	t.Logf("%d power losses: %d old, %d new", st.Runs, st.Old, st.New)
	if st.Old == 0 || st.New == 0 {
		t.Errorf("the power-loss run should see both outcomes: %+v", st)
	}
}

// TestFaults_IndexUpdateFails makes the index update after an install fail
// (another handle holds the index, so the engine's open times out): the
// install stands, and the next search rebuilds the stale index and finds
// what the install added.
func TestFaults_IndexUpdateFails(t *testing.T) {
	ctx := context.Background()
	state := ftFixture(t, "valid")
	e := ftOpen(t, state)
	if _, err := e.Search(ctx, result.SearchQuery{Text: "Craig"}); err != nil {
		t.Fatal(err)
	}
	holder, err := index.OpenWith(filepath.Join(state, "memory", ".scriptorium", "index"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Update(ctx, ftTx(0, ftCreate("topics/z.md", "# Z\n\nThe zymurgy notes. ^e000000a\n")))
	holder.Close()
	if err != nil {
		t.Fatalf("an install whose index update failed: %v", err)
	}
	st, err := e.Status(ctx)
	if err != nil || st.Index.Fresh {
		t.Fatalf("status after the failed index update: fresh %v (%v)", st.Index.Fresh, err)
	}
	res, err := e.Search(ctx, result.SearchQuery{Text: "zymurgy"})
	if err != nil || len(res) != 1 {
		t.Fatalf("search after the failed index update: %v %v", res, err)
	}
}
