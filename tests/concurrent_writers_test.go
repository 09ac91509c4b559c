package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/tests/clitest"
)

// TestConcurrentWriters_EveryTurnArchivedOnceAndCited runs several real
// `scriptorium` processes at once against one state dir, each importing
// turns of the same person (one speaker, so every batch lands in the same
// topic file) and then running `write --force`, round after round. Writes
// race for the lock and build their edits on views other writers move
// past (CONFLICT, retried inside the writer; LOCK_BUSY, retried here as a
// scheduler would). Afterwards `verify` is clean and every imported turn
// is archived exactly once and cited (each states a durable fact, so the
// distilling writer cites it). SCRIPTORIUM_SOAK=1 runs more
// processes for more rounds.
func TestConcurrentWriters_EveryTurnArchivedOnceAndCited(t *testing.T) {
	bin := clitest.Binary(t)
	procs, rounds := 3, 3
	if os.Getenv("SCRIPTORIUM_SOAK") != "" {
		procs, rounds = 6, 8
	}
	state := filepath.Join(t.TempDir(), "state")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	want := map[string]bool{} // every source-id the writers owe
	files := make([][]string, procs)
	for p := 0; p < procs; p++ {
		for r := 0; r < rounds; r++ {
			var b strings.Builder
			// Each process continues its own chat, and every process also
			// imports the same shared turns (import skips the duplicates).
			for _, sess := range []string{fmt.Sprintf("chat-%d", p), "shared"} {
				for i := 0; i < 2; i++ {
					n := r*2 + i
					id, parent := fmt.Sprintf("c%d-m%02d", p, n), ""
					if n > 0 {
						parent = fmt.Sprintf("c%d-m%02d", p, n-1)
					}
					if sess == "shared" {
						id, parent = fmt.Sprintf("r%02d-p%d-%d", r, p, i), ""
					}
					line, _ := json.Marshal(map[string]any{"session": sess, "id": id, "parent": parent, "role": "user",
						"speaker_id": "u1", "speaker_display": "Craig", "tier": "owner",
						"content": fmt.Sprintf("I play the cello with the %s quartet.", id),
						"time":    time.Date(2026, 3, 1, 10, p, r*2+i, 0, time.UTC).Format(time.RFC3339)})
					b.Write(line)
					b.WriteByte('\n')
					want["openprogram/"+sess+"/"+id] = true
				}
			}
			f := filepath.Join(dir, fmt.Sprintf("p%d-r%d.jsonl", p, r))
			if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			files[p] = append(files[p], f)
		}
	}

	var wg sync.WaitGroup
	errs := make(chan error, procs)
	for p := 0; p < procs; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			for _, f := range files[p] {
				if err := cwRun(ctx, bin, "import", f, "--state", state); err != nil {
					errs <- fmt.Errorf("process %d: %w", p, err)
					return
				}
				if err := cwRun(ctx, bin, "write", "--force", "--state", state); err != nil {
					errs <- fmt.Errorf("process %d: %w", p, err)
					return
				}
			}
		}(p)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	// Whatever a lost race left pending, one more write owes nothing after.
	if err := cwRun(ctx, bin, "write", "--force", "--state", state); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(ctx, bin, "verify", "--json", "--state", state).Output()
	if err != nil || !bytes.Contains(out, []byte(`"ok": true`)) {
		t.Fatalf("verify after the concurrent writes: %v\n%s", err, out)
	}
	out, _ = exec.CommandContext(ctx, bin, "status", "--json", "--state", state).Output()
	var st struct {
		Writer struct {
			PendingTurns int `json:"pending_turns"`
		} `json:"writer"`
	}
	if err := json.Unmarshal(out, &st); err != nil || st.Writer.PendingTurns != 0 {
		t.Errorf("status after the writes: %v, %s", err, out)
	}

	frames := cwFrames(t, filepath.Join(state, "memory", "sources"))
	cites := cwCitations(t, filepath.Join(state, "memory", "topics"))
	for ref := range want {
		switch {
		case frames[ref] != 1:
			t.Errorf("%s archived %d times, want once", ref, frames[ref])
		case cites[ref] == 0:
			t.Errorf("%s archived but never cited", ref)
		}
	}
	for ref, n := range frames {
		if !want[ref] {
			t.Errorf("%s archived %d times but never imported", ref, n)
		}
	}
}

// cwRun runs one CLI command, retrying while it fails with a retryable
// error (LOCK_BUSY, CONFLICT) as the idle watcher would; any other failure
// is returned.
func cwRun(ctx context.Context, bin string, args ...string) error {
	for attempt := 1; ; attempt++ {
		out, err := exec.CommandContext(ctx, bin, append(args, "--json")...).Output()
		if err == nil {
			return nil
		}
		var doc struct {
			Error struct {
				Code      string `json:"code"`
				Message   string `json:"message"`
				Retryable bool   `json:"retryable"`
			} `json:"error"`
		}
		if jerr := json.Unmarshal(out, &doc); jerr != nil || !doc.Error.Retryable || ctx.Err() != nil {
			return fmt.Errorf("%s (attempt %d): %v\n%s", strings.Join(args, " "), attempt, err, out)
		}
		time.Sleep(time.Duration(attempt%5) * 20 * time.Millisecond)
	}
}

// cwFrames counts the v2 frames per source-id under sources/, tombstones
// included.
func cwFrames(t *testing.T, root string) map[string]int {
	t.Helper()
	frames, tombs := soakFrames(t, root)
	for id, n := range tombs {
		frames[id] += n
	}
	return frames
}

// cwCitations counts the footnote definitions citing each source-id.
func cwCitations(t *testing.T, root string) map[string]int {
	t.Helper()
	out := map[string]int{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, line := range strings.Split(string(data), "\n") {
			_, srcs, ok := strings.Cut(line, "Sources: ")
			if !strings.HasPrefix(line, "[^") || !ok {
				continue
			}
			for _, c := range strings.Split(srcs, ", ") {
				if ref, _, ok := strings.Cut(strings.TrimPrefix(c, "["), "]("); ok {
					out[ref]++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
