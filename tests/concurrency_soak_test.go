package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"scriptorium/tests/clitest"
	"scriptorium/workspace/archive"
)

// soakTracker is what the soak's workers did, for the checks at the end.
type soakTracker struct {
	mu        sync.Mutex
	imported  map[string]bool // every source-id imported
	owner     map[string]bool // the owner's turns among them
	forgotten map[string]bool // forget succeeded
	counts    map[string]int  // verb -> successful runs
	races     map[string]int  // verb + code -> refusals a race explains
}

func (s *soakTracker) count(m map[string]int, k string) {
	s.mu.Lock()
	m[k]++
	s.mu.Unlock()
}

// soakCLI runs one verb with --json. LOCK_BUSY and the other retryable
// codes are retried (as a scheduler would); ok lists the codes a race
// between the workers explains (a pending source another worker promoted,
// a turn not archived yet), which are returned as such. Anything else is
// an error: a crash, a usage error, IO, output that is not JSON.
func soakCLI(ctx context.Context, bin string, ok []string, args ...string) (out []byte, code string, err error) {
	for attempt := 1; ; attempt++ {
		cmd := exec.CommandContext(ctx, bin, append(args, "--json")...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err = cmd.Output()
		if err == nil {
			if !json.Valid(out) {
				return out, "", fmt.Errorf("%s: output is not JSON:\n%s", strings.Join(args, " "), out)
			}
			return out, "", nil
		}
		var doc struct {
			Error struct {
				Code      string `json:"code"`
				Retryable bool   `json:"retryable"`
			} `json:"error"`
		}
		if jerr := json.Unmarshal(out, &doc); jerr != nil || doc.Error.Code == "" || ctx.Err() != nil {
			return out, "", fmt.Errorf("%s: %v\n%s\n%s", strings.Join(args, " "), err, out, stderr.Bytes())
		}
		for _, c := range ok {
			if doc.Error.Code == c {
				return out, c, nil
			}
		}
		if !doc.Error.Retryable {
			return out, doc.Error.Code, fmt.Errorf("%s: %s\n%s", strings.Join(args, " "), doc.Error.Code, out)
		}
		time.Sleep(time.Duration(attempt%5) * 20 * time.Millisecond)
	}
}

// TestSoak_EveryVerbConcurrently runs several real processes at once on
// one state dir for a bounded time, each picking verbs at random: import
// (its own chat and an unpaired group chat), write, update, search,
// promote, reject, forget, sleep and the reading verbs. Refusals a race
// explains (NOT_FOUND for a source another worker promoted, rejected or
// forgot, or not yet archived) are allowed; any other failure, a crash or
// non-JSON output fails the test. Afterwards verify is clean, nothing is
// pending in sessions.db, and every imported turn is archived exactly
// once as a frame, or, if a forget of it succeeded, is at most one
// tombstone (none when forgotten before the writer archived it) and never
// a frame; every remaining owner turn is cited. 3 workers for 4 s (at
// least one round of every verb each); SCRIPTORIUM_SOAK=1: 6 workers for
// 90 s.
func TestSoak_EveryVerbConcurrently(t *testing.T) {
	bin := clitest.Binary(t)
	workers, dur := 3, 4*time.Second
	if os.Getenv("SCRIPTORIUM_SOAK") == "1" {
		workers, dur = 6, 90*time.Second
	}
	state := filepath.Join(t.TempDir(), "state")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), dur+2*time.Minute)
	defer cancel()
	if _, _, err := soakCLI(ctx, bin, nil, "init", state); err != nil {
		t.Fatal(err)
	}
	tr := &soakTracker{imported: map[string]bool{}, owner: map[string]bool{}, forgotten: map[string]bool{},
		counts: map[string]int{}, races: map[string]int{}}
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if err := soakWorker(ctx, t, bin, state, dir, w, deadline, tr); err != nil {
				errs <- fmt.Errorf("worker %d: %w", w, err)
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	t.Logf("verbs: %v; refusals a race explains: %v", tr.counts, tr.races)

	// Whatever a lost race left pending, one more write owes nothing after.
	if _, _, err := soakCLI(ctx, bin, nil, "write", "--force", "--state", state); err != nil {
		t.Fatal(err)
	}
	out, _, err := soakCLI(ctx, bin, nil, "verify", "--state", state)
	if err != nil || !bytes.Contains(out, []byte(`"ok": true`)) {
		t.Fatalf("verify after the soak: %v\n%s", err, out)
	}
	out, _, err = soakCLI(ctx, bin, nil, "status", "--state", state)
	var st struct {
		Writer struct {
			PendingTurns int `json:"pending_turns"`
		} `json:"writer"`
	}
	if err != nil || json.Unmarshal(out, &st) != nil || st.Writer.PendingTurns != 0 {
		t.Errorf("status after the soak: %v\n%s", err, out)
	}

	frames, tombs := soakFrames(t, filepath.Join(state, "memory", "sources"))
	cites := cwCitations(t, filepath.Join(state, "memory", "topics"))
	var ids []string
	for id := range tr.imported {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		switch {
		// A turn forgotten before the writer archived it leaves nothing; one
		// forgotten after leaves its tombstone. Never its text.
		case tr.forgotten[id] && (tombs[id] > 1 || frames[id] != 0):
			t.Errorf("%s was forgotten: %d tombstones and %d frames, want at most one tombstone and no frame", id, tombs[id], frames[id])
		case !tr.forgotten[id] && (frames[id] != 1 || tombs[id] != 0):
			t.Errorf("%s: %d frames and %d tombstones, want one frame", id, frames[id], tombs[id])
		case !tr.forgotten[id] && tr.owner[id] && cites[id] == 0:
			t.Errorf("%s is the owner's, archived but never cited", id)
		}
	}
	for id := range frames {
		if !tr.imported[id] {
			t.Errorf("%s archived but never imported", id)
		}
	}
	for id := range tombs {
		if !tr.forgotten[id] {
			t.Errorf("%s is a tombstone but no forget of it succeeded", id)
		}
	}
}

