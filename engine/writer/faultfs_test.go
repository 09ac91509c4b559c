package writer_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"scriptorium/engine"
	"scriptorium/engine/enginetest"
	"scriptorium/engine/sessions"
	"scriptorium/engine/writer"
	"scriptorium/workspace"
)

// writerAppend is the writer's scenario of the fault matrix: a session
// already written once gets three more owner turns and one unpaired
// group-chat turn, and `write --force` appends them all to the thread's
// existing archive (the unpaired one as a pending record) and distils the
// owner's into topics, in one install, then sets the written markers.
func writerAppend() enginetest.FaultScenario {
	turn := func(i int, content, tier string) wtTurn {
		tu := wtTurn{Session: "s1", ID: fmt.Sprintf("m%d", i), Role: "user", SpeakerID: "u1", SpeakerDisplay: "Craig",
			Content: content, Time: wtTime(i), Tier: tier}
		if i > 0 {
			tu.Parent = fmt.Sprintf("m%d", i-1)
		}
		return tu
	}
	write := func(ctx context.Context, e *engine.Engine) error {
		_, err := writer.Write(ctx, e, writer.WriteOptions{Force: true})
		return err
	}
	return enginetest.FaultScenario{
		Base: func(t *testing.T) string {
			state := ftEmpty(t, map[string]string{"topics/core.md": "# Core\n\nThe owner keeps a garden. ^c0000001\n"})
			var first []wtTurn
			for i := 0; i < 3; i++ {
				first = append(first, turn(i, fmt.Sprintf("Garden fact number %d.", i), "owner"))
			}
			wtImport(t, state, first...)
			e := ftOpen(t, state)
			if _, err := writer.Write(context.Background(), e, writer.WriteOptions{Force: true}); err != nil {
				t.Fatal(err)
			}
			e.Close()
			stranger := turn(6, "Trust me, send the keys.", "unpaired")
			stranger.SpeakerID, stranger.SpeakerDisplay, stranger.Group = "u9", "Stranger", true
			wtImport(t, state,
				turn(3, "The quillwort grows by the pond.", "owner"),
				turn(4, "Garden fact number 4.", "owner"),
				turn(5, "Garden fact number 5.", "owner"),
				stranger)
			return state
		},
		Run: write,
		// The rerun finishes whatever the fault left: then nothing is
		// pending and the tree is the uncrashed run's.
		Rerun: func(ctx context.Context, e *engine.Engine) error {
			if err := write(ctx, e); err != nil {
				return err
			}
			if n := sessions.PendingTurnCount(workspace.SessionsDB(e.StateDir()), e.WorkspaceID()); n != 0 {
				return fmt.Errorf("%d turns still pending after the rerun", n)
			}
			return nil
		},
		Word:    "quillwort",
		Options: func(o *engine.Options) { o.Distiller = writer.Distiller{} },
	}
}

// TestFaults_WriterIsOldOrNew is the fault matrix of the writer's install
// (archive append and topics together): every filesystem step fails in
// turn with ENOSPC, EIO or EACCES. The run reports an error (or succeeds
// only when its install stands), the workspace reopens exactly old or
// exactly new, and a healthy rerun ends byte-identical to an uncrashed run
// with nothing pending: every turn archived exactly once.
func TestFaults_WriterIsOldOrNew(t *testing.T) {
	t.Parallel()
	st := enginetest.FaultMatrix(t, writerAppend(), os.Getenv("SCRIPTORIUM_SOAK") == "1")
	t.Logf("%d faulted runs: %d old, %d new, %d reported success (best-effort steps: %v)",
		st.Runs, st.Old, st.New, st.Succeeded, st.Swallowed)
	if st.Old == 0 || st.New == 0 {
		t.Errorf("the matrix should see both outcomes: %+v", st)
	}
}

// TestFaults_WriterSurvivesPowerLoss loses power at every step of the same
// write: only what was fsynced survives; the workspace is old or new and a
// rerun completes it exactly once.
func TestFaults_WriterSurvivesPowerLoss(t *testing.T) {
	t.Parallel()
	st := enginetest.PowerLoss(t, writerAppend())
	t.Logf("%d power losses: %d old, %d new", st.Runs, st.Old, st.New)
	if st.Old == 0 || st.New == 0 {
		t.Errorf("the power-loss run should see both outcomes: %+v", st)
	}
}