// soakWorker is one worker's loop until the deadline.
func soakWorker(ctx context.Context, t *testing.T, bin, state, dir string, w int, deadline time.Time, tr *soakTracker) error {
	rng := rand.New(rand.NewSource(int64(w)*7919 + 1))
	session := fmt.Sprintf("chat-%d", w)
	var mine []string // this worker's owner turns
	n, notes := 0, 0
	parent := ""
	verbs := []string{"import", "import", "import", "write", "write", "update", "update", "search", "search",
		"promote", "reject", "forget", "sleep", "read"}
	// Every verb once per round, in a random order; the first round runs
	// whole however long it takes, so even a slow machine sees every verb.
	var round []string
	for step := 0; step < len(verbs) || time.Now().Before(deadline); step++ {
		if len(round) == 0 {
			for _, i := range rng.Perm(len(verbs)) {
				round = append(round, verbs[i])
			}
		}
		verb := round[0]
		round = round[1:]
		if step == 0 {
			verb = "import"
		}
		switch verb {
		case "import":
			var b strings.Builder
			add := func(turn map[string]any, ref string, owner bool) {
				line, _ := json.Marshal(turn)
				b.Write(line)
				b.WriteByte('\n')
				tr.mu.Lock()
				tr.imported[ref] = true
				tr.owner[ref] = tr.owner[ref] || owner
				tr.mu.Unlock()
			}
			var refs []string
			for i := 0; i < 2; i++ {
				id := fmt.Sprintf("w%d-m%03d", w, n)
				n++
				add(map[string]any{"session": session, "id": id, "parent": parent, "role": "user",
					"speaker_id": "u1", "speaker_display": "Craig", "tier": "owner",
					"content": fmt.Sprintf("I play the cello with the %s quartet.", id),
					"time":    time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(w*100000+n) * time.Second).Format(time.RFC3339)},
					"openprogram/"+session+"/"+id, true)
				parent = id
				refs = append(refs, "openprogram/"+session+"/"+id)
			}
			if rng.Intn(2) == 0 {
				id := fmt.Sprintf("g%d-%03d", w, n)
				add(map[string]any{"session": "group", "id": id, "role": "user", "speaker_id": fmt.Sprintf("x%d", w),
					"speaker_display": "Stranger", "tier": "unpaired", "group": true,
					"content": fmt.Sprintf("Stranger %s says the herons left.", id),
					"time":    time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC).Add(time.Duration(w*100000+n) * time.Second).Format(time.RFC3339)},
					"openprogram/group/"+id, false)
			}
			f := filepath.Join(dir, fmt.Sprintf("w%d-%d.jsonl", w, step))
			if err := os.WriteFile(f, []byte(b.String()), 0o644); err != nil {
				return err
			}
			if _, _, err := soakCLI(ctx, bin, nil, "import", f, "--state", state); err != nil {
				return err
			}
			mine = append(mine, refs...)
		case "write":
			if _, _, err := soakCLI(ctx, bin, nil, "write", "--force", "--state", state); err != nil {
				return err
			}
		case "update":
			for try := 0; ; try++ {
				out, _, err := soakCLI(ctx, bin, nil, "status", "--state", state)
				if err != nil {
					return err
				}
				var st struct {
					Revision int64 `json:"revision"`
				}
				if err := json.Unmarshal(out, &st); err != nil {
					return err
				}
				op := "append"
				if notes == 0 {
					op = "create"
				}
				p := fmt.Sprintf("topics/soak/w%d.md", w)
				content := fmt.Sprintf("Worker %d note %d about herons. ^%08x\n", w, notes, w<<20|notes+1)
				if op == "create" {
					content = fmt.Sprintf("# Worker %d\n\n", w) + content
				}
				tx := filepath.Join(dir, fmt.Sprintf("tx-%d-%d.json", w, step))
				data, _ := json.Marshal(map[string]any{"base_revision": st.Revision,
					"edits": []map[string]any{{"op": op, "path": p, "content": content}}})
				if err := os.WriteFile(tx, data, 0o644); err != nil {
					return err
				}
				_, code, err := soakCLI(ctx, bin, []string{"CONFLICT"}, "update", tx, "--state", state)
				if err != nil {
					return err
				}
				if code == "" {
					notes++
					break
				}
				if try > 50 {
					return fmt.Errorf("update: CONFLICT %d times", try)
				}
			}
		case "search":
			if _, _, err := soakCLI(ctx, bin, nil, "search", "herons", "--state", state); err != nil {
				return err
			}
		case "promote", "reject":
			out, _, err := soakCLI(ctx, bin, nil, "pending", "--state", state)
			if err != nil {
				return err
			}
			var pend struct {
				Sources []struct {
					Ref string `json:"ref"`
				} `json:"sources"`
			}
			if err := json.Unmarshal(out, &pend); err != nil {
				return err
			}
			if len(pend.Sources) == 0 {
				continue
			}
			ref := pend.Sources[rng.Intn(len(pend.Sources))].Ref
			args := []string{verb, ref, "--yes", "--state", state}
			if verb == "reject" {
				args = append(args, "--reason", "soak")
			}
			_, code, err := soakCLI(ctx, bin, []string{"NOT_FOUND", "INVALID_ARGUMENT"}, args...)
			if err != nil {
				return err
			}
			if code != "" {
				tr.count(tr.races, verb+" "+code)
				continue
			}
		case "forget":
			if len(mine) == 0 {
				continue
			}
			ref := mine[rng.Intn(len(mine))]
			// NOT_FOUND: not archived yet; INVALID_ARGUMENT: nothing left
			// to forget (forgotten before).
			_, code, err := soakCLI(ctx, bin, []string{"NOT_FOUND", "INVALID_ARGUMENT"}, "forget", "--source", ref, "--yes", "--state", state)
			if err != nil {
				return err
			}
			if code != "" {
				tr.count(tr.races, "forget "+code)
				continue
			}
			tr.mu.Lock()
			tr.forgotten[ref] = true
			tr.mu.Unlock()
		case "sleep":
			if _, _, err := soakCLI(ctx, bin, nil, "sleep", "--model", "offline", "--state", state); err != nil {
				return err
			}
		case "read":
			for _, args := range [][]string{{"status"}, {"core"}, {"pending"}, {"history"}, {"get", "openprogram/" + session + "/" + fmt.Sprintf("w%d-m000", w)}} {
				ok := []string{}
				if args[0] == "get" {
					ok = []string{"NOT_FOUND"} // not archived yet, or forgotten
				}
				if _, _, err := soakCLI(ctx, bin, ok, append(args, "--state", state)...); err != nil {
					return err
				}
			}
		}
		tr.count(tr.counts, verb)
	}
	return nil
}

// soakFrames counts the v2 frames and the tombstones per source-id under
// sources/.
func soakFrames(t *testing.T, root string) (frames, tombs map[string]int) {
	t.Helper()
	frames, tombs = map[string]int{}, map[string]int{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) != "_v2" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fs, err := archive.ParseV2(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		for _, f := range fs {
			if f.Forgotten {
				tombs[f.SourceID]++
			} else {
				frames[f.SourceID]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return frames, tombs
}
